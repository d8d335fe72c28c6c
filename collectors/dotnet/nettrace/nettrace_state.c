/* How the nettrace parser fails: one sentence kept, and the parser stays
 * failed (every file of the parser reports through it). */
#include "collectors/dotnet/nettrace/nettrace_state.h"

#include <stdarg.h>
#include <stdio.h>

int nt_fail(struct gt_nettrace *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	p->failed = true;
	return -1;
}
