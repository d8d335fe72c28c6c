/* wakeloop: the anchor of the tick benchmark (bench/ 1e). Does nothing but
 * sleep and wake up at a given rate, the way gctop's loop does (ppoll to a
 * CLOCK_MONOTONIC deadline), so that its CPU is what the machine charges for
 * the wake-ups alone. gctop's share less this one's is gctop's own work; on
 * another machine, this one's share says how dear a wake-up is there.
 *
 * usage: wakeloop WAKEUPS_PER_SECOND SECONDS */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The shortest sleep: the kernel's default timer slack. */
#define WAKELOOP_LEAST_NS 50000ull
#define WAKELOOP_MAX_BEHIND 10

static uint64_t wakeloop_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	double rate = argc == 3 ? atof(argv[1]) : 0, secs = argc == 3 ? atof(argv[2]) : -1;
	if (rate <= 0 || secs < 0) {
		fprintf(stderr, "usage: wakeloop WAKEUPS_PER_SECOND SECONDS\n");
		return 2;
	}
	uint64_t step = (uint64_t)(1e9 / rate), start = wakeloop_mono_ns();
	uint64_t end = start + (uint64_t)(secs * 1e9), next = start;
	for (;;) {
		uint64_t now = wakeloop_mono_ns();
		if (now >= end)
			return 0;
		next += step;
		/* A wake-up that came late is made up by a shorter sleep, never by
		 * none (a sleep that does not happen is no wake-up), so that the
		 * rate is the one asked for; after a long stall the steps start
		 * again from now rather than in a burst. */
		if (next + WAKELOOP_MAX_BEHIND * step <= now)
			next = now + step;
		uint64_t left = next > now + WAKELOOP_LEAST_NS ? next - now : WAKELOOP_LEAST_NS;
		struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
		ppoll(NULL, 0, &ts, NULL);
	}
}
