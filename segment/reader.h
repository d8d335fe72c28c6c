/* Reads gctop's shared-memory segment (segment/gctop_segment.h): validates
 * the layout, reads under its seqlocks and copies out a bounded top-K.
 * The file is read with pread into a private copy (never mapped: its owner
 * can truncate it); the reader heartbeat goes in with pwrite. */
#ifndef GCTOP_COLLECTORS_SEGMENT_READER_H
#define GCTOP_COLLECTORS_SEGMENT_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/allocators.h"
#include "base/error.h"
#include "segment/gctop_segment.h"

/* Returned by gt_segment_parse when a seqlock never settled: not an error of
 * the segment, read again later. */
#define GT_SEGMENT_TORN (-2)

/* The ops block (layout_minor 2): the request in the file and the
 * publisher's answer, as read. */
struct gt_segment_opcount {
	bool present;                   /* the segment has an ops block */
	bool answered;                  /* the answer below was read whole (its seqlock was even and still) */
	uint64_t req_id;                /* the request in the file now, 0: none */
	uint64_t req_beat;              /* its requester's last beat */
	/* Its name and attribute, cleaned; copied outside the request's
	 * seqlock, so a reader compares them only to tell whether the request
	 * asks for what it would (a torn copy then just differs). */
	char req_name[GCTOP_SEG_OPS_NAME_LEN];
	char req_attr[GCTOP_SEG_OPS_ATTR_LEN];
	uint64_t answer_id;             /* the request the answer is for */
	uint32_t status;                /* enum gctop_seg_ops_status; a value past the known ones reads FAILED */
	uint32_t matched;
	uint64_t value;
	uint64_t read_ns;               /* the publisher's CLOCK_MONOTONIC */
	char reason[GCTOP_SEG_OPS_REASON_LEN]; /* cleaned as every text of the segment */
};

struct gt_segment_reading {
	struct gt_alloc_snapshot snap;
	int32_t writer_pid;
	uint32_t flags;                 /* GCTOP_SEG_F_* */
	uint64_t writer_heartbeat_ns;
	struct gt_u64 alloc_total;      /* exact, when GCTOP_SEG_F_ALLOC_TOTAL and read once */
	uint64_t alloc_total_ns;        /* CLOCK_MONOTONIC of alloc_total */
	struct gt_u64 pause_count;      /* when GCTOP_SEG_F_PAUSES */
	struct gt_u64 pause_total_ns;
	unsigned n_recent;              /* lengths of the last pauses, oldest first */
	uint64_t recent_ns[GCTOP_SEG_PAUSE_RING];
	struct gt_segment_opcount opcount;
	/* layout_minor 3, where the heap gives objects larger than half a
	 * region whole regions (region_bytes > 0): their samples' weights and
	 * their tails (gctop_segment.h); invalid otherwise */
	uint64_t region_bytes;
	struct gt_u64 humongous_bytes, humongous_tail_bytes;
};

/* Pure: checks a segment image of len bytes (8-byte aligned) and fills out.
 * Returns 0; -1 with err (GT_EXIT_BAD_DATA) when the layout is invalid;
 * GT_SEGMENT_TORN when a seqlock stayed odd or kept changing. */
int gt_segment_parse(const void *buf, size_t len, struct gt_segment_reading *out, struct gt_error *err);

/* "/proc/<pid>/root/tmp/.gctop-seg-<nspid>" (the target's own /tmp, also
 * for containers). Returns 0, or -1 when it does not fit. */
int gt_segment_path_for(pid_t pid, pid_t nspid, char *buf, size_t len);

struct gt_segment;

/* Opens path (a path of ours: its directory is trusted) after checking it
 * is a regular file (no symlink) with one link, owned by owner_uid (and by
 * us unless we are root), mode without group or other bits and of a sane
 * size. Returns 0, or -1 with err; errno is ENOENT when there is no such
 * file. */
int gt_segment_open(const char *path, uid_t owner_uid, struct gt_segment **out, struct gt_error *err);

/* The same for name in the directory dir (a descriptor the caller reached
 * without following links, e.g. a target's /tmp; kept, dup'ed, to notice a
 * replaced file); path only names it in messages. */
int gt_segment_openat(int dir, const char *name, const char *path, uid_t owner_uid, struct gt_segment **out,
		      struct gt_error *err);

/* Reads the current figures from a private copy taken with pread, so a file
 * the owner truncates meanwhile gives an error, never SIGBUS. Returns as
 * gt_segment_parse, and -1 with err when the file changed size under us. */
int gt_segment_read(struct gt_segment *s, struct gt_segment_reading *out, struct gt_error *err);

/* The stacks behind snap's sites from the copy the last gt_segment_read
 * took (snap its reading): 0, or -1 when the segment has no stack table
 * (an older agent). */
struct gt_alloc_stacks;
int gt_segment_stacks(const struct gt_segment *s, const struct gt_alloc_snapshot *snap, struct gt_alloc_stacks *out);

/* Writes the reader heartbeat. */
void gt_segment_beat(struct gt_segment *s, uint64_t now_ns);

/* Asks the publisher for an operations counter (an MBean attribute summed
 * over the MBeans name matches) under the reader's id (not 0), in the ops
 * block of the last successful gt_segment_read. Returns 0, or -1 when that
 * reading had no ops block (an older agent) or a write failed. */
int gt_segment_request_opcount(struct gt_segment *s, uint64_t id, const char *name, const char *attr);
/* Tells the publisher the request is still wanted (at least once a second). */
void gt_segment_opcount_beat(struct gt_segment *s, uint64_t now_ns);

/* Asks the publisher for a sampling interval (0: let it decide). */
void gt_segment_request_interval(struct gt_segment *s, uint64_t bytes);

/* True when the name no longer names the open file (removed or replaced). */
bool gt_segment_replaced(const struct gt_segment *s);

void gt_segment_close(struct gt_segment *s);

#endif
