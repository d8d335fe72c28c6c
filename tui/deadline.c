#include "tui/deadline.h"

#include <limits.h>

uint64_t gt_deadline_next(uint64_t next, uint64_t interval_ns, uint64_t now)
{
	next += interval_ns;
	if (next <= now)
		next = now + interval_ns;
	return next;
}

int gt_deadline_timeout_ms(uint64_t deadline, uint64_t now)
{
	if (deadline <= now)
		return 0;
	uint64_t ms = (deadline - now + 999999) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

uint64_t gt_deadline_skip_poll_near_sample(uint64_t next_poll, uint64_t next_sample, uint64_t poll_ns)
{
	if (next_poll == UINT64_MAX || next_sample == UINT64_MAX || poll_ns == 0)
		return next_poll;
	if (next_poll + poll_ns / 2 < next_sample)
		return next_poll;
	return next_sample + poll_ns;
}
