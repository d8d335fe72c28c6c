/* segpub: publishes a crafted gctop segment with N distinct allocation sites,
 * for the "cost against the number of sites" benchmark (bench/README.md).
 *
 * usage: segpub PID NSITES [SAMPLES_PER_SECOND] [MAX_SECONDS] [FRAME_SLOTS TYPE_SLOTS]
 *
 * Creates /tmp/.gctop-seg-PID (the file gctop's --allocators looks for when
 * it watches JVM PID: segment/gctop_segment.h, segment/reader.h),
 * fills its frame and type tables with NSITES distinct names each (a table
 * holds at most GCTOP_SEG_MAX_SLOTS; names that find no slot are counted as
 * dropped, as the agent does), sets it RUNNING with a live heartbeat, and then
 * keeps adding SAMPLES_PER_SECOND samples (default 20000) over random sites
 * so that every refresh sees counters move. gctop finds a live segment and
 * does not load its agent. Prints "ready FRAME_SLOTS TYPE_SLOTS STORED_FRAMES
 * STORED_TYPES"
 * once filled. FRAME_SLOTS and TYPE_SLOTS (powers of two) fix the table sizes,
 * e.g. 1024 512 as gctop's JVMTI agent has (agent/agent.h); by default each
 * is the power of two >= 2 x NSITES, at most GCTOP_SEG_MAX_SLOTS. Stops and removes the file on SIGINT/SIGTERM, when PID is
 * gone, or after MAX_SECONDS (default 600). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "segment/publish.h"

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	uint64_t x = rng_state;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return rng_state = x;
}

static void names(unsigned long i, char *frame, size_t flen, char *type, size_t tlen)
{
	snprintf(frame, flen, "com.example.bench.pkg%lu.Service%lu.handleRequest%lu", i % 97, i / 97, i);
	snprintf(type, tlen, "com.example.bench.model%lu.Record%lu[]", i % 89, i);
}

static unsigned count_stored(const struct gctop_pub *p, int types)
{
	const struct gctop_seg_header *h = p->hdr;
	uint32_t slots = types ? h->type_slots : h->frame_slots;
	const struct gctop_seg_site *t =
		(const struct gctop_seg_site *)((const char *)h + (types ? h->type_offset : h->frame_offset));
	unsigned n = 0;
	for (uint32_t i = 0; i < slots; i++)
		n += t[i].key > GCTOP_SEG_KEY_BUSY;
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: segpub PID NSITES [SAMPLES_PER_SECOND] [MAX_SECONDS] [FRAME_SLOTS TYPE_SLOTS]\n");
		return 2;
	}
	pid_t pid = (pid_t)atol(argv[1]);
	unsigned long nsites = strtoul(argv[2], NULL, 10);
	double rate = argc > 3 ? atof(argv[3]) : 20000;
	double max_s = argc > 4 ? atof(argv[4]) : 600;
	if (pid <= 0 || nsites == 0)
		return 2;

	uint32_t slots = 16;
	while (slots < 2 * nsites && slots < GCTOP_SEG_MAX_SLOTS)
		slots <<= 1;
	uint32_t frame_slots = argc > 6 ? (uint32_t)atol(argv[5]) : slots;
	uint32_t type_slots = argc > 6 ? (uint32_t)atol(argv[6]) : slots;
	char path[512], err[256];
	if (gctop_pub_path(path, sizeof(path), "/tmp", pid) != 0)
		return 1;
	struct gctop_pub pub;
	struct gctop_pub_config cfg = { frame_slots, type_slots, GCTOP_SEG_F_ALLOC_TOTAL, "bench-crafted", 0, 0, false };
	int rc = gctop_pub_create(&pub, path, &cfg, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "segpub: %s\n", err);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	uint64_t interval = 512 * 1024, total = 0;
	char frame[200], type[200];
	for (unsigned long i = 0; i < nsites; i++) {
		names(i, frame, sizeof(frame), type, sizeof(type));
		uint64_t w = interval + rng() % interval;
		gctop_pub_sample(&pub, frame, type, GCTOP_SEG_HEAP_SMALL, w);
		total += w;
	}
	uint64_t now = gctop_pub_now_ns();
	gctop_pub_set_interval(&pub, interval);
	gctop_pub_set_alloc_total(&pub, total, now);
	gctop_pub_heartbeat(&pub, now);
	gctop_pub_set_state(&pub, GCTOP_SEG_RUNNING, NULL);
	printf("ready %u %u %u %u\n", frame_slots, type_slots, count_stored(&pub, 0), count_stored(&pub, 1));
	fflush(stdout);

	uint64_t start = now, last_beat = now;
	double owed = 0;
	while (!stop) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		now = gctop_pub_now_ns();
		owed += rate * 0.01;
		for (; owed >= 1; owed -= 1) {
			/* Skewed: small indices are hot, so a top list exists. */
			uint64_t r = rng();
			unsigned long i = (unsigned long)((r % nsites) * ((r >> 40) % 1024) / 1024);
			names(i, frame, sizeof(frame), type, sizeof(type));
			uint64_t w = interval + rng() % interval;
			gctop_pub_sample(&pub, frame, type, GCTOP_SEG_HEAP_SMALL, w);
			total += w;
		}
		if (now - last_beat >= 100 * 1000 * 1000ull) {
			gctop_pub_heartbeat(&pub, now);
			gctop_pub_set_alloc_total(&pub, total, now);
			last_beat = now;
			if (kill(pid, 0) != 0 && errno == ESRCH)
				break;
		}
		if ((double)(now - start) / 1e9 > max_s)
			break;
	}
	gctop_pub_close(&pub);
	return 0;
}
