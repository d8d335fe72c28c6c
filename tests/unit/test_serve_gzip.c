/* gctop --serve's gzip (frontends/serve_gzip.c): which Accept-Encoding
 * values take gzip, as RFC 9110 reads them and as Prometheus and curl send
 * them; and a gzip that zlib's own inflate gives back whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/serve_gzip.h"
#include "frontends/serve_libs.h"
#include "tests/unit/check.h"

static void test_accept_encoding_values(void)
{
	/* Prometheus' scraper, node_exporter's clients, curl --compressed */
	CHECK(gt_serve_accepts_gzip("gzip"));
	CHECK(gt_serve_accepts_gzip("deflate, gzip"));
	CHECK(gt_serve_accepts_gzip("deflate, gzip, br, zstd"));
	CHECK(gt_serve_accepts_gzip("GZip"));
	CHECK(gt_serve_accepts_gzip("x-gzip"));
	CHECK(gt_serve_accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1"));
	CHECK(gt_serve_accepts_gzip(" gzip ; q=0.5"));
	CHECK(gt_serve_accepts_gzip("*"));
	CHECK(gt_serve_accepts_gzip("gzip;q=0.001"));
	/* none, or not gzip, or refused */
	CHECK(!gt_serve_accepts_gzip(NULL));
	CHECK(!gt_serve_accepts_gzip(""));
	CHECK(!gt_serve_accepts_gzip("identity"));
	CHECK(!gt_serve_accepts_gzip("deflate, br"));
	CHECK(!gt_serve_accepts_gzip("gzipped"));
	CHECK(!gt_serve_accepts_gzip("xgzip"));
	CHECK(!gt_serve_accepts_gzip("gzip;q=0"));
	CHECK(!gt_serve_accepts_gzip("gzip;Q=0.000"));
	CHECK(!gt_serve_accepts_gzip("gzip; q=0.0, deflate"));
	CHECK(!gt_serve_accepts_gzip("*;q=0"));
	CHECK(!gt_serve_accepts_gzip("gzip;q=0, *"));
	CHECK(!gt_serve_accepts_gzip(",,;"));
}

static void test_gzip_inflates_to_the_text(void)
{
	/* an exposition's kind of text: long repeats */
	size_t len = 0, cap = 1 << 20;
	char *text = malloc(cap);
	CHECK(text != NULL);
	if (!text)
		return;
	for (unsigned i = 0; len + 200 < cap; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"jvm_memory_used_bytes{pid=\"%u\",runtime=\"hotspot\",main=\"Main\"} %u\n", i % 300,
					i * 7919u);
	char *gz = NULL;
	size_t gz_len = 0;
	CHECK(gt_serve_gzip(text, len, &gz, &gz_len) == 0);
	CHECK(gz_len > 18 && gz_len < len / 4);
	CHECK(gz && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);  /* gzip's magic */
	/* back through zlib's inflate, as a scraper reads it */
	z_stream s;
	memset(&s, 0, sizeof(s));
	char *back = malloc(len + 1);
	CHECK(back && inflateInit2(&s, 15 + 16) == Z_OK);
	s.next_in = (Bytef *)gz;
	s.avail_in = (uInt)gz_len;
	s.next_out = (Bytef *)back;
	s.avail_out = (uInt)len + 1;
	CHECK(inflate(&s, Z_FINISH) == Z_STREAM_END);
	CHECK_U64(s.total_out, len);
	CHECK(back && memcmp(back, text, len) == 0);
	inflateEnd(&s);
	/* the empty exposition too */
	char *empty = NULL;
	size_t empty_len = 0;
	CHECK(gt_serve_gzip("", 0, &empty, &empty_len) == 0 && empty_len >= 18);
	free(empty);
	free(back);
	free(gz);
	free(text);
}

int main(void)
{
	struct gt_error err;
	if (gt_serve_libs_load(&err) != 0) {
		check_fail(__FILE__, __LINE__, "%s", err.msg);
		return check_summary();
	}
	RUN_TEST(test_accept_encoding_values);
	RUN_TEST(test_gzip_inflates_to_the_text);
	return check_summary();
}
