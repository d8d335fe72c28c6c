/* How the JFR reader refuses a chunk and grows its tables: one sentence
 * with the status of malformed data, and tables grown by doubling with
 * what they hold counted against the reader's stated bound. */
#include <stdarg.h>
#include <stdio.h>

#include "base/array.h"
#include "collectors/hotspot/jfr/jfr_internal.h"

int jfr_bad(struct gt_error *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	gt_fail(err, GT_EXIT_BAD_DATA, "%s", msg);
	return GT_JFR_ERROR;
}

void *jfr_grow(struct gt_jfr_reader *r, void *items, size_t *cap, size_t need, size_t elem, struct gt_error *err)
{
	size_t before = *cap;
	void *p = gt_array_grow(items, cap, need, elem, 64);
	if (!p) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
		return NULL;
	}
	r->held += (*cap - before) * elem;
	return p;
}
