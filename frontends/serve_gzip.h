/* gctop --serve's compressed /metrics: whether a scraper takes gzip, and
 * the gzip of an exposition (zlib, loaded with --serve's libraries,
 * frontends/serve_libs.h). node_exporter and the Prometheus client
 * libraries answer Accept-Encoding: gzip so; Prometheus asks for it on
 * every scrape, and an exposition's repeated names and labels shrink
 * tenfold or more. */
#ifndef GCTOP_FRONTENDS_SERVE_GZIP_H
#define GCTOP_FRONTENDS_SERVE_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* An Accept-Encoding header's value (NULL: none) takes gzip: a coding
 * gzip or x-gzip, case aside, whose q is not 0, or * (q not 0) where gzip
 * is not refused by name (RFC 9110, 12.5.3). */
bool gt_serve_accepts_gzip(const char *accept_encoding);

/* The gzip of text[0..len) in a new buffer (*out, *out_len), or -1 (out
 * of memory, zlib's failure). Pure but for zlib: gt_serve_libs_load first. */
int gt_serve_gzip(const char *text, size_t len, char **out, size_t *out_len);

#endif
