/* The advice table (model/findings_advice.h). A rule's finding looks its
 * advice up here by id, so a new rule adds rows, not code. */
#include "model/findings_advice.h"

#include <stdio.h>
#include <string.h>

/* The rows every runtime shares, in no runtime's words: their step is the
 * same everywhere. A runtime's own rows (model/runtime.h's advice, in
 * collectors/<runtime>/) come first, and a finding only one runtime's
 * figures raise (G1's humongous collections, .NET's large-object heap)
 * has its row there alone. who: the
 * step ends by saying where to see who allocates, census: it starts with
 * gctop's census, each of which each front end says its own way. None
 * here has census: a runtime gctop does not know (a recording's) has no
 * census to take. */
static const struct gt_runtime_advice shared_rows[] = {
	/* In no runtime's words, for a runtime without its own row (a
	 * recording that names none, a runtime added without advice): the
	 * step, never another runtime's flags. */
	{ "pause-share",
	  "allocate less, or give the youngest generation more room so that it fills less often", true, false },
	{ "long-pause",
	  "look at its cause: a full or old collection needs more heap or less live data; young pauses grow "
	  "with what survives them", false, false },
	{ "induced-gc",
	  "find the program's call that asks for a collection and remove it; the GC picks a better moment",
	  false, false },
	{ "heap-near-limit",
	  "raise the container's memory limit or lower the heap's maximum so both fit with room for a burst",
	  false, false },
	{ "memory-near-limit",
	  "raise the container's memory limit or lower the heap's maximum so both fit with room for a burst",
	  false, false },
	{ "heap-over-limit",
	  "set the heap's maximum below the container limit, leaving room for the rest of the process", false, false },
	{ "alloc-per-op",
	  "allocate less in each operation: reuse or pool its buffers, stream instead of building whole "
	  "results", true, false },
	{ "oom-kills",
	  "the container has killed processes for memory: compare the heap max and working set with its "
	  "limit", false, false },
	{ "live-set-growth",
	  "take a census of the live objects twice, some minutes apart, and look at the types that grew; a "
	  "cache without a bound or listeners never removed are the usual holders", false, false },
};

static const struct gt_runtime_advice *advice_in(const struct gt_runtime_advice *rows, size_t n, const char *id)
{
	for (size_t i = 0; rows && i < n; i++)
		if (strcmp(rows[i].id, id) == 0)
			return &rows[i];
	return NULL;
}

/* The runtime's own row, else the shared one. An unknown runtime (a
 * recording without one) has only the shared rows. */
static const struct gt_runtime_advice *advice_find(const char *id, const struct gt_runtime_traits *rt)
{
	const struct gt_runtime_advice *row = rt ? advice_in(rt->advice, rt->n_advice, id) : NULL;
	return row ? row : advice_in(shared_rows, sizeof(shared_rows) / sizeof(shared_rows[0]), id);
}

void gt_findings_advice(char *buf, size_t len, const char *id, const struct gt_runtime_traits *rt,
			enum gt_front_end fe)
{
	const struct gt_runtime_advice *row = advice_find(id, rt);
	if (!row) {
		if (len)
			buf[0] = '\0';
		return;
	}
	const char *who = !row->who ? ""
			: fe == GT_FRONT_SCREEN ? "; key a shows who allocates"
						: "; gctop --allocators shows who allocates";
	/* gctop's own census first: on the screen the second one shows what
	 * grew by itself; elsewhere two runs are compared by hand. */
	const char *census = !row->census ? ""
			   : fe == GT_FRONT_SCREEN
				   ? "take a census with key c now and again in some minutes: the second shows the "
				     "types that grew; "
				   : "take a census with gctop --census -p PID now and again in some minutes and "
				     "compare the types' bytes; ";
	snprintf(buf, len, "%s%s%s", census, row->text, who);
}
