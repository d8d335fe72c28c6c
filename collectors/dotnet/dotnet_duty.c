/* The duty cycle's math (dotnet_duty.h): windows after random gaps, so that
 * every instant is as likely to be sampled as any other and samples
 * weighted by 1/share estimate the bytes without bias. */
#include "collectors/dotnet/dotnet_duty.h"

void gt_dn_duty_init(struct gt_dn_duty *d, uint64_t now, uint64_t seed)
{
	d->share = 1;
	d->rate = 0;
	d->rng = seed ? seed : 1;
	d->on_at = d->off_at = now;
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
	uint64_t on = (uint64_t)(d->share * (double)GT_DN_DUTY_CYCLE_NS);
	uint64_t gap = (uint64_t)(uniform(d) * 2.0 * (double)(GT_DN_DUTY_CYCLE_NS - on));
	/* a stream that took long to drain shortens the gap, never the window */
	d->on_at = d->off_at + gap > now ? d->off_at + gap : now;
	d->off_at = d->on_at + on;
}

void gt_dn_duty_retry(struct gt_dn_duty *d, uint64_t now)
{
	d->off_at = now;
	gt_dn_duty_next_window(d, now);
}

bool gt_dn_duty_check(struct gt_dn_duty *d, uint64_t events, uint64_t span_ns, uint64_t now)
{
	if (span_ns == 0)
		return false;
	d->rate = (double)events / ((double)span_ns / 1e9);
	if (d->rate <= GT_DN_SAMPLER_BUDGET_PER_S * GT_DN_DUTY_OVER_BUDGET)
		return false;
	d->share = gt_dn_duty_share_for(d->rate);
	d->off_at = now;
	return true;
}

void gt_dn_duty_session_done(struct gt_dn_duty *d, uint64_t events, uint64_t on_ns, uint64_t now)
{
	if (on_ns > 0 && d->share < 1)
		d->rate = (double)events / ((double)on_ns / 1e9);
	d->share = gt_dn_duty_share_for(d->rate);
	gt_dn_duty_next_window(d, now);
	if (d->share >= 1)
		d->on_at = now;
}
