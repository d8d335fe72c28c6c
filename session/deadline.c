#include "session/deadline.h"

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

void gt_schedule_start(struct gt_schedule *s, uint64_t interval_ns, uint64_t poll_ns, uint64_t now)
{
	s->interval_ns = interval_ns;
	s->next_sample = now;
	s->poll_ns = poll_ns;
	s->next_poll = poll_ns ? now + poll_ns : GT_DEADLINE_NEVER;
}

void gt_schedule_stop(struct gt_schedule *s)
{
	s->next_sample = GT_DEADLINE_NEVER;
	s->next_poll = GT_DEADLINE_NEVER;
	s->poll_ns = 0;
}

void gt_schedule_sampled(struct gt_schedule *s, uint64_t poll_ns, uint64_t now)
{
	s->poll_ns = poll_ns;
	if (!poll_ns)
		s->next_poll = GT_DEADLINE_NEVER;
	else if (s->next_poll == GT_DEADLINE_NEVER || s->next_poll > now + poll_ns)
		s->next_poll = now + poll_ns;
	if (s->next_sample != GT_DEADLINE_NEVER)
		s->next_sample = gt_deadline_next(s->next_sample, s->interval_ns, now);
}

void gt_schedule_polled(struct gt_schedule *s, uint64_t poll_ns, uint64_t now)
{
	s->poll_ns = poll_ns;
	/* From now, not from the deadline just passed: the collector's tick is
	 * the time to the point it wants to read at, asked after the poll, so
	 * adding it to a deadline the wake-up came late for made the next poll
	 * early by that lateness (under load, sub-millisecond gaps between
	 * polls that the tick keeps 1 ms apart at least). */
	s->next_poll = poll_ns ? now + poll_ns : GT_DEADLINE_NEVER;
}

uint64_t gt_schedule_deadline(struct gt_schedule *s)
{
	s->next_poll = gt_deadline_skip_poll_near_sample(s->next_poll, s->next_sample, s->poll_ns);
	return s->next_sample < s->next_poll ? s->next_sample : s->next_poll;
}

void gt_schedule_set_interval(struct gt_schedule *s, uint64_t interval_ns, uint64_t now)
{
	s->interval_ns = interval_ns;
	if (s->next_sample != GT_DEADLINE_NEVER)
		s->next_sample = now + interval_ns;
}

void gt_schedule_sample_now(struct gt_schedule *s, uint64_t now)
{
	if (s->next_sample != GT_DEADLINE_NEVER)
		s->next_sample = now;
}
