#include "segment/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "segment/reader_stacks.h"
#include "segment/reader_text.h"


_Static_assert(GT_ALLOC_MESSAGE_LEN == GCTOP_SEG_MESSAGE_LEN, "a sampler's message is as long as the segment's");
_Static_assert(GT_ALLOC_SITE_NAME_LEN == GCTOP_SEG_NAME_LEN, "a site's name is as long as the segment's");

/* Enough for a writer preempted mid-update to finish; a seqlock that is
 * still odd after this is reported as torn instead of spinning on. */
#define SEG_SEQ_TRIES 200

struct gt_segment {
	int fd;
	int dir;           /* the directory it was opened in, for the replaced check */
	uint8_t *buf;      /* private copy of the file, size bytes */
	size_t size;
	dev_t dev;
	ino_t ino;
	char name[64];
	char path[512];
	uint32_t opcount_offset; /* the ops block of the last good reading, 0: none */
};

static uint64_t ld64(const void *base, size_t off)
{
	return __atomic_load_n((const uint64_t *)((const uint8_t *)base + off), __ATOMIC_RELAXED);
}

static uint32_t ld32(const void *base, size_t off)
{
	return __atomic_load_n((const uint32_t *)((const uint8_t *)base + off), __ATOMIC_RELAXED);
}

#define HOFF(field) offsetof(struct gctop_seg_header, field)
#define OOFF(field) offsetof(struct gctop_seg_ops, field)

static enum gt_sampler_state map_state(uint32_t s)
{
	switch (s) {
	case GCTOP_SEG_STARTING: return GT_SAMPLER_STARTING;
	case GCTOP_SEG_RUNNING: return GT_SAMPLER_RUNNING;
	case GCTOP_SEG_STOPPED: return GT_SAMPLER_STOPPED;
	case GCTOP_SEG_BUSY: return GT_SAMPLER_BUSY;
	default: return GT_SAMPLER_FAILED;
	}
}

static enum gt_alloc_heap map_heap(uint32_t h)
{
	switch (h) {
	case GCTOP_SEG_HEAP_SMALL: return GT_ALLOC_HEAP_SMALL;
	case GCTOP_SEG_HEAP_LARGE: return GT_ALLOC_HEAP_LARGE;
	case GCTOP_SEG_HEAP_PINNED: return GT_ALLOC_HEAP_PINNED;
	default: return GT_ALLOC_HEAP_UNKNOWN;
	}
}

static bool table_fits(uint64_t off, uint64_t slots, uint64_t size)
{
	return slots && slots <= GCTOP_SEG_MAX_SLOTS && (slots & (slots - 1)) == 0 &&
	       off >= sizeof(struct gctop_seg_header) && off % 8 == 0 &&
	       off + slots * sizeof(struct gctop_seg_site) <= size;
}

static int check_layout(const void *buf, size_t len, struct gt_error *err)
{
	if (len < sizeof(struct gctop_seg_header))
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment is truncated (%zu bytes)", len);
	if (memcmp(buf, GCTOP_SEG_MAGIC, 8) != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment has the wrong magic");
	uint32_t version = ld32(buf, HOFF(version));
	if (version != GCTOP_SEG_VERSION)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "allocation segment has version %u, this gctop reads version %u; use matching gctop and agent",
			       version, GCTOP_SEG_VERSION);
	uint64_t file_size = ld64(buf, HOFF(file_size));
	if (ld32(buf, HOFF(header_size)) != sizeof(struct gctop_seg_header) ||
	    ld32(buf, HOFF(slot_size)) != sizeof(struct gctop_seg_site) ||
	    file_size > len || file_size > GCTOP_SEG_MAX_FILE_SIZE)
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment has impossible sizes");
	uint64_t fo = ld32(buf, HOFF(frame_offset)), fs = ld32(buf, HOFF(frame_slots));
	uint64_t to = ld32(buf, HOFF(type_offset)), ts = ld32(buf, HOFF(type_slots));
	if (!table_fits(fo, fs, file_size) || !table_fits(to, ts, file_size))
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment has site tables outside the file");
	uint64_t fe = fo + fs * sizeof(struct gctop_seg_site), te = to + ts * sizeof(struct gctop_seg_site);
	if (fo < te && to < fe)
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment has overlapping site tables");
	return 0;
}

/* The ops block's offset, 0 when the segment has none; -1 when it claims
 * one that is not inside the file. The layout is checked already. */
static int64_t opcount_offset(const void *buf)
{
	uint64_t off = ld32(buf, HOFF(ops_offset));
	if (ld32(buf, HOFF(layout_minor)) < 2 || off == 0)
		return 0;
	if (ld32(buf, HOFF(ops_size)) != sizeof(struct gctop_seg_ops) || off % 8 != 0 ||
	    off < sizeof(struct gctop_seg_header) || off + sizeof(struct gctop_seg_ops) > ld64(buf, HOFF(file_size)))
		return -1;
	return (int64_t)off;
}

static uint32_t map_opcount_status(uint32_t s)
{
	return s <= GCTOP_SEG_OPS_STATUS_MAX ? s : GCTOP_SEG_OPS_FAILED;
}

/* The request in the file and the answer, when the answer's seqlock is
 * even (gt_segment_read copied it while it stood still). */
static void read_opcount_block(const void *buf, uint64_t off, struct gt_segment_opcount *o)
{
	o->present = true;
	o->req_id = ld64(buf, off + OOFF(req_id));
	o->req_beat = ld64(buf, off + OOFF(req_beat));
	gt_segment_copy_text(o->req_name, sizeof(o->req_name), buf, off + OOFF(req_name), GCTOP_SEG_OPS_NAME_LEN);
	gt_segment_copy_text(o->req_attr, sizeof(o->req_attr), buf, off + OOFF(req_attr), GCTOP_SEG_OPS_ATTR_LEN);
	uint64_t s1 = __atomic_load_n((const uint64_t *)((const uint8_t *)buf + off + OOFF(seq)), __ATOMIC_ACQUIRE);
	if (s1 & 1)
		return;
	o->answer_id = ld64(buf, off + OOFF(answer_id));
	o->value = ld64(buf, off + OOFF(value));
	o->read_ns = ld64(buf, off + OOFF(read_ns));
	o->status = map_opcount_status(ld32(buf, off + OOFF(status)));
	o->matched = ld32(buf, off + OOFF(matched));
	gt_segment_copy_text(o->reason, sizeof(o->reason), buf, off + OOFF(reason), GCTOP_SEG_OPS_REASON_LEN);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	o->answered = ld64(buf, off + OOFF(seq)) == s1;
}

static int read_seq_block(const void *buf, struct gt_segment_reading *out)
{
	for (int i = 0; i < SEG_SEQ_TRIES; i++) {
		uint64_t s1 = __atomic_load_n((const uint64_t *)((const uint8_t *)buf + HOFF(seq)), __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
		uint32_t state = ld32(buf, HOFF(state));
		uint64_t total = ld64(buf, HOFF(alloc_total_bytes));
		uint64_t total_ns = ld64(buf, HOFF(alloc_total_ns));
		gt_segment_copy_text(out->snap.message, sizeof(out->snap.message), buf, HOFF(message), GCTOP_SEG_MESSAGE_LEN);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (ld64(buf, HOFF(seq)) != s1)
			continue;
		out->snap.state = map_state(state);
		if ((out->flags & GCTOP_SEG_F_ALLOC_TOTAL) && total_ns) {
			gt_u64_set(&out->alloc_total, total);
			out->alloc_total_ns = total_ns;
		}
		return 0;
	}
	return GT_SEGMENT_TORN;
}

static int read_pause_block(const void *buf, struct gt_segment_reading *out)
{
	if (!(out->flags & GCTOP_SEG_F_PAUSES))
		return 0;
	for (int i = 0; i < SEG_SEQ_TRIES; i++) {
		uint64_t s1 = __atomic_load_n((const uint64_t *)((const uint8_t *)buf + HOFF(pause_seq)), __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
		uint64_t count = ld64(buf, HOFF(pause_count)), total = ld64(buf, HOFF(pause_total_ns));
		unsigned n = count < GCTOP_SEG_PAUSE_RING ? (unsigned)count : GCTOP_SEG_PAUSE_RING;
		for (unsigned k = 0; k < n; k++) {
			uint64_t idx = (count - n + k) % GCTOP_SEG_PAUSE_RING;
			out->recent_ns[k] = ld64(buf, HOFF(pause_ring) + idx * 8);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (ld64(buf, HOFF(pause_seq)) != s1)
			continue;
		gt_u64_set(&out->pause_count, count);
		gt_u64_set(&out->pause_total_ns, total);
		out->n_recent = n;
		return 0;
	}
	return GT_SEGMENT_TORN;
}

static int by_bytes_desc(const void *a, const void *b)
{
	const struct gt_alloc_site *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return strcmp(x->name, y->name);
}

static unsigned smallest_site(const struct gt_alloc_table *t)
{
	unsigned slot = 0;
	for (unsigned k = 1; k < t->n; k++)
		if (t->sites[k].bytes < t->sites[slot].bytes)
			slot = k;
	return slot;
}

/* Keeps the GT_ALLOC_SITES_MAX sites with most bytes; a slot whose key is
 * empty or still being claimed is skipped. */
static void read_table(const void *buf, uint64_t off, uint64_t slots, struct gt_alloc_table *t)
{
	unsigned seen = 0, min_slot = 0;
	t->n = 0;
	for (uint64_t i = 0; i < slots; i++) {
		size_t so = off + i * sizeof(struct gctop_seg_site);
		uint64_t key = __atomic_load_n((const uint64_t *)((const uint8_t *)buf + so), __ATOMIC_ACQUIRE);
		if (key == GCTOP_SEG_KEY_EMPTY || key == GCTOP_SEG_KEY_BUSY)
			continue;
		seen++;
		uint64_t bytes = ld64(buf, so + offsetof(struct gctop_seg_site, bytes));
		unsigned slot;
		if (t->n < GT_ALLOC_SITES_MAX) {
			slot = t->n++;
		} else {
			/* The smallest kept site is known: most slots cost one compare. */
			slot = min_slot;
			if (t->sites[slot].bytes >= bytes)
				continue;
		}
		struct gt_alloc_site *s = &t->sites[slot];
		s->bytes = bytes;
		s->count = ld64(buf, so + offsetof(struct gctop_seg_site, count));
		s->heap = map_heap(ld32(buf, so + offsetof(struct gctop_seg_site, heap)));
		gt_segment_copy_text(s->name, sizeof(s->name), buf, so + offsetof(struct gctop_seg_site, name), GCTOP_SEG_NAME_LEN);
		if (!s->name[0])
			snprintf(s->name, sizeof(s->name), "(unnamed)");
		if (t->n == GT_ALLOC_SITES_MAX)
			min_slot = smallest_site(t);
	}
	t->complete = seen <= GT_ALLOC_SITES_MAX;
	qsort(t->sites, t->n, sizeof(t->sites[0]), by_bytes_desc);
}

/* The humongous block of layout_minor 3; an older file's bytes there are
 * reserved, so not read. */
static void read_region_block(const void *buf, struct gt_segment_reading *out)
{
	if (ld32(buf, HOFF(layout_minor)) < 3)
		return;
	out->region_bytes = ld64(buf, HOFF(region_bytes));
	if (!out->region_bytes)
		return;
	gt_u64_set(&out->humongous_bytes, ld64(buf, HOFF(humongous_bytes)));
	gt_u64_set(&out->humongous_tail_bytes, ld64(buf, HOFF(humongous_tail_bytes)));
}

int gt_segment_parse(const void *buf, size_t len, struct gt_segment_reading *out, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	if (check_layout(buf, len, err) != 0)
		return -1;
	int64_t opcount = opcount_offset(buf);
	if (opcount < 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment has its ops block outside the file");
	struct gt_alloc_snapshot *snap = &out->snap;
	out->writer_pid = (int32_t)ld32(buf, HOFF(writer_pid));
	out->flags = ld32(buf, HOFF(flags));
	out->writer_heartbeat_ns = ld64(buf, HOFF(writer_heartbeat_ns));
	snap->generation = ld64(buf, HOFF(generation));
	gt_segment_copy_text(snap->source, sizeof(snap->source), buf, HOFF(source), GCTOP_SEG_SOURCE_LEN);
	snap->interval_bytes = ld64(buf, HOFF(interval));
	gt_f64_set(&snap->sampled_share, 1);   /* the agent samples without pause */
	int rc = read_seq_block(buf, out);
	if (rc == 0)
		rc = read_pause_block(buf, out);
	if (rc != 0) {
		gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment is being rewritten; read it again");
		return rc;
	}
	/* Counters before tables: a site then never holds more than the totals
	 * it is a share of, at most the few samples in flight. */
	snap->samples = ld64(buf, HOFF(samples));
	snap->est_bytes = ld64(buf, HOFF(est_bytes));
	snap->dropped = ld64(buf, HOFF(dropped));
	read_region_block(buf, out);
	read_table(buf, ld32(buf, HOFF(frame_offset)), ld32(buf, HOFF(frame_slots)), &snap->by_frame);
	read_table(buf, ld32(buf, HOFF(type_offset)), ld32(buf, HOFF(type_slots)), &snap->by_type);
	if (opcount > 0)
		read_opcount_block(buf, (uint64_t)opcount, &out->opcount);
	return 0;
}

int gt_segment_stacks(const struct gt_segment *s, const struct gt_alloc_snapshot *snap, struct gt_alloc_stacks *out)
{
	return gt_segment_parse_stacks(s->buf, s->size, snap, out);
}

int gt_segment_path_for(pid_t pid, pid_t nspid, char *buf, size_t len)
{
	int n = snprintf(buf, len, "/proc/%d/root/tmp/" GCTOP_SEG_FILE_PREFIX "%d", (int)pid, (int)nspid);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Closes fd (when open) and returns -1 with errno e, after err was set. */
static int seg_open_fail(int fd, int e)
{
	if (fd >= 0)
		close(fd);
	errno = e;
	return -1;
}

/* Checks the open file: a plain file with one link, owned by owner_uid (and
 * by us unless we are root), mode without group or other bits, sane size.
 * Closes fd on failure. */
static int seg_check(int fd, const char *path, uid_t owner_uid, struct stat *st, struct gt_error *err)
{
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_nlink != 1) {
		gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment %s is not a plain file", path);
		return seg_open_fail(fd, EINVAL);
	}
	if (st->st_uid != owner_uid || (geteuid() != 0 && st->st_uid != geteuid()) || (st->st_mode & 077)) {
		gt_fail(err, GT_EXIT_BAD_DATA,
			"allocation segment %s is not owned by the target's user with mode 0600; not trusting it", path);
		return seg_open_fail(fd, EPERM);
	}
	if (st->st_size < (off_t)sizeof(struct gctop_seg_header) || st->st_size > (off_t)GCTOP_SEG_MAX_FILE_SIZE) {
		gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment %s has an impossible size", path);
		return seg_open_fail(fd, EINVAL);
	}
	return 0;
}

int gt_segment_openat(int dir, const char *name, const char *path, uid_t owner_uid, struct gt_segment **out,
		      struct gt_error *err)
{
	*out = NULL;
	/* Read-write only for the heartbeat's pwrite; data is read with pread. */
	int fd = openat(dir, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP)
			gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment %s is a symbolic link; not reading it", path);
		else
			gt_fail(err, e == EACCES ? GT_EXIT_PERMISSION : GT_EXIT_NO_DATA,
				"cannot open the allocation segment %s: %s", path, strerror(e));
		return seg_open_fail(-1, e);
	}
	struct stat st;
	if (seg_check(fd, path, owner_uid, &st, err) != 0)
		return -1;
	struct gt_segment *s = calloc(1, sizeof(*s));
	uint8_t *buf = malloc((size_t)st.st_size);
	int d = dup(dir);
	if (!s || !buf || d < 0) {
		free(s);
		free(buf);
		if (d >= 0)
			close(d);
		gt_fail(err, GT_EXIT_FAILURE, "out of memory opening %s", path);
		return seg_open_fail(fd, ENOMEM);
	}
	s->fd = fd;
	s->dir = d;
	s->buf = buf;
	s->size = (size_t)st.st_size;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->path, sizeof(s->path), "%s", path);
	*out = s;
	return 0;
}

int gt_segment_open(const char *path, uid_t owner_uid, struct gt_segment **out, struct gt_error *err)
{
	*out = NULL;
	char dir[512];
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		gt_fail(err, GT_EXIT_NO_DATA, "the allocation segment path %.64s... is too long", path);
		errno = ENAMETOOLONG;
		return -1;
	}
	char *slash = strrchr(dir, '/');
	const char *name = slash ? path + (slash - dir) + 1 : path;
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	int d = open(slash ? dir : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		int e = errno;
		gt_fail(err, GT_EXIT_NO_DATA, "cannot open the allocation segment %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	int rc = gt_segment_openat(d, name, path, owner_uid, out, err);
	int e = errno;
	close(d);
	errno = e;
	return rc;
}

static int seg_pread(int fd, void *buf, size_t len, size_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);
	return n == (ssize_t)len ? 0 : -1;
}

/* Copies the header while neither seqlock moves: pread each sequence
 * before and after the copy (each pread is a full barrier), as a reader of
 * the mapping would read them around the fields. */
static int seg_copy_header(struct gt_segment *s)
{
	for (int i = 0; i < SEG_SEQ_TRIES; i++) {
		uint64_t a1, b1, a2, b2;
		if (seg_pread(s->fd, &a1, 8, HOFF(seq)) || seg_pread(s->fd, &b1, 8, HOFF(pause_seq)) ||
		    seg_pread(s->fd, s->buf, sizeof(struct gctop_seg_header), 0) ||
		    seg_pread(s->fd, &a2, 8, HOFF(seq)) || seg_pread(s->fd, &b2, 8, HOFF(pause_seq)))
			return -1;
		if (a1 == a2 && b1 == b2 && !(a1 & 1) && !(b1 & 1))
			return 0;
	}
	return GT_SEGMENT_TORN;
}

/* Copies the ops block's answer again while its seqlock stands still (the
 * copy of the rest was one pread, which may cut through a write); when it
 * never does, the copy keeps an odd seq and reads as not answered. */
static int seg_copy_opcount(struct gt_segment *s)
{
	uint64_t off = ld32(s->buf, HOFF(ops_offset));
	if (ld32(s->buf, HOFF(layout_minor)) < 2 || off == 0 || off % 8 || off + sizeof(struct gctop_seg_ops) > s->size)
		return 0;
	size_t from = off + OOFF(seq), n = OOFF(reserved) - OOFF(seq);
	for (int i = 0; i < SEG_SEQ_TRIES; i++) {
		uint64_t a1, a2;
		if (seg_pread(s->fd, &a1, 8, from) || seg_pread(s->fd, s->buf + from, n, from) ||
		    seg_pread(s->fd, &a2, 8, from))
			return -1;
		if (a1 == a2 && !(a1 & 1))
			return 0;
	}
	return 0;
}

int gt_segment_read(struct gt_segment *s, struct gt_segment_reading *out, struct gt_error *err)
{
	/* The owner may truncate the file at any moment: it is copied with
	 * pread, which comes back short instead of faulting as a mapping would,
	 * and the copy is parsed. Counters (in the header) come before the
	 * tables, as gt_segment_parse expects. */
	int rc = seg_copy_header(s);
	if (rc == GT_SEGMENT_TORN) {
		gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment is being rewritten; read it again");
		return rc;
	}
	size_t hs = sizeof(struct gctop_seg_header);
	if (rc != 0 || seg_pread(s->fd, s->buf + hs, s->size - hs, hs) != 0 || seg_copy_opcount(s) != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "allocation segment %s changed size; not reading it", s->path);
	rc = gt_segment_parse(s->buf, s->size, out, err);
	if (rc == 0)
		s->opcount_offset = out->opcount.present ? ld32(s->buf, HOFF(ops_offset)) : 0;
	return rc;
}

void gt_segment_beat(struct gt_segment *s, uint64_t now_ns)
{
	if (pwrite(s->fd, &now_ns, sizeof(now_ns), HOFF(reader_heartbeat)) != (ssize_t)sizeof(now_ns))
		return; /* the publisher then stops on its own, which is the safe side */
}

void gt_segment_request_interval(struct gt_segment *s, uint64_t bytes)
{
	if (pwrite(s->fd, &bytes, sizeof(bytes), HOFF(requested_interval)) != (ssize_t)sizeof(bytes))
		return;
}

static int seg_pwrite(int fd, const void *buf, size_t len, size_t off)
{
	return pwrite(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

int gt_segment_request_opcount(struct gt_segment *s, uint64_t id, const char *name, const char *attr)
{
	if (!s->opcount_offset)
		return -1;
	size_t off = s->opcount_offset;
	char n[GCTOP_SEG_OPS_NAME_LEN] = { 0 }, a[GCTOP_SEG_OPS_ATTR_LEN] = { 0 };
	snprintf(n, sizeof(n), "%s", name);
	snprintf(a, sizeof(a), "%s", attr);
	/* Each pwrite is one system call, done in order: the publisher sees
	 * req_seq odd before any field changes, even only after all did. */
	uint64_t seq;
	if (seg_pread(s->fd, &seq, 8, off + OOFF(req_seq)) != 0)
		return -1;
	seq |= 1; /* odd (already odd when a reader died mid-write) */
	uint64_t done = seq + 1;
	if (seg_pwrite(s->fd, &seq, 8, off + OOFF(req_seq)) || seg_pwrite(s->fd, &id, 8, off + OOFF(req_id)) ||
	    seg_pwrite(s->fd, n, sizeof(n), off + OOFF(req_name)) || seg_pwrite(s->fd, a, sizeof(a), off + OOFF(req_attr)) ||
	    seg_pwrite(s->fd, &done, 8, off + OOFF(req_seq)))
		return -1;
	return 0;
}

void gt_segment_opcount_beat(struct gt_segment *s, uint64_t now_ns)
{
	if (s->opcount_offset && seg_pwrite(s->fd, &now_ns, 8, (size_t)s->opcount_offset + OOFF(req_beat)) != 0)
		return; /* the publisher then stops answering, which is the safe side */
}

bool gt_segment_replaced(const struct gt_segment *s)
{
	struct stat st;
	return fstatat(s->dir, s->name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != s->dev || st.st_ino != s->ino;
}

void gt_segment_close(struct gt_segment *s)
{
	if (!s)
		return;
	free(s->buf);
	close(s->fd);
	close(s->dir);
	free(s);
}
