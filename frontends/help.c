/* --help (frontends/help.h): the usage, each option with its text wrapped
 * under it, the exit statuses. Where a text speaks of the runtimes, a
 * {word} in it stands for what each registered runtime's traits say
 * (model/runtime.h's help), joined. */
#include "frontends/help.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/runtimes.h"

/* Every line fits an 80-column terminal with a column to spare. */
#define HELP_WIDTH 79
/* An option's text starts in this column, under the heading when the
 * heading is longer. */
#define HELP_TEXT_COLUMN 24
#define HELP_PARAGRAPH_MAX 4096

static const char help_usage[] =
	"Usage: gctop [-p PID] [-b | --json] [-d SECONDS] [-n COUNT] [--no-color]\n"
	"             [--allocators[=SOURCE] [--allocator-packages LIST]] [--ops NAME]\n"
	"             [-w FILE]\n"
	"       gctop -r FILE [-b | --json] [-n COUNT]\n"
	"       gctop --compare FILE FILE... [--json] [--fail-if EXPR]\n"
	"       gctop -l [--json]\n"
	"       gctop --serve [ADDR:]PORT [-p PID,...] [-d SECONDS]\n"
	"             [--ops NAME [--ops-agent | --ops-agent-match GLOB]]\n"
	"             [--gc-duration-buckets LIST]\n"
	"             [--metrics-include LIST] [--metrics-exclude LIST]\n"
	"       gctop --doctor -p PID [-d SECONDS] [--ops NAME [--ops-agent]]\n"
	"       gctop --census -p PID [--json] [--census-anyway]\n";

static const char help_about[] =
	"top for the garbage collector: allocation rate, collections per generation, pause time share, large "
	"objects, the live set (the heap each old collection left, its growth and the time until it fills the heap "
	"or the container) and memory against the container limit of a running process, without restarting it "
	"or loading anything into it: {reads}.";

struct help_option {
	const char *head;
	const char *text;
};

/* Kept in step with man/gctop.1 and README (tests/unit/test_options.c,
 * tests/static/docs_agree.py). */
static const struct help_option help_options[] = {
	{ "-p, --pid PID", "watch process PID (without -p: pick one interactively); with --serve a comma-separated "
			   "list" },
	{ "-b, --batch", "print plain text blocks, one per interval, like top -b" },
	{ "-j, --json", "print one JSON object per interval (NDJSON); with -l, one per process" },
	{ "-d, --delay SECONDS", "interval between samples, 0.1 to 3600 s (default 1): fractions and a unit "
				 "allowed, 1.5, 1.5s, 5m, 0.5h" },
	{ "-n, --iterations N", "stop after N outputs (default: until interrupted)" },
	{ "-l, --list", "list every process gctop can watch, then exit" },
	{ "    --no-color", "no colours in the interactive view (also when NO_COLOR is set)" },
	{ "    --allocators[=SOURCE]", "sample allocations and show the top allocators by first application frame "
				      "and by type: {allocators}; the stacks behind each site where the sampler "
				      "takes them (Enter in the pane; -b, --json)" },
	{ "    --allocator-packages LIST", "comma-separated package prefixes skipped as the runtime's own when "
					   "looking for the first application frame (default {packages})" },
	{ "    --ops NAME", "count operations, for bytes per operation and operations per second, read-only: "
			    "{opcount}. With --serve, every process that publishes NAME is served with its "
			    "operations" },
	{ "    --ops-agent", "with --serve or --doctor and --ops jmx:..., load gctop's agent into the process of "
			     "-p for that counter alone (no allocation sampling); it reads the MBean every 100 ms "
			     "while gctop runs, about 0.3% of a core in the target (see gctop(1)). Never into every "
			     "process: --serve wants -p PID,... or --ops-agent-match. Without it nothing is loaded and "
			     "the operations are n/a" },
	{ "    --ops-agent-match GLOB", "with --serve and --ops jmx:..., load the agent as --ops-agent does, only "
					"into the processes whose main class or whole command line matches the shell "
					"pattern GLOB, e.g. 'org.apache.catalina.*' or '*-Dapp=orders*'; other "
					"processes are served without it" },
	{ "    --gc-duration-buckets LIST", "with --serve, jvm_gc_duration_seconds' bucket bounds in seconds, "
					    "ascending, comma-separated, each one of 0.0001 0.00025 0.0005 ... 2.5 5 10 "
					    "(the grid of gctop_gc_pause_seconds), e.g. 0.001,0.005,0.01,0.1,1; default "
					    "OpenTelemetry's 0.01,0.1,1,10, too coarse for a young pause's percentile" },
	{ "    --metrics-include LIST", "with --serve, write only the metric families LIST names: comma-separated "
					 "names as /metrics writes them (jvm_gc_duration_seconds, "
					 "gctop_allocated_bytes_total) or prefixes ending in *, e.g. jvm_*,gctop_gc_*; "
					 "a family left out loses its HELP and TYPE lines too (see gctop(1), METRICS, "
					 "for the families and the series each writes per process)" },
	{ "    --metrics-exclude LIST", "with --serve, leave out the metric families LIST names (as "
					 "--metrics-include names them), after --metrics-include" },
	{ "    --serve [ADDR:]PORT", "serve /metrics (OpenMetrics, or the Prometheus text format when asked; "
				     "gzipped for a scraper that takes gzip) for "
				     "every process gctop can watch, or those of -p, sampled every -d seconds, until "
				     "interrupted; ADDR defaults to 127.0.0.1. Loads the agent only with --ops-agent" },
	{ "    --web-config FILE", "with --serve: TLS and basic authentication from FILE, in the format of the "
				   "Prometheus exporter-toolkit (tls_server_config: cert_file, key_file, "
				   "client_ca_file, client_auth_type; basic_auth_users: NAME: bcrypt hash); read once; a "
				   "malformed FILE exits 18 (see gctop(1), SECURITY)" },
	{ "-w, --write FILE", "record every sample to FILE as it is taken (NDJSON, mode 0600; with -b, --json or "
			      "the interactive view); never through a link another user could have made, never into "
			      "a file not yours" },
	{ "-r, --read FILE", "replay a recording instead of watching a process: with -b or --json printed at once "
			     "(FILE may be a pipe), in the interactive view (a regular file) step with t and T, rewind "
			     "with r, jump with b, play and pause with space" },
	{ "    --compare FILE FILE...", "recorded runs side by side, one column per run, with each figure's ratio "
					"to the first run (--json: one object)" },
	{ "    --fail-if EXPR", "with --compare: exit 11 when the last run regressed against the first, e.g. "
				"alloc.bytes_per_op_median>+10%" },
	{ "    --doctor", "watch -p PID for -d SECONDS (default 10), print the findings (what the figures mean, "
			  "with evidence and a next step) and exit 0 with none, else 12 info, 13 warning, 14 "
			  "critical" },
	{ "    --census", "a census of the live objects of -p PID by type (count, bytes; --json: one object with "
			  "types[]), once. It costs the target: {census}. gctop refuses (exit 16) when that "
			  "expected cost ({census_memory}) exceeds the target's headroom (its container's limit less "
			  "its working set, the host's MemAvailable). Exit 0 with a census, 17 when the target died "
			  "during it (the sentence names an OOM kill), 1 when interrupted, refused or the exchange "
			  "failed, 4 where the runtime has none, 5 for another user's process, 9 when no answer came "
			  "in 120 s, else that of the failure to open the process (3 to 9)" },
	{ "    --census-anyway", "with --census: take it even when its cost exceeds the target's headroom, at the "
				 "risk of the kernel killing the target for it" },
	{ "-h, --help", "this text" },
	{ "-V, --version", "the version" },
};

static const char help_after[] =
	"The interactive view needs a terminal; with stdout not a terminal, or TERM=dumb, gctop prints -b text "
	"instead. With -b and --json the first output comes after one interval (and after the runtime's first "
	"counters where it sends them later, about a second), so every output has its rates (-n 1 gives one with "
	"figures); a figure the runtime does not give is n/a (null in JSON), never 0. When the target exits, a "
	"last output says so (EXITED; JSON state \"exited\") and gctop exits with 8. See gctop(1) for the panes, "
	"keys, security and every JSON key with its unit.";

/* One status (or a mode's statuses) a column: docs_agree.py reads them so
 * and compares each text with README's and the man page's. */
static const char help_statuses[] =
	"Exit status:\n"
	"  0 success                      5 permission denied\n"
	"  1 another failure              6 the runtime publishes no data\n"
	"  2 bad command line             7 the runtime's data is malformed or unsafe\n"
	"  3 no such process              8 the target exited while watched\n"
	"  4 of no runtime gctop reads    9 the target did not become readable in time\n"
	"  10 a recording gctop cannot read\n"
	"  11 --fail-if: the last run regressed against the first\n"
	"  --doctor: 12, 13, 14 the worst finding is info, warning, critical\n"
	"  15 -w FILE is unsafe to write (a link, not your regular file, under a link)\n"
	"  --census: 16 its cost exceeds the target's headroom\n"
	"  --census: 17 the target died\n"
	"  18 --web-config FILE is malformed, or a file it names cannot be used\n"
	"  19 the interactive view's terminal went away (SIGHUP, hung up)\n";

/* ---- the runtimes' words ---- */

struct text {
	char *buf;
	size_t len, used;
};

static void put(struct text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->used + n >= t->len)
		n = t->len - 1 - t->used;
	memcpy(t->buf + t->used, s, n);
	t->used += n;
	t->buf[t->used] = '\0';
}

static const char *help_allocators(const struct gt_runtime_traits *rt) { return rt->help.allocators; }
static const char *help_opcount(const struct gt_runtime_traits *rt) { return rt->help.opcount; }
static const char *help_census(const struct gt_runtime_traits *rt) { return rt->help.census; }

/* each runtime's field that it has, joined by sep */
static void join(struct text *t, const char *(*field)(const struct gt_runtime_traits *), const char *sep)
{
	const struct gt_runtime_traits *rt;
	bool first = true;
	for (size_t i = 0; (rt = gt_runtimes_at(i)); i++) {
		if (!field(rt))
			continue;
		put(t, first ? "" : sep);
		put(t, field(rt));
		first = false;
	}
}

/* "a, b or c" of each runtime's reads */
static void join_reads(struct text *t)
{
	const struct gt_runtime_traits *rt;
	size_t n = 0;
	while (gt_runtimes_at(n))
		n++;
	for (size_t i = 0; (rt = gt_runtimes_at(i)); i++) {
		put(t, i == 0 ? "" : i + 1 == n ? " or " : ", ");
		put(t, rt->help.reads ? rt->help.reads : rt->display);
	}
}

/* "JVM: java.,javax.; .NET: System." */
static void join_packages(struct text *t)
{
	const struct gt_runtime_traits *rt;
	bool first = true;
	for (size_t i = 0; (rt = gt_runtimes_at(i)); i++) {
		if (!rt->help.packages)
			continue;
		char one[256];
		snprintf(one, sizeof(one), "%s%s: %s", first ? "" : "; ", rt->display, rt->help.packages);
		put(t, one);
		first = false;
	}
}

/* What a census costs each runtime's target's memory, as model/census_cost.h
 * counts it: "JVM: 16 MiB and 2% of the heap in use". */
static void join_census_memory(struct text *t)
{
	const struct gt_runtime_traits *rt;
	bool first = true;
	for (size_t i = 0; (rt = gt_runtimes_at(i)); i++) {
		const struct gt_census_memory *m = &rt->census_memory;
		if (!rt->census_cost || (m->fixed_bytes == 0 && m->per_live_percent == 0))
			continue;
		char one[128];
		snprintf(one, sizeof(one), "%s%s: %llu MiB and %u%% of the heap in use", first ? "" : "; ", rt->display,
			 (unsigned long long)(m->fixed_bytes >> 20), m->per_live_percent);
		put(t, one);
		first = false;
	}
}

/* text with each {word} replaced by the runtimes' words */
static void expand(struct text *t, const char *text)
{
	static const struct {
		const char *word;
		const char *(*field)(const struct gt_runtime_traits *);
		const char *sep;
		void (*fill)(struct text *t);
	} words[] = {
		{ "{reads}", NULL, NULL, join_reads },
		{ "{allocators}", help_allocators, "; ", NULL },
		{ "{packages}", NULL, NULL, join_packages },
		{ "{opcount}", help_opcount, "; ", NULL },
		{ "{census}", help_census, "; ", NULL },
		{ "{census_memory}", NULL, NULL, join_census_memory },
	};
	while (*text) {
		size_t k = 0, n = sizeof(words) / sizeof(words[0]);
		for (; *text == '{' && k < n; k++)
			if (strncmp(text, words[k].word, strlen(words[k].word)) == 0)
				break;
		if (*text != '{' || k == n) {
			char c[2] = { *text++, '\0' };
			put(t, c);
			continue;
		}
		if (words[k].fill)
			words[k].fill(t);
		else
			join(t, words[k].field, words[k].sep);
		text += strlen(words[k].word);
	}
}

/* ---- layout ---- */

/* Writes text from column col on, wrapped at spaces, each further line
 * indented to indent. */
static void wrap(FILE *out, const char *text, int col, int indent)
{
	while (*text) {
		size_t word = strcspn(text, " ");
		if (col > indent && col + 1 + (int)word > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, word, out);
		col += (int)word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

static void paragraph(FILE *out, const char *head, const char *text)
{
	char buf[HELP_PARAGRAPH_MAX];
	struct text t = { buf, sizeof(buf), 0 };
	buf[0] = '\0';
	expand(&t, text);
	if (!head) {
		wrap(out, buf, 0, 0);
		return;
	}
	int col = fprintf(out, "  %s", head);
	if (col < HELP_TEXT_COLUMN) {
		fprintf(out, "%*s", HELP_TEXT_COLUMN - col, "");
	} else {
		fprintf(out, "\n%*s", HELP_TEXT_COLUMN, "");
	}
	wrap(out, buf, HELP_TEXT_COLUMN, HELP_TEXT_COLUMN);
}

int gt_help_write(FILE *out)
{
	fputs(help_usage, out);
	fputc('\n', out);
	paragraph(out, NULL, help_about);
	fputs("\nOptions:\n", out);
	for (size_t i = 0; i < sizeof(help_options) / sizeof(help_options[0]); i++)
		paragraph(out, help_options[i].head, help_options[i].text);
	fputc('\n', out);
	paragraph(out, NULL, help_after);
	fputc('\n', out);
	fputs(help_statuses, out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

char *gt_help_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out)
		return NULL;
	int rc = gt_help_write(out);
	if (fclose(out) != 0 || rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}
