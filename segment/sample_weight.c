#include "segment/sample_weight.h"

#include <math.h>

uint64_t gctop_sample_weight(uint64_t size, uint64_t interval)
{
	if (!interval)
		return size;
	if (!size)
		return interval;
	double x = (double)size / (double)interval;
	/* -expm1(-x) keeps its precision for the tiny x of small objects,
	 * where the weight tends to interval + size / 2 */
	double w = (double)size / -expm1(-x);
	if (!(w < 0x1p63))
		return size;
	return (uint64_t)(w + 0.5);
}
