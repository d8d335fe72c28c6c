#include "tui/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kept in step with man/gctop.1; tests/unit/test_options.c checks that every
 * long option appears in both. */
const char gt_help_text[] =
	"Usage: gctop [-p PID] [-b | --json] [-d SECONDS] [-n COUNT] [--no-color]\n"
	"             [--allocators [--allocator-packages LIST]]\n"
	"       gctop -l [--json]\n"
	"       gctop --serve [ADDR:]PORT [-p PID,...] [-d SECONDS]\n"
	"       gctop --doctor -p PID [-d SECONDS]\n"
	"\n"
	"top for the garbage collector: allocation rate, collections per generation,\n"
	"pause time share, large objects and memory against the container limit of a\n"
	"running JVM (HotSpot 11 to 25, through its perf data) or .NET 8 to 10 process\n"
	"(through its diagnostics socket and an EventPipe session), without restarting\n"
	"it or loading anything into it.\n"
	"\n"
	"Options:\n"
	"  -p, --pid PID         watch process PID (without -p: pick one interactively);\n"
	"                        with --serve a comma-separated list\n"
	"  -b, --batch           print plain text blocks, one per interval, like top -b\n"
	"  -j, --json            print one JSON object per interval (NDJSON); with -l, one per process\n"
	"  -d, --delay SECONDS   interval between samples, fractions allowed (default 1, 0.1 to 3600)\n"
	"  -n, --iterations N    stop after N outputs (default: until interrupted)\n"
	"  -l, --list            list every process gctop can watch, then exit\n"
	"      --no-color        no colours in the interactive view (also when NO_COLOR is set)\n"
	"      --allocators      sample allocations and show the top allocators by first\n"
	"                        application frame and by type: on a JVM this loads gctop's agent\n"
	"                        (the only option that changes the target; it stops by itself a\n"
	"                        few seconds after gctop exits) and gives the exact allocation\n"
	"                        total; on .NET a second EventPipe session, nothing loaded\n"
	"      --allocator-packages LIST\n"
	"                        comma-separated package prefixes skipped as the runtime's own when\n"
	"                        looking for the first application frame\n"
	"                        (default java.,javax.,jdk.,sun.,com.sun.)\n"
	"      --serve [ADDR:]PORT\n"
	"                        serve /metrics (OpenMetrics, or the Prometheus text format\n"
	"                        when asked) for every JVM and .NET process, or those of -p,\n"
	"                        sampled every -d seconds, until interrupted; ADDR defaults\n"
	"                        to 127.0.0.1. Never loads the agent\n"
	"      --doctor          watch -p PID for -d SECONDS (default 10), print the findings\n"
	"                        (what the figures mean, with evidence and a next step) and\n"
	"                        exit 0 with none, else 10 info, 11 warning, 12 critical\n"
	"  -h, --help            this text\n"
	"  -V, --version         the version\n"
	"\n"
	"The interactive view needs a terminal; with stdout not a terminal, or TERM=dumb,\n"
	"gctop prints -b text instead. With -b and --json the first output comes after\n"
	"one interval, so every output has its rates (-n 1 gives one with figures); a\n"
	"figure the runtime does not give is n/a (null in JSON), never 0. See gctop(1)\n"
	"for the panes, keys, security and every JSON key with its unit.\n"
	"\n"
	"Exit status:\n"
	"  0 success                      5 permission denied\n"
	"  1 other failure                6 the runtime publishes no data\n"
	"  2 bad command line             7 the runtime's data is malformed or unsafe\n"
	"  3 no such process              8 the target exited while watched\n"
	"  4 not a JVM or .NET process    9 the target did not become readable in time\n"
	"  --doctor: 10, 11, 12 the worst finding is info, warning, critical\n";

static int parse_interval(const char *s, uint64_t *ns)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0.1 || v > 3600)
		return -1;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

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
	opt->mode = GT_MODE_SERVE;
	return 0;
}

/* --doctor: -p and -d (how long to watch) only; it samples a few times a
 * second up to once a second. */
#define GT_DOCTOR_DEFAULT_NS 10000000000ull
#define GT_DOCTOR_INTERVALS 4
static int check_doctor(struct gt_options *opt, bool other, bool delay, struct gt_error *err)
{
	if (other || opt->count || opt->allocators || opt->n_pids > 1)
		return gt_fail(err, GT_EXIT_USAGE, "--doctor takes one -p PID and -d SECONDS only");
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

/* The mode the flags ask for, and the combinations that make no sense. */
static int choose_mode(struct gt_options *opt, bool batch, bool json, bool list, bool serve, struct gt_error *err)
{
	if (batch && json)
		return gt_fail(err, GT_EXIT_USAGE, "-b and --json are two output formats; choose one");
	if (list) {
		if (opt->pid || batch || serve)
			return gt_fail(err, GT_EXIT_USAGE, "--list takes no -p, -b or --serve; it lists every process once");
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
	if ((batch || json) && !opt->pid)
		return gt_fail(err, GT_EXIT_USAGE, "%s needs a process: add -p PID (gctop --list shows them)", json ? "--json" : "-b");
	opt->mode = json ? GT_MODE_JSON : batch ? GT_MODE_TEXT : GT_MODE_TUI;
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
		{ "serve", required_argument, NULL, 'S' },
		{ "doctor", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool batch = false, json = false, list = false, serve = false, doctor = false, delay = false;

	memset(opt, 0, sizeof(*opt));
	opt->interval_ns = 1000000000ull;
	const char *nc = getenv("NO_COLOR");
	opt->no_color = nc && *nc;

	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":p:bjd:n:lhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_pids(optarg, opt) != 0)
				return gt_fail(err, GT_EXIT_USAGE, "-p wants a process id (a positive whole number), not '%s'", optarg);
			break;
		case 'S':
			if (parse_serve(optarg, opt) != 0)
				return gt_fail(err, GT_EXIT_USAGE, "--serve wants [ADDR:]PORT, e.g. 9464 or 0.0.0.0:9464, not '%s'", optarg);
			serve = true;
			break;
		case 'b': batch = true; break;
		case 'j': json = true; break;
		case 'd':
			delay = true;
			if (parse_interval(optarg, &opt->interval_ns) != 0)
				return gt_fail(err, GT_EXIT_USAGE, "-d wants seconds between 0.1 and 3600 (fractions allowed), not '%s'", optarg);
			break;
		case 'n':
			if (parse_positive(optarg, 1000000000L, &opt->count) != 0)
				return gt_fail(err, GT_EXIT_USAGE, "-n wants a positive number of samples, not '%s'", optarg);
			break;
		case 'l': list = true; break;
		case 'C': opt->no_color = true; break;
		case 'A': opt->allocators = true; break;
		case 'T': doctor = true; break;
		case 'P':
			if (!*optarg || strlen(optarg) > 900)
				return gt_fail(err, GT_EXIT_USAGE, "--allocator-packages wants prefixes like com.example. separated by commas");
			opt->allocator_packages = optarg;
			break;
		case 'h': opt->mode = GT_MODE_HELP; return 0;
		case 'V': opt->mode = GT_MODE_VERSION; return 0;
		case ':':
			return gt_fail(err, GT_EXIT_USAGE, "option %s needs a value; see gctop --help", argv[optind - 1]);
		default:
			return gt_fail(err, GT_EXIT_USAGE, "unknown option '%s'; see gctop --help", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return gt_fail(err, GT_EXIT_USAGE, "unexpected argument '%s'; give the process as -p PID", argv[optind]);
	if (doctor)
		return check_doctor(opt, batch || json || list || serve, delay, err);
	return choose_mode(opt, batch, json, list, serve, err);
}
