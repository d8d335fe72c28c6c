#include "deadline.h"

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
