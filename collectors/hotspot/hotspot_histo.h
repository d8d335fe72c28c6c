/* HotSpot's class histogram (the reply to the attach command
 * `inspectheap`, or jcmd's GC.class_histogram), parsed into a census of
 * source-form type names. Pure: the bytes come from the target, and a
 * fuzz target (tests/fuzz/fuzz_hotspot_histo.c) runs them. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_HISTO_H
#define GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_HISTO_H

#include <stddef.h>

#include "model/census.h"

/* The JVM's internal class name in (len bytes, "[B", "[[I",
 * "[Ljava.lang.String;", "Foo$Bar") in source form ("byte[]", "int[][]",
 * "java.lang.String[]", "Foo$Bar": nested classes keep their '$'), cut to
 * fit out (cap > 0). A descriptor it does not know stays as it is.
 * Returns the length written. */
size_t gt_hotspot_source_name(const char *in, size_t len, char *out, size_t cap);

/* Parses a histogram (rows "N: COUNT BYTES NAME [(MODULE)]", then
 * "Total COUNT BYTES"; other lines, such as jcmd's "PID:" and the header,
 * are passed over) into out's types, sorted by bytes, and totals. A row
 * that does not read (a number past 2^64, a line cut short) is left out
 * and out->partial_why says so, as it does when the Total line is
 * missing (the totals are then the rows' sums). Rows past
 * GT_CENSUS_MAX_TYPES are left out too (the JVM sends the largest first,
 * so the kept are the largest), partial_why then being
 * gt_hotspot_histo_why_cap; the totals still count them. Returns 0, or -1
 * when out of memory (out freed). */
int gt_hotspot_histo_parse(const char *text, size_t len, struct gt_census *out);

extern const char gt_hotspot_histo_why_cap[];

#endif
