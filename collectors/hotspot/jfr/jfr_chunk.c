/* The JFR chunk's header and the reader's life: the limits and what they
 * cost, the header and its generation protocol (ChunkHeader.refresh), the
 * chunk opened from memory or an fd, its metadata and pools read, and the
 * ticks converted to ns as the JDK's TimeConverter does. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

/* ChunkHeader's positions and masks. */
enum {
	JFR_POS_CHUNK_SIZE = 8, JFR_POS_GENERATION = 64, JFR_POS_FLAGS = 67,
	JFR_GEN_FINISHED = 0, JFR_GEN_UPDATING = 255,
	JFR_FLAG_COMPRESSED_INTS = 1, JFR_FLAG_FINAL = 2, JFR_FLAG_COMPRESSED_TICKS = 4,
	JFR_MAJOR = 2,
};
static const uint8_t jfr_magic[4] = { 'F', 'L', 'R', '\0' };
#define JFR_NS_PER_S 1e9
enum { JFR_MAX_DEPTH = 200 };

const struct gt_jfr_limits gt_jfr_default_limits = {
	.max_chunk_bytes = 64u << 20,
	.max_strings = 64u << 10,
	.max_elements = 256u << 10,
	.max_classes = 8u << 10,
	.max_fields = 64u << 10,
	.max_pool_entries = 1u << 20,
	.max_checkpoints = 64u << 10,
	.max_string_bytes = 64u << 10,
	.max_depth = 32,
	.max_metadata_bytes = 4u << 20,
};

size_t gt_jfr_memory_bound(const struct gt_jfr_limits *lim)
{
	if (!lim)
		lim = &gt_jfr_default_limits;
	/* Every growable table at most twice what it holds (doubling) plus
	 * its first 64 slots; the hashes under four slots an entry; the
	 * metadata's strings at most three bytes of UTF-8 a byte read, plus
	 * their NULs; what the metadata's reading holds for a while (one
	 * string, the table's offsets, a byte pair a class). */
	size_t slack = 64 * (sizeof(struct jfr_class) + sizeof(struct jfr_field) + sizeof(struct jfr_const) + 1);
	size_t b = sizeof(struct gt_jfr_reader) + lim->max_chunk_bytes + slack;
	b += 2 * (3 * (size_t)lim->max_metadata_bytes + lim->max_strings);
	b += (size_t)lim->max_strings * (sizeof(char *) + sizeof(uint32_t)) + lim->max_string_bytes + 1;
	b += (size_t)lim->max_classes * (2 * sizeof(struct jfr_class) + 4 * sizeof(uint32_t) + 2);
	b += 2 * (size_t)lim->max_fields * sizeof(struct jfr_field);
	b += (size_t)lim->max_pool_entries * (2 * sizeof(struct jfr_const) + 4 * sizeof(uint32_t));
	return b;
}

static int64_t jfr_be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return (int64_t)v;
}

int gt_jfr_header_read(const uint8_t *p, size_t len, struct gt_jfr_header *h, struct gt_error *err)
{
	memset(h, 0, sizeof(*h));
	if (len < GT_JFR_HEADER_SIZE)
		return jfr_bad(err, "the flight recording's chunk is %zu bytes, shorter than its %d-byte header", len,
			       GT_JFR_HEADER_SIZE);
	if (memcmp(p, jfr_magic, sizeof(jfr_magic)) != 0)
		return jfr_bad(err, "the file is not a flight recording (no FLR magic)");
	h->major = (uint16_t)(p[4] << 8 | p[5]);
	h->minor = (uint16_t)(p[6] << 8 | p[7]);
	if (h->major != JFR_MAJOR)
		return jfr_bad(err, "the flight recording is of version %u.%u; gctop reads 2.x (JDK 11 and later)",
			       h->major, h->minor);
	h->generation = p[JFR_POS_GENERATION];
	if (h->generation == JFR_GEN_UPDATING)
		return GT_JFR_AGAIN;
	h->chunk_size = (uint64_t)jfr_be64(p + JFR_POS_CHUNK_SIZE);
	h->cp_offset = (uint64_t)jfr_be64(p + 16);
	h->meta_offset = (uint64_t)jfr_be64(p + 24);
	h->start_ns = jfr_be64(p + 32);
	h->duration_ns = jfr_be64(p + 40);
	h->start_ticks = jfr_be64(p + 48);
	h->ticks_per_second = jfr_be64(p + 56);
	h->flags = p[JFR_POS_FLAGS];
	h->finished = h->generation == JFR_GEN_FINISHED;
	h->final_chunk = h->flags & JFR_FLAG_FINAL;
	h->compressed_ints = h->flags & JFR_FLAG_COMPRESSED_INTS;
	h->compressed_ticks = h->flags & JFR_FLAG_COMPRESSED_TICKS;
	if (h->chunk_size < GT_JFR_HEADER_SIZE || (int64_t)h->chunk_size < 0)
		return jfr_bad(err, "the flight recording's chunk states a size of %lld bytes",
			       (long long)h->chunk_size);
	/* a chunk just begun has no metadata yet (ChunkHeader.refresh waits) */
	if (h->meta_offset == 0 && !h->finished)
		return GT_JFR_AGAIN;
	if (h->meta_offset < GT_JFR_HEADER_SIZE || h->meta_offset >= h->chunk_size)
		return jfr_bad(err, "the flight recording's metadata offset %llu is outside its %llu-byte chunk",
			       (unsigned long long)h->meta_offset, (unsigned long long)h->chunk_size);
	if (h->cp_offset != 0 && (h->cp_offset < GT_JFR_HEADER_SIZE || h->cp_offset >= h->chunk_size))
		return jfr_bad(err, "the flight recording's constant-pool offset %llu is outside its %llu-byte chunk",
			       (unsigned long long)h->cp_offset, (unsigned long long)h->chunk_size);
	if (h->ticks_per_second <= 0)
		return jfr_bad(err, "the flight recording states %lld ticks per second", (long long)h->ticks_per_second);
	return GT_JFR_OK;
}

/* The metadata and the pools of a reader whose header and bytes are set. */
static int jfr_load(struct gt_jfr_reader *r, struct gt_error *err)
{
	int rc = jfr_metadata_read(r, err);
	if (rc == GT_JFR_OK)
		rc = jfr_pools_read(r, err);
	r->pos = GT_JFR_HEADER_SIZE;
	return rc;
}

static struct gt_jfr_reader *jfr_new(const struct gt_jfr_limits *lim, struct gt_error *err)
{
	struct gt_jfr_reader *r = gt_calloc(sizeof(*r), err);
	if (!r)
		return NULL;
	r->lim = lim ? *lim : gt_jfr_default_limits;
	/* offsets are kept in 32 bits, depths in 8 */
	if (r->lim.max_chunk_bytes > UINT32_MAX)
		r->lim.max_chunk_bytes = UINT32_MAX;
	if (r->lim.max_depth > JFR_MAX_DEPTH)
		r->lim.max_depth = JFR_MAX_DEPTH;
	r->held = sizeof(*r);
	r->string_cls = JFR_NO_INDEX;
	return r;
}

int gt_jfr_open(const uint8_t *bytes, size_t len, const struct gt_jfr_limits *lim, struct gt_jfr_reader **out,
		struct gt_error *err)
{
	*out = NULL;
	struct gt_jfr_reader *r = jfr_new(lim, err);
	if (!r)
		return GT_JFR_ERROR;
	int rc = gt_jfr_header_read(bytes, len, &r->hdr, err);
	if (rc == GT_JFR_OK && r->hdr.chunk_size > len)
		rc = jfr_bad(err, "the flight recording's header states %llu bytes, past the %zu that were read",
			     (unsigned long long)r->hdr.chunk_size, len);
	if (rc == GT_JFR_OK && r->hdr.chunk_size > r->lim.max_chunk_bytes)
		rc = jfr_bad(err, "the flight recording's chunk of %llu bytes is over gctop's limit of %zu",
			     (unsigned long long)r->hdr.chunk_size, r->lim.max_chunk_bytes);
	if (rc == GT_JFR_OK) {
		r->p = bytes;
		r->len = (size_t)r->hdr.chunk_size;
		rc = jfr_load(r, err);
	}
	if (rc != GT_JFR_OK) {
		gt_jfr_close(r);
		return rc;
	}
	*out = r;
	return GT_JFR_OK;
}

/* Reads n bytes at off from fd into buf: 0, or -1 when the file ends
 * first or cannot be read (err says which). */
static int jfr_pread_all(int fd, uint8_t *buf, size_t n, uint64_t off, struct gt_error *err)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return gt_fail(err, GT_EXIT_FAILURE, "cannot read the flight recording: %s", strerror(errno));
		if (k == 0)
			return jfr_bad(err, "the flight recording's header states %zu bytes, past the file's end at %zu",
				       n, got);
		got += (size_t)k;
	}
	return 0;
}

int gt_jfr_open_fd(int fd, uint64_t offset, const struct gt_jfr_limits *lim, struct gt_jfr_reader **out,
		   struct gt_error *err)
{
	*out = NULL;
	uint8_t head[GT_JFR_HEADER_SIZE];
	struct gt_jfr_header h;
	if (jfr_pread_all(fd, head, sizeof(head), offset, err) < 0)
		return GT_JFR_ERROR;
	int rc = gt_jfr_header_read(head, sizeof(head), &h, err);
	if (rc != GT_JFR_OK)
		return rc;
	size_t max = lim ? lim->max_chunk_bytes : gt_jfr_default_limits.max_chunk_bytes;
	if (h.chunk_size > max)
		return jfr_bad(err, "the flight recording's chunk of %llu bytes is over gctop's limit of %zu",
			       (unsigned long long)h.chunk_size, max);
	/* a size past the file's end is refused before the bytes are allocated */
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (offset > (uint64_t)st.st_size || h.chunk_size > (uint64_t)st.st_size - offset))
		return jfr_bad(err, "the flight recording's header states %llu bytes, past the file's end at %llu",
			       (unsigned long long)h.chunk_size, (unsigned long long)((uint64_t)st.st_size - offset));
	uint8_t *buf = malloc((size_t)h.chunk_size);
	if (!buf)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
	if (jfr_pread_all(fd, buf, (size_t)h.chunk_size, offset, err) < 0) {
		free(buf);
		return GT_JFR_ERROR;
	}
	/* The JVM publishes a size after writing its bytes and moves the
	 * generation on each flush: a header that changed while the chunk
	 * was read describes other bytes, so read again. */
	if (memcmp(buf, head, sizeof(head)) != 0) {
		free(buf);
		return GT_JFR_AGAIN;
	}
	rc = gt_jfr_open(buf, (size_t)h.chunk_size, lim, out, err);
	if (rc != GT_JFR_OK) {
		free(buf);
		return rc;
	}
	(*out)->owned = buf;
	(*out)->held += (size_t)h.chunk_size;
	return GT_JFR_OK;
}

void gt_jfr_close(struct gt_jfr_reader *r)
{
	if (!r)
		return;
	free(r->owned);
	free(r->names);
	free(r->strings);
	free(r->classes);
	free(r->fields);
	free(r->class_hash);
	free(r->consts);
	free(r->const_hash);
	free(r);
}

const struct gt_jfr_header *gt_jfr_header_of(const struct gt_jfr_reader *r)
{
	return &r->hdr;
}

void gt_jfr_stats(const struct gt_jfr_reader *r, struct gt_jfr_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->classes = (uint32_t)r->n_classes;
	out->pool_entries = (uint32_t)r->n_consts;
	out->checkpoints = r->checkpoints;
	out->events = r->events;
	out->unknown_events = r->unknown_events;
	out->bytes_held = r->held;
}

/* A double as int64, saturated (a hostile tick count cannot overflow). */
static int64_t jfr_saturate(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN;
	return (int64_t)v;
}

/* TimeConverter: the divisor in ticks per ns as a double, the tick
 * difference in 64-bit arithmetic as Java's long (wrapping), the quotient
 * truncated toward zero. */
static double jfr_divisor(const struct gt_jfr_reader *r)
{
	return (double)r->hdr.ticks_per_second / JFR_NS_PER_S;
}

int64_t gt_jfr_span_to_ns(const struct gt_jfr_reader *r, int64_t ticks)
{
	return jfr_saturate((double)ticks / jfr_divisor(r));
}

int64_t gt_jfr_ticks_to_ns(const struct gt_jfr_reader *r, int64_t ticks)
{
	int64_t diff = (int64_t)((uint64_t)ticks - (uint64_t)r->hdr.start_ticks);
	int64_t since = jfr_saturate((double)diff / jfr_divisor(r));
	if ((since > 0 && r->hdr.start_ns > INT64_MAX - since) || (since < 0 && r->hdr.start_ns < INT64_MIN - since))
		return since > 0 ? INT64_MAX : INT64_MIN;
	return r->hdr.start_ns + since;
}
