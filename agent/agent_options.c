#include "agent/agent_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const default_prefixes[] = { "java.", "javax.", "jdk.", "sun.", "com.sun." };

void agent_default_prefixes(struct agent_prefixes *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < sizeof(default_prefixes) / sizeof(default_prefixes[0]); i++)
		snprintf(p->p[p->n++], AGENT_PREFIX_LEN, "%s", default_prefixes[i]);
}

static int parse_prefixes(const char *v, size_t len, struct agent_prefixes *p)
{
	memset(p, 0, sizeof(*p));
	while (len) {
		const char *colon = memchr(v, ':', len);
		size_t n = colon ? (size_t)(colon - v) : len;
		if (n) {
			if (p->n == AGENT_MAX_PREFIXES || n >= AGENT_PREFIX_LEN)
				return -1;
			memcpy(p->p[p->n], v, n);
			p->p[p->n++][n] = '\0';
		}
		if (!colon)
			break;
		len -= n + 1;
		v = colon + 1;
	}
	return 0;
}

static int parse_u64(const char *v, size_t len, uint64_t max, uint64_t *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (errno || *end || buf[0] == '-' || x > max)
		return -1;
	*out = x;
	return 0;
}

int agent_options_parse(const char *s, struct agent_options *o, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	agent_default_prefixes(&o->prefixes);
	snprintf(o->segment_dir, sizeof(o->segment_dir), "/tmp");
	o->watchdog_ns = 5000000000ull;
	while (s && *s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		const char *eq = memchr(s, '=', n);
		size_t klen = eq ? (size_t)(eq - s) : n;
		const char *v = eq ? eq + 1 : s + n;
		size_t vlen = eq ? n - klen - 1 : 0;
		uint64_t x;
		int bad = 0;
		if (klen == 8 && !memcmp(s, "interval", 8)) {
			bad = parse_u64(v, vlen, 1ull << 30, &o->interval);
		} else if (klen == 8 && !memcmp(s, "packages", 8)) {
			bad = parse_prefixes(v, vlen, &o->prefixes);
			o->have_prefixes = true;
		} else if (klen == 7 && !memcmp(s, "segment", 7)) {
			bad = vlen == 0 || vlen >= sizeof(o->segment_dir) || v[0] != '/';
			if (!bad) {
				memcpy(o->segment_dir, v, vlen);
				o->segment_dir[vlen] = '\0';
			}
		} else if (klen == 8 && !memcmp(s, "watchdog", 8)) {
			bad = parse_u64(v, vlen, 3600, &x) || x == 0;
			o->watchdog_ns = x * 1000000000ull;
		} else if (klen == 6 && !memcmp(s, "linger", 6) && !eq) {
			o->linger = true;
		} else if (klen == 4 && !memcmp(s, "stop", 4) && !eq) {
			o->stop = true;
		} else if (klen == 3 && !memcmp(s, "ops", 3) && !eq) {
			o->ops_only = true;
		} else if (n) {
			bad = 1;
		}
		if (bad) {
			snprintf(err, errlen, "bad agent option '%.*s'", (int)(n > 80 ? 80 : n), s);
			return -1;
		}
		s = comma ? comma + 1 : s + n;
	}
	return 0;
}
