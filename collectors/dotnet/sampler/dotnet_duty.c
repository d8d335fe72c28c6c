/* The duty cycle's math (dotnet_duty.h): a window at a uniform offset in
 * each second, wrapping at its end, so that every instant is as likely to
 * be sampled as any other and samples weighted by 1/share estimate the
 * bytes without bias. */
#include "collectors/dotnet/sampler/dotnet_duty.h"

void gt_dn_duty_init(struct gt_dn_duty *d, uint64_t now, uint64_t seed)
{
	d->share = 1;
	d->rate = 0;
	d->rng = seed ? seed : 1;
	d->wrapped = false;
	d->cycle_events = d->cycle_on_ns = 0;
	d->cycle_start = d->on_at = now;
	d->off_at = now + GT_DN_DUTY_CYCLE_NS;
}

double gt_dn_duty_share_for(double rate)
{
	if (!(rate > 0))
		return 1;
	double share = GT_DN_SAMPLER_BUDGET_PER_S / rate;
	return share >= 1 ? 1 : share < GT_DN_DUTY_SHARE_MIN ? GT_DN_DUTY_SHARE_MIN : share;
}

static double uniform(struct gt_dn_duty *d)
{
	/* xorshift64: no need for more, only for no pattern a workload follows */
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 7;
	d->rng ^= d->rng << 17;
	return (double)(d->rng >> 11) / 9007199254740992.0;
}

void gt_dn_duty_next_window(struct gt_dn_duty *d, uint64_t now)
{
	if (d->wrapped) {
		d->wrapped = false;
		d->on_at = d->wrap_on;
		d->off_at = d->wrap_off;
		if (now < d->off_at)
			return;
		/* the stream drained past the whole window: on to the next cycle */
	}
	d->cycle_start += GT_DN_DUTY_CYCLE_NS;
	if (d->cycle_start + GT_DN_DUTY_CYCLE_NS <= now)
		d->cycle_start = now;
	uint64_t on = (uint64_t)(d->share * (double)GT_DN_DUTY_CYCLE_NS);
	uint64_t offset = (uint64_t)(uniform(d) * (double)GT_DN_DUTY_CYCLE_NS);
	if (offset + on <= GT_DN_DUTY_CYCLE_NS) {
		d->on_at = d->cycle_start + offset;
		d->off_at = d->on_at + on;
		return;
	}
	/* past the cycle's end: the rest at its start, this part after it */
	d->on_at = d->cycle_start;
	d->off_at = d->cycle_start + offset + on - GT_DN_DUTY_CYCLE_NS;
	d->wrapped = true;
	d->wrap_on = d->cycle_start + offset;
	d->wrap_off = d->cycle_start + GT_DN_DUTY_CYCLE_NS;
}

bool gt_dn_duty_check(struct gt_dn_duty *d, uint64_t events, uint64_t span_ns, uint64_t now)
{
	if (span_ns == 0)
		return false;
	d->rate = (double)events / ((double)span_ns / 1e9);
	if (d->rate <= GT_DN_SAMPLER_BUDGET_PER_S * GT_DN_DUTY_OVER_BUDGET)
		return false;
	d->share = gt_dn_duty_share_for(d->rate);
	d->wrapped = false;
	d->cycle_events = d->cycle_on_ns = 0;
	/* the first cycle begins now (next_window moves on by one) */
	d->cycle_start = now >= GT_DN_DUTY_CYCLE_NS ? now - GT_DN_DUTY_CYCLE_NS : 0;
	return true;
}

void gt_dn_duty_session_done(struct gt_dn_duty *d, uint64_t events, uint64_t on_ns, uint64_t now)
{
	/* the rate of a cycle from both its windows: one may be a few
	 * microseconds long, too short to measure a rate */
	d->cycle_events += events;
	d->cycle_on_ns += on_ns;
	if (!d->wrapped) {
		if (d->cycle_on_ns > 0 && d->share < 1)
			d->rate = (double)d->cycle_events / ((double)d->cycle_on_ns / 1e9);
		d->cycle_events = d->cycle_on_ns = 0;
		d->share = gt_dn_duty_share_for(d->rate);
	}
	if (d->share >= 1) {
		d->on_at = now;
		return;
	}
	gt_dn_duty_next_window(d, now);
}
