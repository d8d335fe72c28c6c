/* Human-readable numbers, shared by the writers and the screen's panes.
 * Invalid figures render as "n/a", never as 0. */
#ifndef GCTOP_MODEL_FORMAT_H
#define GCTOP_MODEL_FORMAT_H

#include <stddef.h>

#include "model/sample.h"

/* 1536 -> "1.5 KiB"; binary units, 3 significant digits. */
const char *gt_format_bytes(char *buf, size_t len, struct gt_u64 v);
/* bytes per second -> "12.3 MiB/s" */
const char *gt_format_rate(char *buf, size_t len, struct gt_f64 bps);
/* 0.0123 -> "1.2%" */
const char *gt_format_share(char *buf, size_t len, struct gt_f64 share);
/* nanoseconds -> "0.7 ms", "1.23 s" */
const char *gt_format_duration_ns(char *buf, size_t len, struct gt_u64 ns);
/* seconds -> "3d 04:05:06", "04:05:06", "05:06" */
const char *gt_format_uptime(char *buf, size_t len, double seconds);
/* s cut to at most width bytes, never inside a UTF-8 character, ending in
 * "..." when cut (width 4 or more) */
const char *gt_format_cut(char *buf, size_t len, const char *s, int width);
/* text cut to at most width bytes at a word boundary, ending in "..." when
 * cut, so no word is shown in part: "" when not even its first word fits. */
const char *gt_format_cut_words(char *buf, size_t len, const char *text, int width);
/* A type or frame name in at most width bytes, shortened by its namespace:
 * the namespace abbreviated to initials ("S.T.J.Foo+Bar"), then dropped from
 * the left ("..Foo+Bar"), the class and member last. A form that one of
 * the others (the names shown beside it) could also take is skipped, so two
 * names never read the same; the end is cut only when no form fits. */
const char *gt_format_name(char *buf, size_t len, const char *name, int width, const char *const *others,
			   size_t n_others);
/* How much of text goes on a line of room columns, broken at a space:
 * all of it when it fits, else up to the last space that fits, else room. */
int gt_format_wrap_len(const char *text, int room);
/* plain count, or "n/a" */
const char *gt_format_count(char *buf, size_t len, struct gt_u64 v);

/* What a generation's collection count counts (model/sample.h, struct
 * gt_generation), said wherever one is shown: "exclusive", each collection
 * once, by the oldest generation it collected (.NET), or "per collector",
 * the collector's own (HotSpot); NULL for no runtime. */
const char *gt_format_collections_counting(const struct gt_runtime_traits *rt);

#endif
