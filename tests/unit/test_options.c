/* The command line: values, errors with exit status 2, and --help and the man
 * page naming the same options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/help.h"
#include "frontends/options.h"
#include "model/opcount_spec.h"
#include "tests/unit/check.h"

/* Outlive parse(): the options point into argv (-w FILE, --compare's files). */
static char parse_buf[512], *parse_argv[32];

static int parse(struct gt_options *opt, struct gt_error *err, const char *line)
{
	int argc = 0;
	snprintf(parse_buf, sizeof(parse_buf), "gctop %s", line);
	for (char *t = strtok(parse_buf, " "); t && argc < 31; t = strtok(NULL, " "))
		parse_argv[argc++] = t;
	parse_argv[argc] = NULL;
	memset(err, 0, sizeof(*err));
	return gt_options_parse(argc, parse_argv, opt, err);
}

/* Each command line is refused as a usage error. */
static void check_usage_errors(const char *const *bad, size_t n)
{
	struct gt_options o;
	struct gt_error e;
	for (size_t i = 0; i < n; i++) {
		if (parse(&o, &e, bad[i]) != -1 || e.code != GT_EXIT_USAGE)
			check_fail(__FILE__, __LINE__, "'%s' accepted (or not a usage error)", bad[i]);
	}
}

static void test_defaults(void)
{
	struct gt_options o;
	struct gt_error e;
	unsetenv("NO_COLOR");
	CHECK(parse(&o, &e, "-p 1234") == 0);
	CHECK(o.mode == GT_MODE_SCREEN);
	CHECK_U64(o.pid, 1234);
	CHECK_U64(o.interval_ns, 1000000000ull);
	CHECK_U64(o.count, 0);
	CHECK(!o.no_color);
}

static void test_batch_json_interval_count(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "-p 7 --json -d 0.25 -n 3") == 0);
	CHECK(o.mode == GT_MODE_JSON);
	CHECK_U64(o.interval_ns, 250000000ull);
	CHECK_U64(o.count, 3);
	CHECK(parse(&o, &e, "--pid=7 -b --delay 2") == 0);
	CHECK(o.mode == GT_MODE_TEXT);
	CHECK_U64(o.interval_ns, 2000000000ull);
	CHECK(parse(&o, &e, "-l --json") == 0);
	CHECK(o.mode == GT_MODE_LIST && o.list_json);
	CHECK(parse(&o, &e, "--list") == 0);
	CHECK(o.mode == GT_MODE_LIST && !o.list_json);
}

static void test_no_color(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "--no-color") == 0 && o.no_color);
	setenv("NO_COLOR", "1", 1);
	CHECK(parse(&o, &e, "") == 0 && o.no_color);
	unsetenv("NO_COLOR");
}

static void test_errors_are_usage(void)
{
	static const char *const bad[] = {
		"-p abc", "-p 0", "-p -5", "-d 0", "-d 0.01", "-d nan", "-d 1e9", "-d 1x", "-n 0", "-n -1",
		"--json", "-b", "-p 1 -b --json", "-l -p 3", "--bogus", "-p", "stray", "-p 99999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gt_options o;
		struct gt_error e;
		if (parse(&o, &e, bad[i]) != -1 || e.code != GT_EXIT_USAGE || e.msg[0] == '\0')
			check_fail(__FILE__, __LINE__, "'%s' was not refused with a usage error", bad[i]);
	}
}

/* --metrics-include and --metrics-exclude: with --serve only, lists that
 * add up; a malformed list is a usage error (the list's own rules are
 * tests/unit/test_metrics_filter.c's). */
static void test_metrics_filter_options(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "--serve 9464 --metrics-include jvm_*,gctop_target_info --metrics-exclude "
			    "jvm_memory_limit_bytes") == 0);
	CHECK(o.mode == GT_MODE_SERVE && o.metrics_filter.n_include == 2 && o.metrics_filter.n_exclude == 1);
	CHECK(parse(&o, &e, "--serve 9464 --metrics-include jvm_* --metrics-include process_*") == 0 &&
	      o.metrics_filter.n_include == 2);
	CHECK(parse(&o, &e, "--serve 9464") == 0 && o.metrics_filter.n_include == 0 && o.metrics_filter.n_exclude == 0);
	static const char *const bad[] = {
		"--metrics-include jvm_*", "-l --metrics-exclude jvm_*", "-p 1 -b --metrics-include jvm_*",
		"--serve 9464 --metrics-include", "--serve 9464 --metrics-include jvm_*,", "--serve 9464 --metrics-exclude nope",
		"--serve 9464 --metrics-exclude j*vm",
	};
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
	CHECK(parse(&o, &e, "--serve 9464 --metrics-exclude nope") == -1 && strstr(e.msg, "--metrics-exclude 'nope'") &&
	      !strchr(e.msg, '\n'));
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 19];   /* the man page is past 128 KiB */
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_serve(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "--serve 9464") == 0);
	CHECK(o.mode == GT_MODE_SERVE);
	CHECK_STR(o.serve_host, "127.0.0.1");
	CHECK_U64(o.serve_port, 9464);
	CHECK_U64(o.n_pids, 0);
	CHECK(parse(&o, &e, "--serve 0.0.0.0:9100 -p 12,34,56 -d 5") == 0);
	CHECK_STR(o.serve_host, "0.0.0.0");
	CHECK_U64(o.serve_port, 9100);
	CHECK_U64(o.n_pids, 3);
	CHECK_U64(o.pids[2], 56);
	CHECK_U64(o.pid, 12);
	CHECK_U64(o.interval_ns, 5000000000ull);
	CHECK(parse(&o, &e, "--serve [::1]:0") == 0);
	CHECK_STR(o.serve_host, "::1");
	CHECK_U64(o.serve_port, 0);
	static const char *const bad[] = { "--serve 65536", "--serve :9100", "--serve host:", "--serve x", "-p 1,2",
					   "-p 1,,2 --serve 9", "--serve 9464 -b", "--serve 9464 --json -p 1",
					   "--serve 9464 --allocators", "--serve 9464 -n 3", "--serve 9464 -l" };
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_record_replay_compare(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "-p 5 -b -w run.ndjson") == 0);
	CHECK(o.mode == GT_MODE_TEXT);
	CHECK_STR(o.record_path, "run.ndjson");
	CHECK(parse(&o, &e, "-p 5 --write run.ndjson") == 0 && o.mode == GT_MODE_SCREEN);
	CHECK(parse(&o, &e, "-r run.ndjson --json -n 3") == 0);
	CHECK(o.mode == GT_MODE_JSON && o.pid == 0 && o.count == 3);
	CHECK_STR(o.replay_path, "run.ndjson");
	CHECK(parse(&o, &e, "--read run.ndjson") == 0 && o.mode == GT_MODE_SCREEN);

	CHECK(parse(&o, &e, "--compare a.ndjson --json b.ndjson --fail-if pause.share>+5%") == 0);
	CHECK(o.mode == GT_MODE_COMPARE && o.compare_json);
	CHECK_U64(o.n_compare, 2);
	CHECK_STR(o.compare_files[0], "a.ndjson");
	CHECK_STR(o.compare_files[1], "b.ndjson");
	CHECK_STR(o.fail_if, "pause.share>+5%");

	static const char *const bad[] = { "-w x.ndjson -b", "-w x --serve 9464", "-r x -p 5", "-r x -w y",
					   "-r x --allocators", "-l -r x", "--compare", "--compare a -p 5", "--compare a -b",
					   "--compare a -w b", "--compare a -n 2", "--fail-if x>1%", "-p 5 extra" };
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* --doctor: -d is how long it watches (default 10 s); it samples four
 * times over it, at most once a second and at least every 0.1 s. */
static void test_doctor(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "--doctor -p 12") == 0);
	CHECK(o.mode == GT_MODE_DOCTOR);
	CHECK_U64(o.pid, 12);
	CHECK_U64(o.doctor_ns, 10000000000ull);
	CHECK_U64(o.interval_ns, 1000000000ull);
	CHECK(parse(&o, &e, "-d 2 --doctor -p 12") == 0);
	CHECK_U64(o.doctor_ns, 2000000000ull);
	CHECK_U64(o.interval_ns, 500000000ull);
	CHECK(parse(&o, &e, "--doctor -p 12 -d 0.2") == 0);
	CHECK_U64(o.interval_ns, 100000000ull);
	static const char *const bad[] = { "--doctor", "--doctor -p 1 -b", "--doctor -p 1 --json", "--doctor -p 1 -n 3",
					   "--doctor -p 1,2", "--doctor -l", "--doctor -p 1 --serve 9464",
					   "--doctor -p 1 --allocators", "--doctor -p 1 -d 0" };
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* --ops NAME: a perf-data counter's name, for the live modes and --doctor. */
static void test_opcount(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "-p 12 --json --ops com.example.ops") == 0);
	CHECK(o.mode == GT_MODE_JSON);
	CHECK_STR(o.opcount_counter, "com.example.ops");
	CHECK(parse(&o, &e, "--doctor -p 12 --ops app_ops-1$x") == 0);
	CHECK(o.mode == GT_MODE_DOCTOR);
	CHECK_STR(o.opcount_counter, "app_ops-1$x");
	CHECK(parse(&o, &e, "--serve 9464 --ops app.ops") == 0);   /* every JVM that publishes it */
	CHECK(o.mode == GT_MODE_SERVE);
	CHECK_STR(o.opcount_counter, "app.ops");
	CHECK(parse(&o, &e, "-p 12") == 0);
	CHECK(o.opcount_counter == NULL);
	static const char *const bad[] = { "-p 1 --ops", "-p 1 --ops a\"b", "-p 1 --ops a'b", "-p 1 --ops a/b",
					   "--serve 9464 --ops a/b", "-l --ops x", "-r f --ops x", "--compare a b --ops x" };
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* --ops jmx:OBJECTNAME:ATTRIBUTE: the attribute after the last colon (an
 * ObjectName holds colons of its own, quoted values too); only with
 * --allocators, which loads the agent that reads it, or with --serve and
 * --doctor, where --ops-agent loads it for the counter alone. */
static void test_opcount_jmx(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "-p 12 --json --allocators --ops jmx:Catalina:type=GlobalRequestProcessor,name=*:requestCount") == 0);
	CHECK(o.mode == GT_MODE_JSON && o.allocators);
	CHECK_STR(o.opcount_counter, "jmx:Catalina:type=GlobalRequestProcessor,name=*:requestCount");
	char name[GT_OPCOUNT_JMX_NAME_MAX + 1], attr[GT_OPCOUNT_JMX_ATTR_MAX + 1];
	const char *why;
	CHECK(gt_opcount_jmx_split(o.opcount_counter, name, attr, &why) == 0);
	CHECK_STR(name, "Catalina:type=GlobalRequestProcessor,name=*");
	CHECK_STR(attr, "requestCount");
	CHECK(gt_opcount_jmx_split("jmx:d:k=\"a:b\",x=y:Count_$-1", name, attr, &why) == 0);
	CHECK_STR(name, "d:k=\"a:b\",x=y");
	CHECK_STR(attr, "Count_$-1");
	CHECK(gt_opcount_jmx_split("jmx::k=v:n", name, attr, &why) == 0); /* the default domain */
	CHECK_STR(name, ":k=v");
	CHECK(parse(&o, &e, "-p 12 --ops jmx:d:k=v:n") == -1 && e.code == GT_EXIT_USAGE && strstr(e.msg, "add --allocators"));
	CHECK(parse(&o, &e, "--doctor -p 12 --ops jmx:d:k=v:n") == -1 && e.code == GT_EXIT_USAGE &&
	      strstr(e.msg, "add --ops-agent"));
	CHECK(parse(&o, &e, "--doctor -p 12 --ops jmx:requests --ops-agent") == 0 && o.mode == GT_MODE_DOCTOR && o.ops_agent);
	CHECK_STR(o.opcount_counter, "jmx:requests");
	/* --serve without --ops-agent serves the JVMs, each saying why it has no operations */
	CHECK(parse(&o, &e, "--serve 9464 --ops jmx:d:k=v:n") == 0 && o.mode == GT_MODE_SERVE && !o.ops_agent);
	/* the agent goes only where the user chose: -p, or --ops-agent-match, never host-wide */
	CHECK(parse(&o, &e, "--serve 9464 --ops jmx:requests --ops-agent") == -1 && e.code == GT_EXIT_USAGE &&
	      strstr(e.msg, "--ops-agent-match GLOB"));
	CHECK(parse(&o, &e, "--serve 9464 -p 12,13 --ops jmx:requests --ops-agent") == 0 && o.ops_agent &&
	      !o.ops_agent_match);
	CHECK(parse(&o, &e, "--serve 9464 --ops jmx:requests --ops-agent-match org.apache.catalina.*") == 0 &&
	      o.ops_agent && o.ops_agent_match && strcmp(o.ops_agent_match, "org.apache.catalina.*") == 0);
	CHECK(parse(&o, &e, "--serve 9464 -p 12 --ops jmx:requests --ops-agent-match x*") == -1 &&
	      strstr(e.msg, "with -p use --ops-agent"));
	CHECK(parse(&o, &e, "--doctor -p 12 --ops jmx:requests --ops-agent-match x*") == -1 &&
	      strstr(e.msg, "give --serve too"));
	CHECK(parse(&o, &e, "-p 12 --allocators --ops jmx:requests --ops-agent-match x*") == -1 &&
	      strstr(e.msg, "give --serve too"));
	CHECK(parse(&o, &e, "--census -p 12 --ops-agent") == -1 && e.code == GT_EXIT_USAGE);
	CHECK(parse(&o, &e, "-l --ops-agent") == -1 && e.code == GT_EXIT_USAGE);
	CHECK(parse(&o, &e, "--serve 9464 --ops-agent") == -1 && strstr(e.msg, "give that too"));
	CHECK(parse(&o, &e, "-p 12 -b --allocators --ops jmx:requests --ops-agent") == -1 && strstr(e.msg, "--serve or --doctor"));
	CHECK(parse(&o, &e, "-p 12 --allocators --ops jmx:d") == -1 && strstr(e.msg, "jmx:DOMAIN:KEY=VALUE"));
	static const char *const bad[] = { "-p 1 --allocators --ops jmx:", "-p 1 --allocators --ops jmx:d:k=v",
					   "-p 1 --allocators --ops jmx:d:k=v:", "-p 1 --allocators --ops jmx:d::n",
					   "-p 1 --allocators --ops jmx:d:k=v:a.b", "-p 1 --allocators --ops jmx:d:k=\x01:n",
					   "-p 1 --allocators --ops jmx:d:k=\xc3\xa9:n", "--serve 9464 --ops-agent --ops com.x",
					   "-p 1 -b --ops jmx:d:k=v:n", "--doctor -p 1 --ops-agent", "-p 1 -b --ops jmx:requests",
					   "-p 1 --allocators --ops jmx:requestsx" };
	check_usage_errors(bad, sizeof(bad) / sizeof(bad[0]));
	char longer[300];
	snprintf(longer, sizeof(longer), "jmx:d:k=%0201d:n", 0);
	CHECK(gt_opcount_jmx_split(longer, name, attr, &why) == -1 && strstr(why, "200"));
	snprintf(longer, sizeof(longer), "jmx:d:k=v:%064d", 0);
	CHECK(gt_opcount_jmx_split(longer, name, attr, &why) == -1 && strstr(why, "63"));
}

static void test_help_and_man_page_agree(void)
{
	static const char *const longopts[] = { "--pid", "--batch", "--json", "--delay", "--iterations",
						"--list", "--no-color", "--serve", "--write", "--read", "--compare",
						"--fail-if", "--doctor", "--ops", "--ops-agent", "--ops-agent-match",
						"--gc-duration-buckets", "--allocator-packages", "--metrics-include",
						"--metrics-exclude", "--help", "--version" };
	const char *man = read_file("man/gctop.1");
	char *help = gt_help_text();
	CHECK(man != NULL && help != NULL);
	if (!man || !help) {
		free(help);
		return;
	}
	for (size_t i = 0; i < sizeof(longopts) / sizeof(longopts[0]); i++) {
		char roff[64];
		/* the man page writes a hyphen as \- */
		snprintf(roff, sizeof(roff), "\\-\\-%s", longopts[i] + 2);
		/* every hyphen of the name, not only its first */
		for (char *p = roff + 4; (p = strchr(p, '-')); p += 2) {
			memmove(p + 1, p, strlen(p) + 1);
			*p = '\\';
		}
		if (!strstr(help, longopts[i]))
			check_fail(__FILE__, __LINE__, "--help does not mention %s", longopts[i]);
		if (!strstr(man, roff))
			check_fail(__FILE__, __LINE__, "man/gctop.1 does not mention %s (as %s)", longopts[i], roff);
	}
	/* 0-9, a recording's 10-11 and --doctor's 12-14 */
	for (int status = 0; status <= GT_EXIT_FINDING_CRITICAL; status++) {
		char item[32];
		snprintf(item, sizeof(item), ".IP %d\n", status);
		if (!strstr(man, item))
			check_fail(__FILE__, __LINE__, "man/gctop.1 does not list exit status %d", status);
	}
	free(help);
}

/* --allocators=SOURCE: the source's word goes to the runtime, which
 * refuses one it lacks; a word that is none is a usage error here. */
static void allocators_take_a_source(void)
{
	struct gt_options o;
	struct gt_error e;
	CHECK(parse(&o, &e, "-p 12 --json --allocators") == 0);
	CHECK(o.allocators && o.allocator_source == NULL);
	CHECK(parse(&o, &e, "-p 12 --json --allocators=agent") == 0);
	CHECK(o.allocators && o.allocator_source && strcmp(o.allocator_source, "agent") == 0);
	CHECK(parse(&o, &e, "-p 12 --json --allocators=jfr --allocator-packages com.x.") == 0);
	CHECK(o.allocator_source && strcmp(o.allocator_source, "jfr") == 0);
	CHECK(parse(&o, &e, "-p 12 --json --allocators=") == -1 && e.code == GT_EXIT_USAGE);
	CHECK(parse(&o, &e, "-p 12 --json --allocators=Agent;x") == -1 && e.code == GT_EXIT_USAGE &&
	      strstr(e.msg, "agent or jfr"));
}

int main(void)
{
	RUN_TEST(allocators_take_a_source);
	RUN_TEST(test_defaults);
	RUN_TEST(test_doctor);
	RUN_TEST(test_batch_json_interval_count);
	RUN_TEST(test_no_color);
	RUN_TEST(test_errors_are_usage);
	RUN_TEST(test_metrics_filter_options);
	RUN_TEST(test_serve);
	RUN_TEST(test_record_replay_compare);
	RUN_TEST(test_opcount);
	RUN_TEST(test_opcount_jmx);
	RUN_TEST(test_help_and_man_page_agree);
	return check_summary();
}
