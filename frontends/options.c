#include "frontends/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/opcount_spec.h"
#include "base/interval.h"

static int parse_positive(const char *s, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

/* PID[,PID...] into opt->pids; opt->pid is the first. */
static int parse_pids(const char *s, struct gt_options *opt)
{
	opt->n_pids = 0;
	for (const char *p = s;; p++) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ',') || v <= 0 || v > 0x7fffffffL ||
		    opt->n_pids == GT_OPTIONS_MAX_PIDS)
			return -1;
		opt->pids[opt->n_pids++] = (pid_t)v;
		if (!*end)
			break;
		p = end;
	}
	opt->pid = opt->pids[0];
	return 0;
}

/* A perf-data counter's name as HotSpot's own look ("sun.gc.cause") and
 * as an application would choose one: printable, no spaces or quotes, so
 * it can be shown and written anywhere unescaped. */
#define GT_OPCOUNT_NAME_MAX 200
static int parse_opcount_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > GT_OPCOUNT_NAME_MAX)
		return -1;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-$", *s))
			return -1;
	return 0;
}

/* --ops: a perf-data counter's name, or jmx:OBJECTNAME:ATTRIBUTE
 * (model/opcount_spec.h). 0, or -1 with err. */
static int parse_opcount(const char *arg, struct gt_error *err)
{
	if (gt_opcount_is_server(arg))
		return 0;
	if (gt_opcount_is_jmx(arg)) {
		char name[GT_OPCOUNT_JMX_NAME_MAX + 1], attr[GT_OPCOUNT_JMX_ATTR_MAX + 1];
		const char *why;
		if (gt_opcount_jmx_split(arg, name, attr, &why) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "--ops jmx: %s, e.g. jmx:Catalina:type=GlobalRequestProcessor,"
				       "name=*:requestCount (or jmx:requests); not '%.240s'", why, arg);
		return 0;
	}
	if (parse_opcount_name(arg) != 0)
		return gt_fail(err, GT_EXIT_USAGE, "--ops wants the name of a perf-data counter, e.g. "
			       "com.example.requests (letters, digits and . _ - $ only), or jmx:OBJECTNAME:ATTRIBUTE, "
			       "not '%s'", arg);
	return 0;
}

/* [ADDR:]PORT; ADDR may be an IPv6 address in brackets. */
static int parse_serve(const char *s, struct gt_options *opt)
{
	const char *colon = strrchr(s, ':');
	const char *port = colon ? colon + 1 : s;
	snprintf(opt->serve_host, sizeof(opt->serve_host), "127.0.0.1");
	if (colon) {
		const char *h = s;
		size_t n = (size_t)(colon - s);
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (n == 0 || n >= sizeof(opt->serve_host))
			return -1;
		memcpy(opt->serve_host, h, n);
		opt->serve_host[n] = '\0';
	}
	char *end;
	errno = 0;
	long v = strtol(port, &end, 10);
	if (errno || end == port || *end || v < 0 || v > 65535)
		return -1;
	opt->serve_port = (unsigned)v;
	return 0;
}

/* --serve's companions: -p (a list) and -d; nothing that prints or loads. */
static int check_serve(struct gt_options *opt, bool output, struct gt_error *err)
{
	if (output || opt->count)
		return gt_fail(err, GT_EXIT_USAGE, "--serve runs until interrupted and prints nothing; drop -b, --json and -n");
	if (opt->allocators || opt->allocator_packages)
		return gt_fail(err, GT_EXIT_USAGE, "--serve never loads the agent or samples allocations; drop --allocators");
	if (opt->ops_agent && !(opt->opcount_counter && gt_opcount_is_jmx(opt->opcount_counter)))
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent loads gctop's agent for --ops jmx:...; give that too");
	/* Code goes only into processes the user chose: never host-wide by default. */
	if (opt->ops_agent && !opt->n_pids && !opt->ops_agent_match)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent loads gctop's agent only into processes you choose: give -p PID,... "
			       "or --ops-agent-match GLOB (a main class or command line pattern) instead");
	if (opt->ops_agent_match && opt->n_pids)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent-match chooses among every process; with -p use --ops-agent");
	opt->mode = GT_MODE_SERVE;
	return 0;
}

/* --compare FILE...: reads recordings and prints once; nothing live. */
static int check_compare(struct gt_options *opt, bool batch, bool list, bool serve, struct gt_error *err)
{
	if (opt->pid || batch || list || serve || opt->count || opt->allocators || opt->record_path || opt->replay_path ||
	    opt->opcount_counter || opt->ops_agent)
		return gt_fail(err, GT_EXIT_USAGE, "--compare reads recordings only; it takes files, --json and --fail-if");
	if (opt->n_compare == 0)
		return gt_fail(err, GT_EXIT_USAGE, "--compare wants recordings: gctop --compare BEFORE AFTER");
	opt->mode = GT_MODE_COMPARE;
	return 0;
}

/* -w and -r: a recording is written from a live target, or read instead of one. */
static int check_recording(const struct gt_options *opt, bool list, bool serve, struct gt_error *err)
{
	if ((opt->record_path || opt->replay_path) && (list || serve))
		return gt_fail(err, GT_EXIT_USAGE, "-w and -r go with -b, --json or the interactive view, not --list or --serve");
	if (opt->replay_path && (opt->pid || opt->record_path || opt->allocators || opt->opcount_counter))
		return gt_fail(err, GT_EXIT_USAGE, "-r replays a recording: it takes no -p, -w, --allocators or --ops");
	if (opt->record_path && !opt->pid)
		return gt_fail(err, GT_EXIT_USAGE, "-w records one process: add -p PID (gctop --list shows them)");
	return 0;
}

/* --doctor: -p and -d (how long to watch) only; it samples a few times a
 * second up to once a second. */
#define GT_DOCTOR_DEFAULT_NS 10000000000ull
#define GT_DOCTOR_INTERVALS 4
static int check_doctor(struct gt_options *opt, bool other, bool delay, struct gt_error *err)
{
	if (other || opt->count || opt->allocators || opt->n_pids > 1 || opt->record_path || opt->replay_path ||
	    opt->n_compare)
		return gt_fail(err, GT_EXIT_USAGE, "--doctor takes one -p PID, -d SECONDS, --ops NAME and --ops-agent only");
	bool jmx = opt->opcount_counter && gt_opcount_is_jmx(opt->opcount_counter);
	if (jmx && !opt->ops_agent)
		return gt_fail(err, GT_EXIT_USAGE, "--ops jmx: reads the MBean through gctop's agent inside the target; "
			       "add --ops-agent to let --doctor load it for that counter alone");
	if (opt->ops_agent && !jmx)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent loads gctop's agent for --ops jmx:...; give that too");
	if (!opt->pid)
		return gt_fail(err, GT_EXIT_USAGE, "--doctor needs a process: add -p PID (gctop --list shows them)");
	opt->doctor_ns = delay ? opt->interval_ns : GT_DOCTOR_DEFAULT_NS;
	opt->interval_ns = opt->doctor_ns / GT_DOCTOR_INTERVALS;
	if (opt->interval_ns > 1000000000ull)
		opt->interval_ns = 1000000000ull;
	if (opt->interval_ns < 100000000ull) /* -d's own floor */
		opt->interval_ns = 100000000ull;
	opt->mode = GT_MODE_DOCTOR;
	return 0;
}

/* --census: one -p PID, and --json for the object instead of the table. */
static int check_census(struct gt_options *opt, bool other, bool json, struct gt_error *err)
{
	if (other || opt->count || opt->allocators || opt->n_pids > 1 || opt->record_path || opt->replay_path ||
	    opt->n_compare || opt->opcount_counter || opt->ops_agent || opt->fail_if)
		return gt_fail(err, GT_EXIT_USAGE, "--census takes one -p PID, --json and --census-anyway only");
	if (!opt->pid)
		return gt_fail(err, GT_EXIT_USAGE, "--census needs a process: add -p PID (gctop --list shows them)");
	opt->census_json = json;
	opt->mode = GT_MODE_CENSUS;
	return 0;
}

/* The mode the flags ask for, and the combinations that make no sense. */
static int choose_mode(struct gt_options *opt, bool batch, bool json, bool list, bool serve, struct gt_error *err)
{
	if (batch && json)
		return gt_fail(err, GT_EXIT_USAGE, "-b and --json are two output formats; choose one");
	if (opt->fail_if && !opt->n_compare)
		return gt_fail(err, GT_EXIT_USAGE, "--fail-if judges runs of --compare");
	if (opt->n_compare) {
		opt->compare_json = json;
		return check_compare(opt, batch, list, serve, err);
	}
	if (check_recording(opt, list, serve, err) != 0)
		return -1;
	if (list) {
		if (opt->pid || batch || serve || opt->opcount_counter || opt->ops_agent)
			return gt_fail(err, GT_EXIT_USAGE, "--list takes no -p, -b, --serve or --ops; it lists every process once");
		opt->mode = GT_MODE_LIST;
		opt->list_json = json;
		return 0;
	}
	if (serve)
		return check_serve(opt, batch || json, err);
	if (opt->n_pids > 1)
		return gt_fail(err, GT_EXIT_USAGE, "-p takes one process, or a list with --serve");
	if (opt->allocator_packages && !opt->allocators)
		return gt_fail(err, GT_EXIT_USAGE, "--allocator-packages needs --allocators");
	if (opt->ops_agent)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent goes with --serve or --doctor; here --allocators loads the agent");
	/* Loading code into the target is asked for by name, once: --allocators. */
	if (opt->opcount_counter && gt_opcount_is_jmx(opt->opcount_counter) && !opt->allocators)
		return gt_fail(err, GT_EXIT_USAGE, "--ops jmx: reads the MBean through gctop's agent inside the target, "
			       "which only --allocators loads; add --allocators");
	if ((batch || json) && !opt->pid && !opt->replay_path)
		return gt_fail(err, GT_EXIT_USAGE, "%s needs a process: add -p PID (gctop --list shows them)", json ? "--json" : "-b");
	opt->mode = json ? GT_MODE_JSON : batch ? GT_MODE_TEXT : GT_MODE_SCREEN;
	return 0;
}

struct option_flags {
	bool batch, json, list, serve, compare, doctor, delay, census;
};

/* --serve's valued options: --gc-duration-buckets (U) and
 * --metrics-include/--metrics-exclude (I, X). */
static int parse_serve_value(int c, struct gt_options *opt, struct gt_error *err)
{
	const char *why;
	char families[200];

	if (c == 'U') {
		if (gt_duration_bounds_parse(optarg, &opt->gc_duration_buckets, &why) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "--gc-duration-buckets wants %s; not '%s'", why, optarg);
		return 0;
	}
	if (gt_metrics_filter_parse(&opt->metrics_filter, optarg, c == 'I', families, sizeof(families)) != 0)
		return gt_fail(err, GT_EXIT_USAGE, "%s %s; it wants family names or prefixes ending in *, "
			       "comma-separated, e.g. jvm_*,gctop_gc_pause_seconds",
			       c == 'I' ? "--metrics-include" : "--metrics-exclude", families);
	return 0;
}

/* One option c (getopt's return); arg is what the user typed, for sentences.
 * Returns 0, 1 for --help and --version (parsing ends), or -1 with err. */
static int parse_option(int c, const char *arg, struct gt_options *opt, struct option_flags *f, struct gt_error *err)
{
	switch (c) {
	case 'p':
		if (parse_pids(optarg, opt) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "-p wants a process id (a positive whole number), not '%s'", optarg);
		break;
	case 'S':
		if (parse_serve(optarg, opt) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "--serve wants [ADDR:]PORT, e.g. 9464 or 0.0.0.0:9464, not '%s'", optarg);
		f->serve = true;
		break;
	case 'b': f->batch = true; break;
	case 'j': f->json = true; break;
	case 'd':
		f->delay = true;
		if (gt_interval_parse(optarg, &opt->interval_ns) != GT_INTERVAL_OK)
			return gt_fail(err, GT_EXIT_USAGE, "-d wants " GT_INTERVAL_WANTS ", not '%s'", optarg);
		break;
	case 'n':
		if (parse_positive(optarg, 1000000000L, &opt->count) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "-n wants a positive number of samples, not '%s'", optarg);
		break;
	case 'l': f->list = true; break;
	case 'C': opt->no_color = true; break;
	case 'A':
		/* --allocators=SOURCE: the runtime names its sources and
		 * refuses one it lacks when sampling starts */
		if (optarg && (!*optarg || strlen(optarg) > 32 || strspn(optarg, "abcdefghijklmnopqrstuvwxyz") != strlen(optarg)))
			return gt_fail(err, GT_EXIT_USAGE, "--allocators=SOURCE wants a source's name such as agent or jfr, not '%s'", optarg);
		opt->allocators = true;
		opt->allocator_source = optarg;
		break;
	case 'G': opt->ops_agent = true; break;
	case 'U':
	case 'I':
	case 'X':
		return parse_serve_value(c, opt, err);
	case 'M':
		if (!*optarg || strlen(optarg) > 900)
			return gt_fail(err, GT_EXIT_USAGE, "--ops-agent-match wants a shell pattern such as 'org.apache.catalina.*'");
		opt->ops_agent = true;
		opt->ops_agent_match = optarg;
		break;
	case 'T': f->doctor = true; break;
	case 'E': f->census = true; break;
	case 'Y': opt->census_anyway = true; break;
	case 'P':
		if (!*optarg || strlen(optarg) > 900)
			return gt_fail(err, GT_EXIT_USAGE, "--allocator-packages wants prefixes like com.example. separated by commas");
		opt->allocator_packages = optarg;
		break;
	case 'O':
		if (parse_opcount(optarg, err) != 0)
			return -1;
		opt->opcount_counter = optarg;
		break;
	case 'W': opt->web_config = optarg; break;
	case 'w': opt->record_path = optarg; break;
	case 'r': opt->replay_path = optarg; break;
	case 'K': f->compare = true; break;
	case 'F': opt->fail_if = optarg; break;
	case 'h': opt->mode = GT_MODE_HELP; return 1;
	case 'V': opt->mode = GT_MODE_VERSION; return 1;
	case ':':
		return gt_fail(err, GT_EXIT_USAGE, "option %s needs a value; see gctop --help", arg);
	default:
		return gt_fail(err, GT_EXIT_USAGE, "unknown option '%s'; see gctop --help", arg);
	}
	return 0;
}

int gt_options_parse(int argc, char **argv, struct gt_options *opt, struct gt_error *err)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "allocators", optional_argument, NULL, 'A' },
		{ "allocator-packages", required_argument, NULL, 'P' },
		{ "ops", required_argument, NULL, 'O' },
		{ "ops-agent", no_argument, NULL, 'G' },
		{ "ops-agent-match", required_argument, NULL, 'M' },
		{ "gc-duration-buckets", required_argument, NULL, 'U' },
		{ "metrics-include", required_argument, NULL, 'I' },
		{ "metrics-exclude", required_argument, NULL, 'X' },
		{ "serve", required_argument, NULL, 'S' },
		{ "web-config", required_argument, NULL, 'W' },
		{ "write", required_argument, NULL, 'w' },
		{ "read", required_argument, NULL, 'r' },
		{ "compare", no_argument, NULL, 'K' },
		{ "fail-if", required_argument, NULL, 'F' },
		{ "doctor", no_argument, NULL, 'T' },
		{ "census", no_argument, NULL, 'E' },
		{ "census-anyway", no_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct option_flags f = { 0 };

	memset(opt, 0, sizeof(*opt));
	opt->interval_ns = 1000000000ull;
	const char *nc = getenv("NO_COLOR");
	opt->no_color = nc && *nc;

	/* 0, not 1: glibc then forgets where an earlier parse stopped inside a
	 * group of short options (a parse that failed mid-way). */
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":p:bjd:n:lw:r:hV", longopts, NULL)) != -1) {
		int rc = parse_option(c, argv[optind - 1], opt, &f, err);
		if (rc != 0)
			return rc > 0 ? 0 : -1;
	}
	if (f.compare) {
		opt->compare_files = argv + optind;
		opt->n_compare = (size_t)(argc - optind);
		if (opt->n_compare == 0)
			return gt_fail(err, GT_EXIT_USAGE, "--compare wants recordings: gctop --compare BEFORE AFTER");
	} else if (optind < argc) {
		return gt_fail(err, GT_EXIT_USAGE, "unexpected argument '%s'; give the process as -p PID", argv[optind]);
	}
	if (opt->gc_duration_buckets.n && !f.serve)
		return gt_fail(err, GT_EXIT_USAGE, "--gc-duration-buckets shapes --serve's jvm_gc_duration_seconds; give --serve too");
	if ((opt->metrics_filter.n_include || opt->metrics_filter.n_exclude) && !f.serve)
		return gt_fail(err, GT_EXIT_USAGE, "--metrics-include and --metrics-exclude choose the families of --serve's "
			       "/metrics; give --serve too");
	if (opt->ops_agent_match && !f.serve)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent-match chooses the processes of --serve; give --serve too");
	if (opt->web_config && !f.serve)
		return gt_fail(err, GT_EXIT_USAGE, "--web-config goes with --serve");
	if (f.doctor && f.census)
		return gt_fail(err, GT_EXIT_USAGE, "--doctor watches and --census counts; choose one");
	if (f.doctor)
		return check_doctor(opt, f.batch || f.json || f.list || f.serve || f.compare, f.delay, err);
	if (opt->census_anyway && !f.census)
		return gt_fail(err, GT_EXIT_USAGE, "--census-anyway goes with --census");
	if (f.census)
		return check_census(opt, f.batch || f.list || f.serve || f.compare || f.delay, f.json, err);
	return choose_mode(opt, f.batch, f.json, f.list, f.serve, err);
}
