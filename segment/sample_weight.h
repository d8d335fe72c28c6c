/* The bytes one allocation sample stands for. Shared by the in-process
 * agent, which adds it to the segment's sites, stacks and totals, and the
 * unit tests: every reader (the screen, -b, --json, --serve, recordings)
 * only reads those sums, so the weight is decided here alone. */
#ifndef GCTOP_SEGMENT_SAMPLE_WEIGHT_H
#define GCTOP_SEGMENT_SAMPLE_WEIGHT_H

#include <stdint.h>

/* HotSpot's sampler (JEP 331) draws the bytes until a thread's next sample
 * from an exponential distribution of mean `interval`, afresh after each
 * sample, and posts at most one event per allocation: an object of `size`
 * bytes is sampled with probability 1 - exp(-size / interval), whatever was
 * allocated before it. Its weight is the inverse of that probability times
 * its size (Horvitz-Thompson, as Go's and pprof's heap profiles scale):
 * about the interval for a small object, about its size for one much
 * larger than the interval. max(size, interval) counted an object of the
 * interval's size at 1 - 1/e, 63% of its bytes. A size of 0 (not known)
 * weighs the interval; an interval of 0 (every allocation sampled) weighs
 * the size. */
uint64_t gctop_sample_weight(uint64_t size, uint64_t interval);

#endif
