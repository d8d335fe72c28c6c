/* A fleet member's findings (session/fleet_findings.c): the model's rules
 * over the member's last GT_FLEET_FINDING_POINTS intervals, so a finding
 * holds while its evidence is among them and goes when it has left; none
 * are kept without the policy's findings. */
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/hotspot_runtime.h"
#include "session/fleet_internal.h"
#include "tests/unit/check.h"

/* One interval of a second, with induced collections in it or not. */
static void interval(struct gt_session *s, unsigned k, bool induced)
{
	struct gt_derived *d = &s->live.derived;
	memset(d, 0, sizeof(*d));
	d->cur.mono_ns = (uint64_t)(k + 1) * 1000000000ull;
	gt_f64_set(&d->interval_s, 1.0);
	gt_u64_set(&d->pause_ns, 1000);
	gt_f64_set(&d->pause_share, 0.000001);
	gt_u64_set(&d->causes.seen, induced ? 1 : 0);
	gt_u64_set(&d->causes.induced, induced ? 1 : 0);
	s->live.have_derived = true;
}

static bool holds(const struct gt_fleet_member *m, const char *id)
{
	for (unsigned i = 0; m->findings && i < m->findings->n; i++)
		if (strcmp(m->findings->found[i].id, id) == 0)
			return true;
	return false;
}

static void test_window_of_last_intervals(void)
{
	struct gt_fleet f;
	struct gt_fleet_policy policy = { .findings = true };
	CHECK(gt_fleet_init(&f, &policy, NULL, 0) == 0);
	struct gt_session *s = calloc(1, sizeof(*s));
	CHECK(s != NULL);
	if (!s)
		return;
	s->info.runtime = &gt_hotspot_runtime;
	struct gt_fleet_member m = { .session = s };
	interval(s, 0, true);
	gt_fleet_findings_update(&f, &m);
	CHECK(holds(&m, "induced-gc"));
	CHECK(m.findings && m.findings->found[0].severity == GT_SEVERITY_INFO);
	/* still among the last intervals */
	for (unsigned k = 1; k < GT_FLEET_FINDING_POINTS; k++) {
		interval(s, k, false);
		gt_fleet_findings_update(&f, &m);
	}
	CHECK(holds(&m, "induced-gc"));
	/* one more interval and it has left them */
	interval(s, GT_FLEET_FINDING_POINTS, false);
	gt_fleet_findings_update(&f, &m);
	CHECK(!holds(&m, "induced-gc"));
	CHECK_U64(m.findings->n, 0);
	free(m.findings);
	free(s);
	gt_fleet_free(&f);
}

/* An interval that changed nothing the rules read (no collection, no
 * pause, the same heap in use) does not run them while nothing holds, but
 * at most FLEET_FINDINGS_QUIET_MAX - 1 in a row; one that did runs them at once. */
static void quiet(struct gt_session *s, unsigned k)
{
	interval(s, k, false);
	gt_u64_set(&s->live.derived.pause_ns, 0);
	gt_u64_set(&s->live.derived.cur.heap_used_bytes, 1 << 20);
}

static void test_quiet_intervals_skip_the_rules(void)
{
	struct gt_fleet f;
	struct gt_fleet_policy policy = { .findings = true };
	CHECK(gt_fleet_init(&f, &policy, NULL, 0) == 0);
	struct gt_session *s = calloc(1, sizeof(*s));
	CHECK(s != NULL);
	if (!s)
		return;
	s->info.runtime = &gt_hotspot_runtime;
	struct gt_fleet_member m = { .session = s };
	unsigned k = 0;
	quiet(s, k++);
	gt_fleet_findings_update(&f, &m);   /* the first: computed */
	CHECK_U64(m.quiet_rounds, 0);
	for (unsigned i = 1; i < 16; i++) {
		quiet(s, k++);
		gt_fleet_findings_update(&f, &m);
		CHECK_U64(m.quiet_rounds, i);
	}
	/* the sixteenth quiet one in a row runs them */
	quiet(s, k++);
	gt_fleet_findings_update(&f, &m);
	CHECK_U64(m.quiet_rounds, 0);
	quiet(s, k++);
	gt_fleet_findings_update(&f, &m);
	CHECK_U64(m.quiet_rounds, 1);
	/* an induced collection: the rules run, the finding holds */
	interval(s, k++, true);
	gt_u64_set(&s->live.derived.cur.heap_used_bytes, 1 << 20);
	gt_fleet_findings_update(&f, &m);
	CHECK(holds(&m, "induced-gc"));
	/* while it holds, quiet intervals run them too (its window moves) */
	quiet(s, k++);
	gt_fleet_findings_update(&f, &m);
	CHECK_U64(m.quiet_rounds, 0);
	CHECK_U64(m.findings->count, k);
	free(m.findings);
	free(s);
	gt_fleet_free(&f);
}

static void test_none_without_the_policy(void)
{
	struct gt_fleet f;
	struct gt_fleet_policy policy = { .findings = false };
	CHECK(gt_fleet_init(&f, &policy, NULL, 0) == 0);
	struct gt_session s;
	memset(&s, 0, sizeof(s));
	struct gt_fleet_member m = { .session = &s };
	interval(&s, 0, true);
	gt_fleet_findings_update(&f, &m);
	CHECK(m.findings == NULL);
	CHECK(f.findings_scratch == NULL);
	gt_fleet_free(&f);
}

int main(void)
{
	RUN_TEST(test_window_of_last_intervals);
	RUN_TEST(test_quiet_intervals_skip_the_rules);
	RUN_TEST(test_none_without_the_policy);
	return check_summary();
}
