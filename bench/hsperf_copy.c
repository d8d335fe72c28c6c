/* What reading a perf-data file safely costs per read (gctop reads it up to
 * ten times a second): hsperf_map_update (fstat, then a word-by-word copy
 * of the mapping under a SIGBUS guard) against a plain pread of the whole
 * file into a private buffer, and against nothing but the copy of the
 * mapping (the unguarded read gctop used to do, which a truncation killed).
 * usage: hsperf_copy PERFDATA_FILE [ROUNDS] (a copy under /tmp is fine). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/hotspot/perfdata/hsperf.h"
#include "base/clock.h"

static double per_call_ns(uint64_t t0, long rounds)
{
	return (double)(gt_mono_ns() - t0) / (double)rounds;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PERFDATA_FILE [ROUNDS]\n", argv[0]);
		return 2;
	}
	long rounds = argc > 2 ? atol(argv[2]) : 100000;
	struct hsperf_map m;
	struct gt_error err = { 0 };
	if (hsperf_map_open(argv[1], geteuid(), &m, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	uint64_t t0 = gt_mono_ns();
	for (long i = 0; i < rounds; i++)
		if (hsperf_map_update(&m, &err) != 0)
			return 1;
	double guarded = per_call_ns(t0, rounds);

	uint8_t *buf = aligned_alloc(8, m.size);
	volatile uint64_t sink = 0;
	t0 = gt_mono_ns();
	for (long i = 0; i < rounds; i++) {
		memcpy(buf, m.shared, m.size);
		sink += buf[i % m.size];
	}
	double bare = per_call_ns(t0, rounds);

	int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	t0 = gt_mono_ns();
	for (long i = 0; i < rounds; i++)
		if (pread(fd, buf, m.size, 0) != (ssize_t)m.size)
			return 1;
	double pr = per_call_ns(t0, rounds);
	close(fd);
	printf("{\"bytes\": %zu, \"rounds\": %ld, \"guarded_copy_ns\": %.0f, \"pread_ns\": %.0f, \"memcpy_ns\": %.0f}\n",
	       m.size, rounds, guarded, pr, bare);
	free(buf);
	hsperf_map_close(&m);
	return 0;
}
