#include "views/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *scaled(char *buf, size_t len, double v, const char *suffix)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;

	while (fabs(v) >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f %s%s", v, units[u], suffix);
	else if (fabs(v) < 10)
		snprintf(buf, len, "%.2f %s%s", v, units[u], suffix);
	else if (fabs(v) < 100)
		snprintf(buf, len, "%.1f %s%s", v, units[u], suffix);
	else
		snprintf(buf, len, "%.0f %s%s", v, units[u], suffix);
	return buf;
}

const char *gt_format_bytes(char *buf, size_t len, struct gt_u64 v)
{
	if (!v.valid) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	return scaled(buf, len, (double)v.value, "");
}

const char *gt_format_rate(char *buf, size_t len, struct gt_f64 bps)
{
	if (!bps.valid || !isfinite(bps.value)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	return scaled(buf, len, bps.value, "/s");
}

const char *gt_format_share(char *buf, size_t len, struct gt_f64 share)
{
	if (!share.valid || !isfinite(share.value))
		snprintf(buf, len, "n/a");
	else if (share.value * 100 < 10)
		snprintf(buf, len, "%.2f%%", share.value * 100);
	else
		snprintf(buf, len, "%.1f%%", share.value * 100);
	return buf;
}

const char *gt_format_duration_ns(char *buf, size_t len, struct gt_u64 ns)
{
	if (!ns.valid)
		snprintf(buf, len, "n/a");
	else if (ns.value < 1000000ull)
		snprintf(buf, len, "%.3f ms", (double)ns.value / 1e6);
	else if (ns.value < 1000000000ull)
		snprintf(buf, len, "%.1f ms", (double)ns.value / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns.value / 1e9);
	return buf;
}

const char *gt_format_uptime(char *buf, size_t len, double seconds)
{
	if (!isfinite(seconds) || seconds < 0) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	unsigned long s = (unsigned long)seconds;
	unsigned long d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
	if (d)
		snprintf(buf, len, "%lud %02lu:%02lu:%02lu", d, h, m, s % 60);
	else if (h)
		snprintf(buf, len, "%02lu:%02lu:%02lu", h, m, s % 60);
	else
		snprintf(buf, len, "%02lu:%02lu", m, s % 60);
	return buf;
}

const char *gt_format_count(char *buf, size_t len, struct gt_u64 v)
{
	if (!v.valid)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v.value);
	return buf;
}

const char *gt_format_cut(char *buf, size_t len, const char *s, int width)
{
	int n = (int)strlen(s);
	if (n <= width) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	int keep = width < 4 ? width : width - 3;
	if (keep < 0)
		keep = 0;
	while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--;
	snprintf(buf, len, "%.*s%s", keep, s, width < 4 ? "" : "...");
	return buf;
}

int gt_format_wrap_len(const char *text, int room)
{
	int n = (int)strlen(text);
	if (n <= room)
		return n;
	n = room;
	while (n > 0 && text[n] != ' ')
		n--;
	return n > 0 ? n : room;
}

const char *gt_format_collections_counting(enum gt_runtime r)
{
	switch (r) {
	case GT_RUNTIME_DOTNET: return "exclusive";
	case GT_RUNTIME_HOTSPOT: return "per collector";
	case GT_RUNTIME_UNKNOWN: break;
	}
	return NULL;
}
