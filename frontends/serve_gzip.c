/* gctop --serve's gzip: see serve_gzip.h. */
#include "frontends/serve_gzip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "frontends/serve_libs.h"

/* zlib's window bits for a gzip wrapper rather than zlib's own (15 + 16). */
#define GZIP_WINDOW_BITS (15 + 16)
#define GZIP_MEM_LEVEL 8
/* Level 1: the scrape that compresses a round's text waits for it. On a
 * fleet's 11.8 MB (200 processes' worth) it took 46 ms for 12x smaller
 * where level 6 took 82 ms for 15x; on one scrape of 59 KB, 11x and 14x
 * (bench/README.md, 1f). */
#define GZIP_LEVEL 1

/* A q value of 0 (0, 0., 0.0 ... 0.000): not acceptable. */
static bool q_is_zero(const char *v)
{
	size_t n = strcspn(v, ", \t;");
	if (n == 0 || v[0] != '0')
		return false;
	return n == 1 || (v[1] == '.' && strspn(v + 2, "0") == n - 2);
}

enum coding { CODING_OTHER, CODING_GZIP, CODING_ANY };

/* One coding of the list at *p, moved past it: which it is, and whether
 * its q, if given, is 0 (*refused). */
static enum coding next_coding(const char **p, bool *refused)
{
	const char *s = *p + strspn(*p, " \t");
	size_t name = strcspn(s, ";, \t");
	enum coding c = CODING_OTHER;
	if ((name == 4 && !strncasecmp(s, "gzip", 4)) || (name == 6 && !strncasecmp(s, "x-gzip", 6)))
		c = CODING_GZIP;
	else if (name == 1 && *s == '*')
		c = CODING_ANY;
	const char *end = s + strcspn(s, ",");
	*refused = false;
	for (const char *q = s + name; q < end; q++) {
		if (*q != ';')
			continue;
		const char *param = q + 1 + strspn(q + 1, " \t");
		if ((param[0] == 'q' || param[0] == 'Q') && param[1] == '=' && q_is_zero(param + 2))
			*refused = true;
	}
	*p = *end ? end + 1 : end;
	return c;
}

/* gzip named and not refused, or * not refused and gzip not refused by
 * name. */
bool gt_serve_accepts_gzip(const char *accept_encoding)
{
	bool gzip = false, any = false, gzip_refused = false;
	for (const char *p = accept_encoding; p && *p;) {
		bool refused;
		enum coding c = next_coding(&p, &refused);
		if (c == CODING_GZIP && refused)
			gzip_refused = true;
		else if (c == CODING_GZIP)
			gzip = true;
		else if (c == CODING_ANY && !refused)
			any = true;
	}
	return gzip || (any && !gzip_refused);
}

int gt_serve_gzip(const char *text, size_t len, char **out, size_t *out_len)
{
	const struct gt_serve_libs *z = &gt_serve_libs;
	z_stream s;
	memset(&s, 0, sizeof(s));
	if (z->deflateInit2_(&s, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW_BITS, GZIP_MEM_LEVEL, Z_DEFAULT_STRATEGY,
			     ZLIB_VERSION, (int)sizeof(s)) != Z_OK)
		return -1;
	/* deflateBound's size takes the whole text in one call, with the
	 * gzip header and trailer */
	size_t cap = z->deflateBound(&s, (uLong)len) + 32;
	char *buf = malloc(cap);
	int rc = -1;
	if (buf && len <= (uInt)-1 && cap <= (uInt)-1) {
		s.next_in = (Bytef *)(uintptr_t)text;
		s.avail_in = (uInt)len;
		s.next_out = (Bytef *)buf;
		s.avail_out = (uInt)cap;
		rc = z->deflate(&s, Z_FINISH) == Z_STREAM_END ? 0 : -1;
	}
	z->deflateEnd(&s);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*out_len = s.total_out;
	return 0;
}
