/* A census's cost against the target's headroom (model/census_cost.h). */
#include "model/census_cost.h"

#include <stdio.h>

#define MIB (1024ull * 1024ull)

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* fixed + live * percent / 100, held at UINT64_MAX */
static uint64_t cost_of(const struct gt_census_memory *m, uint64_t live)
{
	uint64_t p = m->per_live_percent, share;
	if (p && live / 100 > UINT64_MAX / p)
		share = UINT64_MAX; /* a target's absurd heap: no room fits it */
	else
		share = sat_add(live / 100 * p, live % 100 * p / 100);
	return sat_add(m->fixed_bytes, share);
}

/* The least of the container's room and the host's, with what it is. */
static void headroom(const struct gt_sample *s, struct gt_u64 host, struct gt_census_fit *out)
{
	if (s->cgroup_limit_bytes.valid) {
		/* the working set (usage less the inactive file cache the kernel
		 * takes back first) where readable, else the whole usage */
		const struct gt_u64 *used = s->cgroup_working_set_bytes.valid ? &s->cgroup_working_set_bytes
									       : &s->cgroup_usage_bytes;
		if (used->valid) {
			uint64_t lim = s->cgroup_limit_bytes.value;
			out->have_headroom = true;
			out->headroom_bytes = lim > used->value ? lim - used->value : 0;
			out->headroom_what = s->cgroup_working_set_bytes.valid
						     ? "its container's memory limit less its working set"
						     : "its container's memory limit less its usage";
		}
	}
	if (host.valid && (!out->have_headroom || host.value < out->headroom_bytes)) {
		out->have_headroom = true;
		out->headroom_bytes = host.value;
		out->headroom_what = "the host's available memory, MemAvailable";
	}
}

void gt_census_fit_judge(const struct gt_census_memory *m, const struct gt_sample *s,
			 struct gt_u64 host_available, struct gt_census_fit *out)
{
	*out = (struct gt_census_fit){ .fits = true };
	out->known = m && (m->fixed_bytes || m->per_live_percent);
	if (s->heap_used_bytes.valid) {
		out->live_bytes = s->heap_used_bytes.value;
		out->live_what = "heap in use";
	} else if (s->rss_bytes.valid) {
		out->live_bytes = s->rss_bytes.value;
		out->live_what = "resident set";
	} else {
		out->live_what = "heap, unknown";
	}
	if (out->known)
		out->cost_bytes = cost_of(m, out->live_bytes);
	headroom(s, host_available, out);
	out->fits = !out->known || !out->have_headroom || out->cost_bytes <= out->headroom_bytes;
}

static unsigned long long mib_up(uint64_t b)
{
	return (unsigned long long)(b / MIB + (b % MIB != 0));
}

static unsigned long long mib_down(uint64_t b)
{
	return (unsigned long long)(b / MIB);
}

void gt_census_fit_refusal(const struct gt_census_fit *f, const char *display, int pid, char *buf, size_t len)
{
	snprintf(buf, len,
		 "a census would cost %s process %d about %llu MiB of memory (for its %llu MiB of %s), more than its "
		 "headroom of %llu MiB (%s); --census-anyway takes it all the same, at the risk of the kernel killing it",
		 display, pid, mib_up(f->cost_bytes), mib_up(f->live_bytes), f->live_what, mib_down(f->headroom_bytes),
		 f->headroom_what);
}

void gt_census_fit_figures(const struct gt_census_fit *f, char *buf, size_t len)
{
	if (!f->known) {
		snprintf(buf, len, "its cost to the target's memory is not measured");
		return;
	}
	if (!f->have_headroom) {
		snprintf(buf, len, "it costs about %llu MiB of its memory; its headroom is unknown",
			 mib_up(f->cost_bytes));
		return;
	}
	snprintf(buf, len, "it costs about %llu MiB of its memory against %llu MiB of headroom (%s)%s",
		 mib_up(f->cost_bytes), mib_down(f->headroom_bytes), f->headroom_what,
		 f->fits ? "" : ": it does not fit, and the kernel could kill the target for it");
}
