#ifndef GCTOP_BASE_CLOCK_H
#define GCTOP_BASE_CLOCK_H

#include <stdint.h>

uint64_t gt_mono_ns(void);   /* CLOCK_MONOTONIC: all intervals and deadlines */
int64_t gt_wall_ms(void);    /* CLOCK_REALTIME: only for timestamps shown to people */

#endif
