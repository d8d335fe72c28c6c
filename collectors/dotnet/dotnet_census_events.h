/* The runtime's heap-dump events that a census reads (issue 28), and the
 * table that sums them by type.
 *
 * With the GCHeapDump keyword on, the runtime walks the heap during the
 * blocking gen2 collection it induces and writes every live object in
 * GCBulkNode events (Address, Size, TypeID, EdgeCount); with the Type and
 * GCHeapAndTypeNames keywords it names each type the first time the walk
 * meets it in a BulkType event (layouts: ClrEtwAll.man's BulkType and
 * GCBulkNode templates, measured on .NET 10: 32 bytes a node). The payloads
 * come from the target: every count is checked against the bytes that are
 * there, a name must end inside its record, and the table is bounded
 * (GT_DN_CENSUS_MAX_TYPES, GT_DN_CENSUS_MAX_PARAMS), so a hostile stream
 * ends in a partial census, never in unbounded memory. */
#ifndef GCTOP_COLLECTORS_DOTNET_CENSUS_EVENTS_H
#define GCTOP_COLLECTORS_DOTNET_CENSUS_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/census.h"

enum {
	GT_DN_EV_BULK_TYPE = 15,   /* Type keyword */
	GT_DN_EV_BULK_NODE = 18,   /* GCHeapDump keyword */
};

/* Microsoft-Windows-DotNETRuntime keywords of a heap dump, as
 * dotnet-gcdump asks them (TraceEvent's GCHeapSnapshot, 0x1980001). At
 * Verbose, GCHeapCollect makes the runtime induce a blocking gen2
 * collection when the session starts. */
#define GT_DN_KEYWORD_TYPE 0x80000ull
#define GT_DN_KEYWORD_GC_HEAP_DUMP 0x100000ull
#define GT_DN_KEYWORD_GC_HEAP_COLLECT 0x800000ull
#define GT_DN_KEYWORD_GC_HEAP_AND_TYPE_NAMES 0x1000000ull

/* Distinct types a census keeps: the model's cap (model/census.h), so both
 * runtimes' censuses stop at one size (each type costs ~330 bytes here: at
 * most ~21 MB). */
#define GT_DN_CENSUS_MAX_TYPES GT_CENSUS_MAX_TYPES
/* Type parameters kept per type (generic arguments, an array's element);
 * more are named "..." in the composed name. */
#define GT_DN_CENSUS_MAX_PARAMS 8
/* Objects a census counts: a heap of about 10 GiB of small objects. Past
 * it the rest is not counted and the census says so (dotnet-gcdump stops
 * at 10 M). */
#define GT_DN_CENSUS_MAX_NODES 200000000ull
/* The bytes of a BulkNode value and of its header (Index, Count,
 * ClrInstanceID). */
#define GT_DN_BULK_NODE_VALUE 32
#define GT_DN_BULK_NODE_HEADER 10

/* Objects start at multiples of 8 bytes in a 64-bit heap (4 in a 32-bit
 * one, which 8 only overstates). */
#define GT_DN_OBJECT_ALIGN 8

/* TypeFlags of BulkType (ClrEtwAll.man TypeFlagsMap). */
#define GT_DN_TYPE_FLAG_ARRAY 0x8u

struct gt_dn_census_table;

struct gt_dn_census_table *gt_dn_census_table_new(void);
void gt_dn_census_table_free(struct gt_dn_census_table *t);

/* A BulkType payload: its types named (a type seen twice keeps its first
 * name). 0, or -1 when malformed (what was read before stays). */
int gt_dn_census_bulk_type(struct gt_dn_census_table *t, const uint8_t *p, size_t n);

/* A GCBulkNode payload: its objects counted by type. *index is the
 * event's Index (the runtime numbers them from 0 within a walk), for
 * finding lost events. 0, or -1 when malformed (nothing counted). */
int gt_dn_census_bulk_node(struct gt_dn_census_table *t, const uint8_t *p, size_t n, uint32_t *index);

/* Why the table is incomplete (a cap reached), or NULL. */
const char *gt_dn_census_table_partial(const struct gt_dn_census_table *t);

/* Objects and bytes counted so far. */
uint64_t gt_dn_census_table_nodes(const struct gt_dn_census_table *t);
uint64_t gt_dn_census_table_bytes(const struct gt_dn_census_table *t);
/* The same bytes with each object's size rounded up to its alignment in
 * the heap, as the collection counts what it promoted: a node's Size is
 * the object's own (a byte[] of 1 is 25 bytes and takes 32). */
uint64_t gt_dn_census_table_aligned_bytes(const struct gt_dn_census_table *t);

/* Fills out's types (names in source form: "System.Byte[]",
 * "System.Collections.Generic.List<System.String>"), sorted by bytes, and
 * its totals. 0, or -1 when out of memory. */
int gt_dn_census_table_result(const struct gt_dn_census_table *t, struct gt_census *out);

/* The sum of a GCHeapStats payload's promoted bytes of every generation:
 * what the collection found live (TraceEvent's TotalPromoted). 0, or -1
 * when too short. */
int gt_dn_census_total_promoted(const uint8_t *p, size_t n, uint64_t *out);

#endif
