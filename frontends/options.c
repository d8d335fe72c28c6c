#include "frontends/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/opcount_spec.h"
#include "base/interval.h"

/* Kept in step with man/gctop.1; tests/unit/test_options.c checks that every
 * long option appears in both. */
const char gt_help_text[] =
	"Usage: gctop [-p PID] [-b | --json] [-d SECONDS] [-n COUNT] [--no-color]\n"
	"             [--allocators [--allocator-packages LIST]] [--ops NAME]\n"
	"             [-w FILE]\n"
	"       gctop -r FILE [-b | --json] [-n COUNT]\n"
	"       gctop --compare FILE FILE... [--json] [--fail-if EXPR]\n"
	"       gctop -l [--json]\n"
	"       gctop --serve [ADDR:]PORT [-p PID,...] [-d SECONDS]\n"
	"             [--ops NAME [--ops-agent | --ops-agent-match GLOB]]\n"
	"             [--gc-duration-buckets LIST]\n"
	"       gctop --doctor -p PID [-d SECONDS] [--ops NAME [--ops-agent]]\n"
	"       gctop --census -p PID [--json] [--census-anyway]\n"
	"\n"
	"top for the garbage collector: allocation rate, collections per generation,\n"
	"pause time share, large objects, the live set (the heap each old collection\n"
	"left, its growth and the time until it fills the heap or the container) and\n"
	"memory against the container limit of a running JVM (HotSpot 11 to 25,\n"
	"through its perf data) or .NET 8 to 10 process (through its diagnostics\n"
	"socket and an EventPipe session), without restarting it or loading anything\n"
	"into it.\n"
	"\n"
	"Options:\n"
	"  -p, --pid PID         watch process PID (without -p: pick one\n"
	"                        interactively); with --serve a comma-separated list\n"
	"  -b, --batch           print plain text blocks, one per interval, like top -b\n"
	"  -j, --json            print one JSON object per interval (NDJSON);\n"
	"                        with -l, one per process\n"
	"  -d, --delay SECONDS   interval between samples, 0.1 to 3600 s (default 1):\n"
	"                        fractions and a unit allowed, 1.5, 1.5s, 5m, 0.5h\n"
	"  -n, --iterations N    stop after N outputs (default: until interrupted)\n"
	"  -l, --list            list every process gctop can watch, then exit\n"
	"      --no-color        no colours in the interactive view (also when\n"
	"                        NO_COLOR is set)\n"
	"      --allocators      sample allocations and show the top allocators by\n"
	"                        first application frame and by type: on a JVM this\n"
	"                        loads gctop's agent (with --ops-agent the only\n"
	"                        option that changes the target; it stops by\n"
	"                        itself a few seconds after gctop exits) and gives\n"
	"                        the exact allocation total;\n"
	"                        on .NET a second EventPipe session, nothing loaded;\n"
	"                        both give the stacks behind each site (Enter in the\n"
	"                        pane; -b, --json)\n"
	"      --allocator-packages LIST\n"
	"                        comma-separated package prefixes skipped as the\n"
	"                        runtime's own when looking for the first\n"
	"                        application frame\n"
	"                        (default java.,javax.,jdk.,sun.,com.sun.)\n"
	"      --ops NAME        on a JVM, count operations with the perf-data counter\n"
	"                        NAME the application publishes (see gctop(1)), for\n"
	"                        bytes per operation and operations per second;\n"
	"                        read-only. --ops jmx:OBJECTNAME:ATTRIBUTE reads an\n"
	"                        MBean attribute instead (summed over a pattern's\n"
	"                        MBeans, at most 64), through the agent: only with\n"
	"                        --allocators or --ops-agent; --ops jmx:requests\n"
	"                        finds Tomcat's, Jetty's or WildFly's request\n"
	"                        counter itself. With --serve, every JVM that\n"
	"                        publishes NAME is served with its operations\n"
	"      --ops-agent       with --serve or --doctor and --ops jmx:..., load\n"
	"                        gctop's agent into the JVM of -p for that counter\n"
	"                        alone (no allocation sampling); it reads the\n"
	"                        MBean every 100 ms while gctop runs, about 0.3%\n"
	"                        of a core in the JVM (see gctop(1)). Never into\n"
	"                        every JVM: --serve wants -p PID,... or\n"
	"                        --ops-agent-match. Without it nothing is loaded\n"
	"                        and the operations are n/a\n"
	"      --ops-agent-match GLOB\n"
	"                        with --serve and --ops jmx:..., load the agent\n"
	"                        as --ops-agent does, only into the JVMs whose\n"
	"                        main class or whole command line matches the\n"
	"                        shell pattern GLOB, e.g. 'org.apache.catalina.*'\n"
	"                        or '*-Dapp=orders*'; other JVMs are served\n"
	"                        without it\n"
	"      --gc-duration-buckets LIST\n"
	"                        with --serve, jvm_gc_duration_seconds' bucket\n"
	"                        bounds in seconds, ascending, comma-separated,\n"
	"                        each one of 0.0001 0.00025 0.0005 ... 2.5 5 10\n"
	"                        (the grid of gctop_gc_pause_seconds), e.g.\n"
	"                        0.001,0.005,0.01,0.1,1; default OpenTelemetry's\n"
	"                        0.01,0.1,1,10, too coarse for a young pause's\n"
	"                        percentile\n"
	"      --serve [ADDR:]PORT\n"
	"                        serve /metrics (OpenMetrics, or the Prometheus text\n"
	"                        format when asked) for every JVM and .NET process,\n"
	"                        or those of -p, sampled every -d seconds, until\n"
	"                        interrupted; ADDR defaults to 127.0.0.1. Loads\n"
	"                        the agent only with --ops-agent\n"
	"      --web-config FILE with --serve: TLS and basic authentication from\n"
	"                        FILE, in the format of the Prometheus exporter-\n"
	"                        toolkit (tls_server_config: cert_file, key_file,\n"
	"                        client_ca_file, client_auth_type; basic_auth_users:\n"
	"                        NAME: bcrypt hash); read once; a malformed FILE\n"
	"                        exits 18 (see gctop(1), SECURITY)\n"
	"  -w, --write FILE      record every sample to FILE as it is taken (NDJSON,\n"
	"                        mode 0600; with -b, --json or the interactive view);\n"
	"                        never through a link another user could have made,\n"
	"                        never into a file not yours\n"
	"  -r, --read FILE       replay a recording instead of watching a process:\n"
	"                        with -b or --json printed at once (FILE may be a\n"
	"                        pipe), in the interactive view (a regular file)\n"
	"                        step with t and T, rewind with r, jump with b, play\n"
	"                        and pause with space\n"
	"      --compare FILE FILE...\n"
	"                        recorded runs side by side, one column per run,\n"
	"                        with each figure's ratio to the first run (--json:\n"
	"                        one object)\n"
	"      --fail-if EXPR    with --compare: exit 11 when the last run regressed\n"
	"                        against the first, e.g. alloc.bytes_per_op_median>+10%\n"
	"      --doctor          watch -p PID for -d SECONDS (default 10), print the\n"
	"                        findings (what the figures mean, with evidence and a\n"
	"                        next step) and exit 0 with none, else 12 info,\n"
	"                        13 warning, 14 critical\n"
	"      --census          a census of the live objects of -p PID by type\n"
	"                        (count, bytes; --json: one object with types[]),\n"
	"                        once. It costs the target: a JVM stops for a full\n"
	"                        collection and a walk of its heap (about 0.2-1 s\n"
	"                        at 256 MiB, 1.2-3.2 s at 2 GiB), through the attach\n"
	"                        mechanism, nothing loaded; a .NET process collects\n"
	"                        gen2 and walks its heap, stopped (about 0.3-0.5 s\n"
	"                        at 256 MiB, 2.4-3.4 s at 2 GiB), holding the walk\n"
	"                        in memory (44 bytes an object: ~120 MiB at 256 MiB\n"
	"                        live, ~950 MiB at 2 GiB). gctop refuses (exit 16)\n"
	"                        when that expected cost (.NET: as much as the heap\n"
	"                        in use; a JVM: 16 MiB and 2%) exceeds the target's\n"
	"                        headroom (its container's limit less its working\n"
	"                        set, the host's MemAvailable). Exit 0 with a\n"
	"                        census, 17 when the target died during it (the\n"
	"                        sentence names an OOM kill), 1 when interrupted,\n"
	"                        refused or the exchange failed, 4 where the\n"
	"                        runtime has none, 5 for another user's process,\n"
	"                        9 when no answer came in 120 s, else that of the\n"
	"                        failure to open the process (3 to 9)\n"
	"      --census-anyway   with --census: take it even when its cost exceeds\n"
	"                        the target's headroom, at the risk of the kernel\n"
	"                        killing the target for it\n"
	"  -h, --help            this text\n"
	"  -V, --version         the version\n"
	"\n"
	"The interactive view needs a terminal; with stdout not a terminal, or TERM=dumb,\n"
	"gctop prints -b text instead. With -b and --json the first output comes after\n"
	"one interval (on .NET 9+ after the runtime's first allocation counter too,\n"
	"about a second), so every output has its rates (-n 1 gives one with figures); a\n"
	"figure the runtime does not give is n/a (null in JSON), never 0. When the\n"
	"target exits, a last output says so (EXITED; JSON state \"exited\") and gctop\n"
	"exits with 8. See gctop(1) for the panes, keys, security and every JSON key\n"
	"with its unit.\n"
	"\n"
	"Exit status:\n"
	"  0 success                      5 permission denied\n"
	"  1 other failure                6 the runtime publishes no data\n"
	"  2 bad command line             7 the runtime's data is malformed or unsafe\n"
	"  3 no such process              8 the target exited while watched\n"
	"  4 not a JVM or .NET process    9 the target did not become readable in time\n"
	"  10 a recording is truncated, corrupt or not gctop's\n"
	"  11 --fail-if: the last run regressed against the first\n"
	"  --doctor: 12, 13, 14 the worst finding is info, warning, critical\n"
	"  15 -w FILE is unsafe to write (a link, not your regular file, under a link)\n"
	"  --census: 16 its cost exceeds the target's headroom, 17 the target died\n"
	"  18 --web-config FILE is malformed, or a file it names cannot be used\n";

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
	/* Code goes only into JVMs the user chose: never host-wide by default. */
	if (opt->ops_agent && !opt->n_pids && !opt->ops_agent_match)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent loads gctop's agent only into JVMs you choose: give -p PID,... "
			       "or --ops-agent-match GLOB (a main class or command line pattern) instead");
	if (opt->ops_agent_match && opt->n_pids)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent-match chooses among every JVM; with -p use --ops-agent");
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
		return gt_fail(err, GT_EXIT_USAGE, "--ops jmx: reads the MBean through gctop's agent inside the JVM; "
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
		return gt_fail(err, GT_EXIT_USAGE, "--ops jmx: reads the MBean through gctop's agent inside the JVM, "
			       "which only --allocators loads; add --allocators");
	if ((batch || json) && !opt->pid && !opt->replay_path)
		return gt_fail(err, GT_EXIT_USAGE, "%s needs a process: add -p PID (gctop --list shows them)", json ? "--json" : "-b");
	opt->mode = json ? GT_MODE_JSON : batch ? GT_MODE_TEXT : GT_MODE_SCREEN;
	return 0;
}

struct option_flags {
	bool batch, json, list, serve, compare, doctor, delay, census;
};

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
	case 'A': opt->allocators = true; break;
	case 'G': opt->ops_agent = true; break;
	case 'U': {
		const char *why;
		if (gt_duration_bounds_parse(optarg, &opt->gc_duration_buckets, &why) != 0)
			return gt_fail(err, GT_EXIT_USAGE, "--gc-duration-buckets wants %s; not '%s'", why, optarg);
		break;
	}
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
		{ "allocators", no_argument, NULL, 'A' },
		{ "allocator-packages", required_argument, NULL, 'P' },
		{ "ops", required_argument, NULL, 'O' },
		{ "ops-agent", no_argument, NULL, 'G' },
		{ "ops-agent-match", required_argument, NULL, 'M' },
		{ "gc-duration-buckets", required_argument, NULL, 'U' },
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
	if (opt->ops_agent_match && !f.serve)
		return gt_fail(err, GT_EXIT_USAGE, "--ops-agent-match chooses the JVMs of --serve; give --serve too");
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
