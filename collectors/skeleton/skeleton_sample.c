/* The skeleton runtime's polls and sample fill (skeleton_internal.h): a
 * real runtime reads its transport here and fills each figure with its
 * validity bit. */
#include "collectors/skeleton/skeleton_internal.h"

uint64_t skeleton_poll_interval(const struct gt_backend *b)
{
	(void)b;
	return SKELETON_POLL_NS;
}

/* A descriptor the loop waits on (an event stream), or -1: none here. */
int skeleton_wait_fd(const struct gt_backend *b)
{
	(void)b;
	return -1;
}

/* Whether that descriptor's data may wait for a loop over many targets. */
bool skeleton_wait_may_lag(const struct gt_backend *b)
{
	(void)b;
	return false;
}

/* Cheap work between samples: read what the stream brought, or look at
 * the figures an estimate must see every time. Never blocks. */
void skeleton_poll(struct gt_backend *b, uint64_t now_ns)
{
	(void)now_ns;
	b->polls++;
}

/* Waits, bounded by the deadline, until a first interval's rates have
 * what they need (.NET: the runtime's first counter). */
void skeleton_settle(struct gt_backend *b, uint64_t deadline_ns)
{
	(void)b;
	(void)deadline_ns;
}

/* Fills the runtime's fields of out with their validity bits; a figure the
 * runtime does not give stays invalid, and says why where a view asks. */
int skeleton_sample(struct gt_backend *b, struct gt_sample *out, struct gt_error *err)
{
	(void)err;
	out->alloc_unavailable = "the skeleton runtime reads no allocations";
	out->large_unavailable = "the skeleton runtime reads no large objects";
	if (b->opcount_counter) {
		gt_u64_set(&out->opcount_total, b->polls);
		out->opcount_name = "operations";
		out->opcount_counter = b->opcount_counter;
	}
	return 0;
}
