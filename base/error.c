#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int gt_fail(struct gt_error *err, enum gt_exit code, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->code = code;
	return -1;
}

void *gt_calloc(size_t size, struct gt_error *err)
{
	void *p = calloc(1, size);
	if (!p)
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	return p;
}
