#include "views/format_ceiling.h"

#include <stdio.h>


/* A share as a percentage to a tenth: "2.2%" (the ceiling is a bound, not a
 * measurement to three figures). */
static const char *pct(char *buf, size_t len, struct gt_f64 share)
{
	snprintf(buf, len, "%.1f%%", share.valid ? share.value * 100 : 0);
	return buf;
}

#define CEILING_NA "GC's share of the time n/a (no pause or GC CPU figure yet): what allocating less can gain is unknown"

const char *gt_format_gc_ceiling(char *buf, size_t len, const struct gt_gc_ceiling *c)
{
	if (!c->share.valid) {
		snprintf(buf, len, "%s", CEILING_NA);
		return buf;
	}
	char all[16], pause[16], cpu[16], parts[96];
	pct(all, sizeof(all), c->share);
	pct(pause, sizeof(pause), c->pause_share);
	pct(cpu, sizeof(cpu), c->cpu_share);
	if (c->pause_share.valid && c->cpu_share.valid)
		snprintf(parts, sizeof(parts), "pauses %s of wall time, its threads %s of the process's CPU", pause, cpu);
	else if (c->pause_share.valid)
		snprintf(parts, sizeof(parts), "pauses %s of wall time", pause);
	else
		snprintf(parts, sizeof(parts), "its threads %s of the process's CPU", cpu);
	snprintf(buf, len,
		 "GC takes %s of the time (%s): removing all of this allocation gains at most about that, "
		 "plus the work that produced it", all, parts);
	return buf;
}

/* Form i of the short line (literal formats, checked by the compiler);
 * the length it wants, or -1 past the last form. */
static int short_form(char *buf, size_t len, int i, const char *all)
{
	switch (i) {
	case 0: return snprintf(buf, len, "GC %s of the time: at most ~%s to gain by allocating less, "
				    "plus the work behind it", all, all);
	case 1: return snprintf(buf, len, "GC %s of the time: at most ~%s to gain by allocating less", all, all);
	case 2: return snprintf(buf, len, "GC %s: at most ~%s to gain by allocating less", all, all);
	case 3: return snprintf(buf, len, "GC %s: gain <=%s by allocating less", all, all);
	default: return -1;
	}
}

const char *gt_format_gc_ceiling_short(char *buf, size_t len, const struct gt_gc_ceiling *c, int width)
{
	static const char *const na[] = { "GC's share n/a: what allocating less gains is unknown", "GC share n/a" };
	char all[16];
	pct(all, sizeof(all), c->share);
	for (int i = 0; i < 4; i++) {
		int w = c->share.valid ? short_form(buf, len, i, all) : i < 2 ? snprintf(buf, len, "%s", na[i]) : -1;
		if (w >= 0 && w <= width && (size_t)w < len)
			return buf;
	}
	if (len)
		buf[0] = '\0';
	return buf;
}
