/* The command line, parsed once into plain values. */
#ifndef GCTOP_FRONTENDS_OPTIONS_H
#define GCTOP_FRONTENDS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/pause_hist.h"
#include "views/metrics_filter.h"

/* -p with --serve takes a list. */
#define GT_OPTIONS_MAX_PIDS 256

enum gt_mode {
	GT_MODE_SCREEN = 0,   /* full-screen view (or the picker without -p) */
	GT_MODE_TEXT,      /* -b: plain text blocks like top -b */
	GT_MODE_JSON,      /* --json: one JSON object per interval (NDJSON) */
	GT_MODE_LIST,      /* -l/--list: every process gctop can watch, once */
	GT_MODE_SERVE,     /* --serve: /metrics for Prometheus, until interrupted */
	GT_MODE_COMPARE,   /* --compare FILE FILE...: recorded runs side by side */
	GT_MODE_DOCTOR,    /* --doctor: watch -d seconds, print the findings, exit by the worst */
	GT_MODE_CENSUS,    /* --census: one census of the live objects (stops or collects in the target) */
	GT_MODE_HELP,
	GT_MODE_VERSION,
};

struct gt_options {
	enum gt_mode mode;
	bool list_json;          /* --list --json */
	pid_t pid;               /* 0: none given; the first of pids */
	pid_t pids[GT_OPTIONS_MAX_PIDS]; /* -p PID,... */
	size_t n_pids;
	char serve_host[64];     /* --serve [ADDR:]PORT: the address, 127.0.0.1 when not given */
	unsigned serve_port;     /* 0: any free port (gctop says which) */
	const char *web_config;  /* --web-config FILE: --serve's TLS and basic authentication, or NULL */
	uint64_t interval_ns;    /* -d, default 1 s */
	long count;              /* -n, 0: until interrupted */
	bool no_color;           /* --no-color or NO_COLOR set */
	bool allocators;         /* --allocators: load the sampling agent, show top allocators */
	const char *allocator_packages; /* --allocator-packages LIST, NULL: the runtime's defaults */
	const char *allocator_source;   /* --allocators=SOURCE, NULL: the runtime's choice */
	const char *opcount_counter; /* --ops NAME: a JVM's perf-data counter of operations, or NULL */
	bool ops_agent;          /* --ops-agent: --serve and --doctor load the agent for --ops jmx: alone */
	const char *ops_agent_match; /* --ops-agent-match GLOB: --serve loads it only into JVMs that match */
	struct gt_duration_bounds gc_duration_buckets; /* --gc-duration-buckets; n 0: OpenTelemetry's */
	struct gt_metrics_filter metrics_filter; /* --metrics-include, --metrics-exclude; empty: every family */
	const char *record_path; /* -w FILE: every sample written to FILE */
	const char *replay_path; /* -r FILE: a recording shown instead of a live target */
	char **compare_files;    /* --compare: the recordings, in argv */
	size_t n_compare;
	bool compare_json;       /* --compare --json */
	const char *fail_if;     /* --compare --fail-if EXPR */
	uint64_t doctor_ns;      /* --doctor: how long to watch (-d, default 10 s) */
	bool census_json;        /* --census --json */
	bool census_anyway;      /* --census-anyway: past the headroom rule (model/census_cost.h) */
};

/* Returns 0, or -1 with err (GT_EXIT_USAGE) naming the bad argument. */
int gt_options_parse(int argc, char **argv, struct gt_options *opt, struct gt_error *err);

#endif
