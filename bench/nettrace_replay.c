/* nettrace_replay: gctop's EventPipe path without a runtime. Feeds a recorded
 * .nettrace stream (default tests/data/nettrace/...) through gctop's parser
 * and its GC-event and counter handlers (as collectors/dotnet/dotnet.c does), over
 * and over for SECONDS, in chunks like a socket read, and prints one JSON
 * line: events, seconds of CPU, events per CPU second and ns per event. This
 * bounds what a stream of a given event rate costs gctop, beyond the rate one
 * runtime on this machine can produce.
 *
 * usage: nettrace_replay FILE [SECONDS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/nettrace/nettrace.h"

struct ctx {
	struct gt_dn_gc gc;
	struct gt_dn_counters counters;
};

static void on_trace(void *p, const struct gt_nettrace_trace *t)
{
	struct ctx *c = p;
	c->gc.qpc_freq = t->qpc_freq;
}

static void on_event(void *p, const struct gt_nettrace_event *e)
{
	struct ctx *c = p;
	if (strcmp(e->meta->provider, "Microsoft-Windows-DotNETRuntime") == 0)
		gt_dn_gc_event(&c->gc, e->meta->event_id, e->thread_id, e->timestamp, e->payload, e->payload_len);
	else
		gt_dn_counters_event(&c->counters, e);
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: nettrace_replay FILE [SECONDS]\n");
		return 2;
	}
	double seconds = argc > 2 ? atof(argv[2]) : 3;
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t cap = 1 << 20, len = 0;
	unsigned char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf || !len)
		return 1;

	uint64_t events = 0, passes = 0;
	double c0 = cpu_s(), cpu = 0;
	while (cpu < seconds) {
		struct ctx c;
		memset(&c, 0, sizeof(c));
		gt_dn_gc_init(&c.gc, 1000000000);
		gt_dn_counters_init(&c.counters);
		struct gt_nettrace_callbacks cb = { &c, on_trace, on_event };
		struct gt_nettrace *p = gt_nettrace_new(&cb);
		if (!p)
			return 1;
		for (size_t off = 0; off < len; off += 65536) {
			size_t k = len - off < 65536 ? len - off : 65536;
			if (gt_nettrace_feed(p, buf + off, k) < 0) {
				fprintf(stderr, "nettrace_replay: %s\n", gt_nettrace_error(p));
				return 1;
			}
		}
		events += gt_nettrace_stats(p)->events;
		gt_nettrace_free(p);
		passes++;
		cpu = cpu_s() - c0;
	}
	printf("{\"file_bytes\":%zu,\"passes\":%llu,\"events\":%llu,\"cpu_s\":%.4f,\"events_per_cpu_s\":%.0f,\"ns_per_event\":%.1f}\n",
	       len, (unsigned long long)passes, (unsigned long long)events, cpu, events / cpu, cpu * 1e9 / (double)events);
	free(buf);
	return 0;
}
