/* What caused the JVM's collections: the newest one a poll finds is counted
 * under sun.gc.lastCause; a collection under way waits for the next poll. */
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "tests/unit/check.h"

static struct hotspot_alloc_reading reading(uint64_t young, uint64_t full, bool in_progress, const char *cause)
{
	struct hotspot_alloc_reading r;
	memset(&r, 0, sizeof(r));
	r.young_gcs = young;
	r.full_gcs = full;
	r.in_progress = in_progress;
	snprintf(r.last_cause, sizeof(r.last_cause), "%s", cause);
	return r;
}

static void test_counts_the_newest_cause(void)
{
	struct hotspot_causes c;
	memset(&c, 0, sizeof(c));
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_causes_fill(&c, true, &s);
	CHECK(!s.causes.seen.valid);            /* no reading yet: n/a */
	/* before gctop watched: the base */
	struct hotspot_alloc_reading r = reading(40, 1, false, "G1 Humongous Allocation");
	hotspot_causes_note(&c, &r);
	r = reading(41, 1, false, "G1 Humongous Allocation");
	hotspot_causes_note(&c, &r);
	/* nothing new */
	r = reading(41, 1, false, "G1 Humongous Allocation");
	hotspot_causes_note(&c, &r);
	/* three: only the last one's cause is known */
	r = reading(44, 1, false, "G1 Evacuation Pause");
	hotspot_causes_note(&c, &r);
	/* under way: lastCause is "No GC" until its operation ends */
	r = reading(45, 1, true, "No GC");
	hotspot_causes_note(&c, &r);
	r = reading(45, 2, false, "System.gc()");
	hotspot_causes_note(&c, &r);
	/* a census's full GC, whoever asked (jmap -histo:live, any gctop),
	 * and a heap dump's */
	r = reading(45, 3, false, "Heap Inspection Initiated GC");
	hotspot_causes_note(&c, &r);
	r = reading(45, 4, false, "Heap Dump Initiated GC");
	hotspot_causes_note(&c, &r);
	hotspot_causes_fill(&c, true, &s);
	CHECK_U64(s.causes.seen.value, 5);
	CHECK_U64(s.causes.humongous.value, 1);
	CHECK_U64(s.causes.induced.value, 1);
	CHECK_U64(s.causes.inspection.value, 2);
	CHECK(!s.causes.gen2.valid && !s.causes.gen2_alloc_large.valid);
	/* not G1: no humongous figure */
	memset(&s, 0, sizeof(s));
	hotspot_causes_fill(&c, false, &s);
	CHECK(s.causes.seen.valid && !s.causes.humongous.valid);
}

int main(void)
{
	RUN_TEST(test_counts_the_newest_cause);
	return check_summary();
}
