#include "views/format_live.h"

#include <math.h>
#include <stdio.h>

#include "model/format.h"

const char *gt_format_live_growth(char *buf, size_t len, const struct gt_live_set *l)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	if (!l->growth_bps.valid || !isfinite(l->growth_bps.value)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	double v = l->growth_bps.value * 60, lo = l->growth_low_bps.value * 60, hi = l->growth_high_bps.value * 60;
	unsigned u = 0;
	while (fabs(v) >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024, lo /= 1024, hi /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%+.0f %s/min (90%%: %.0f..%.0f)", v, units[u], lo, hi);
	else
		snprintf(buf, len, "%+.1f %s/min (90%%: %.1f..%.1f)", v, units[u], lo, hi);
	return buf;
}

const char *gt_format_long_seconds(char *buf, size_t len, double s)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "n/a");
	else if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 120 * 60)
		snprintf(buf, len, "%.1f min", s / 60);
	else if (s < 48 * 3600)
		snprintf(buf, len, "%.1f h", s / 3600);
	else
		snprintf(buf, len, "%.1f d", s / 86400);
	return buf;
}

const char *gt_format_live_exhaustion(char *buf, size_t len, const struct gt_live_set *l)
{
	char t[32];
	if (!l->exhaustion_s.valid)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%s to %s", gt_format_long_seconds(t, sizeof(t), l->exhaustion_s.value),
			 l->limit_kind == GT_LIVE_LIMIT_CONTAINER ? "container limit" : "heap max");
	return buf;
}

const char *gt_format_old(char *buf, size_t len, const struct gt_sample *s)
{
	char u[32], c[32], m[32], o[16];
	struct gt_f64 share = gt_old_used_share(s);
	snprintf(buf, len, "used %s / committed %s / max %s, %s of committed used (jstat's O)",
		 gt_format_bytes(u, sizeof(u), s->old_used_bytes), gt_format_bytes(c, sizeof(c), s->old_committed_bytes),
		 gt_format_bytes(m, sizeof(m), s->old_max_bytes), gt_format_share(o, sizeof(o), share));
	return buf;
}
