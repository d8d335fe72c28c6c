#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>

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
