/* Opening a live perf-data file safely. The file sits in a directory other
 * users may be able to write into, so nothing about it is trusted: no link is
 * followed, no FIFO can block us, and the owner, mode and size are checked on
 * the open descriptor. The file is never locked: the JVM takes an flock on it
 * at start-up and gives up sharing its counters if someone else holds it. */
#include "collectors/hotspot/perfdata/hsperf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fault.h"

/* How often the file's size is looked at: every sample at most, not at
 * each tick of a fast poll (1 ms while collections come every few ms). */
#define HSPERF_STAT_EVERY_NS 100000000ull

/* Word by word with relaxed loads, as the parser used to read the mapping:
 * the JVM stores its counters as whole aligned words, so none is torn. */
static void copy_words(uint8_t *dst, const uint8_t *src, size_t n)
{
	const uint64_t *s = (const uint64_t *)(const void *)src;
	uint64_t *d = (uint64_t *)(void *)dst;
	for (size_t i = 0; i < n / sizeof(uint64_t); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

/* PerfDataPrologue: the byte order at 4 (0 big-endian), the bytes in use at 8. */
#define PROLOGUE_BYTE_ORDER 4
#define PROLOGUE_USED 8
#define PROLOGUE_SIZE 32

/* The bytes of the file in use, from the copied prologue, rounded up to
 * whole words and clamped to the file: the JVM never reads or writes past
 * them, so neither need the copy. The whole file when the prologue makes
 * no sense. */
static size_t used_bytes(const uint8_t *p, size_t size)
{
	if (size < PROLOGUE_SIZE)
		return size;
	const uint8_t *u = p + PROLOGUE_USED;
	uint32_t used = p[PROLOGUE_BYTE_ORDER] == 0
		? (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3]
		: (uint32_t)u[3] << 24 | (uint32_t)u[2] << 16 | (uint32_t)u[1] << 8 | u[0];
	size_t n = ((size_t)used + 7) & ~(size_t)7;
	return n >= PROLOGUE_SIZE && n <= size ? n : size;
}

/* Where the prologue's key (HSPERF_PROLOGUE_KEY_LEN bytes from 8) starts. */
#define PROLOGUE_KEY 8

struct hsperf_copy {
	struct hsperf_map *m;
	uint8_t *dst;
	bool watched;   /* out: only the watched ranges were copied */
	size_t want;    /* out: the bytes in use, mapped or not */
};

/* The watched ranges, each rounded out to whole words (a string's bytes
 * need not be aligned) and skipped unless inside the file. */
static void copy_watched(uint8_t *dst, const struct hsperf_map *m)
{
	for (size_t i = 0; i < m->n_watch; i++) {
		uint64_t from = m->watch[i].off & ~(uint64_t)7;
		uint64_t to = ((uint64_t)m->watch[i].off + m->watch[i].len + 7) & ~(uint64_t)7;
		if (to <= m->mapped && from < to)
			copy_words(dst + from, m->shared + from, (size_t)(to - from));
	}
}

/* The prologue, then the watched ranges while its key is as when they were
 * set (hsperf_map_watch), else the bytes in use, under the SIGBUS guard
 * (base/fault.h). */
static void copy_in_use(void *arg)
{
	struct hsperf_copy *c = arg;
	const struct hsperf_map *m = c->m;
	size_t head = m->mapped < PROLOGUE_SIZE ? m->mapped : PROLOGUE_SIZE;
	copy_words(c->dst, m->shared, head);
	c->want = head;
	if (m->n_watch && head == PROLOGUE_SIZE &&
	    memcmp(c->dst + PROLOGUE_KEY, m->watch_key, HSPERF_PROLOGUE_KEY_LEN) == 0) {
		copy_watched(c->dst, m);
		c->watched = true;
		return;
	}
	c->want = used_bytes(c->dst, m->size);
	size_t n = c->want < m->mapped ? c->want : m->mapped;
	copy_words(c->dst + head, m->shared + head, n > head ? n - head : 0);
}

/* Maps the first len bytes of the file instead (whole pages, at most the
 * file); the old mapping stays when that fails. */
static void remap(struct hsperf_map *m, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t p = page > 0 ? (size_t)page : 4096;
	len = (len + p - 1) / p * p;
	if (len > m->size)
		len = m->size;
	void *n = mmap(NULL, len, PROT_READ, MAP_SHARED, m->fd, 0);
	if (n == MAP_FAILED)
		return;
	if (m->shared)
		munmap((void *)m->shared, m->mapped);
	m->shared = n;
	m->mapped = len;
}

/* 0, or -1 when the copy hit SIGBUS (the owner truncated the file). */
static int guarded_copy(struct hsperf_map *m)
{
	struct hsperf_copy c = { m, (uint8_t *)m->base, false, 0 };
	int rc = gt_fault_guarded(copy_in_use, &c);
	/* the JVM uses more than is mapped: map it and copy again */
	if (rc == 0 && c.want > m->mapped && m->mapped < m->size) {
		remap(m, c.want);
		rc = gt_fault_guarded(copy_in_use, &c);
	}
	m->watched = rc == 0 && c.watched;
	return rc;
}

void hsperf_map_watch(struct hsperf_map *m, const struct hsperf_range *ranges, size_t n)
{
	m->watch = ranges;
	m->n_watch = m->size >= PROLOGUE_SIZE ? n : 0;
	if (m->n_watch)
		memcpy(m->watch_key, m->base + PROLOGUE_KEY, HSPERF_PROLOGUE_KEY_LEN);
}

static int shrank(const struct hsperf_map *m, long long now, struct gt_error *err)
{
	if (now < 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s was truncated while gctop read it; its owner cut it short",
			       m->path);
	return gt_fail(err, GT_EXIT_BAD_DATA, "%s shrank from %zu to %lld bytes while gctop read it; its owner cut it short",
		       m->path, m->size, now);
}

int hsperf_map_update(struct hsperf_map *m, struct gt_error *err)
{
	/* The size is looked at every HSPERF_STAT_EVERY_NS (a truncation in
	 * between still ends in the guarded copy's SIGBUS, or in zeros that
	 * the parser takes for no counters). */
	uint64_t now = gt_mono_ns();
	if (!m->stat_ns || now - m->stat_ns >= HSPERF_STAT_EVERY_NS) {
		struct stat st;
		if (fstat(m->fd, &st) != 0)
			return gt_fail(err, GT_EXIT_FAILURE, "cannot examine %s: %s", m->path, strerror(errno));
		if (st.st_size < 0 || (unsigned long long)st.st_size < m->size)
			return shrank(m, (long long)st.st_size, err);
		m->stat_ns = now;
	}
	/* The prologue first (its used size grows as the JVM adds counters),
	 * then what is in use. The owner may truncate at any time. */
	if (guarded_copy(m) != 0)
		return shrank(m, -1, err);
	return 0;
}

static int hsperf_map_check(const char *path, const struct stat *st, uid_t owner_uid, struct gt_error *err)
{
	if (!S_ISREG(st->st_mode))
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is not a regular file; refusing to read it", path);
	uid_t me = geteuid();
	if (st->st_uid != owner_uid)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s is owned by uid %u, not by the JVM's user (uid %u); refusing to read it",
			       path, (unsigned)st->st_uid, (unsigned)owner_uid);
	if (me != 0 && st->st_uid != me)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "%s belongs to uid %u; run gctop as that user (or as root) to watch this JVM",
			       path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is writable by other users; refusing to read it", path);
	if (st->st_nlink != 1)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s has %lu hard links (a JVM creates it with one); refusing to read it",
			       path, (unsigned long)st->st_nlink);
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	if (st->st_size <= 0 || st->st_size % page != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s is truncated or damaged (%lld bytes, not a whole number of %ld-byte pages)",
			       path, (long long)st->st_size, page);
	if ((unsigned long long)st->st_size > HSPERF_MAX_FILE_SIZE)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is %lld bytes, far larger than any perf-data file; refusing to read it",
			       path, (long long)st->st_size);
	return 0;
}

int hsperf_map_open(const char *path, uid_t owner_uid, struct hsperf_map *out, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP)
			return gt_fail(err, GT_EXIT_BAD_DATA, "%s is a symbolic link; refusing to follow it", path);
		if (e == EACCES || e == EPERM)
			return gt_fail(err, GT_EXIT_PERMISSION,
				       "%s belongs to another user; run gctop as that user (or as root) to watch this JVM", path);
		if (e == ENOENT)
			return gt_fail(err, GT_EXIT_NO_DATA, "%s no longer exists", path);
		return gt_fail(err, GT_EXIT_FAILURE, "cannot open %s: %s", path, strerror(e));
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return gt_fail(err, GT_EXIT_FAILURE, "cannot examine %s: %s", path, strerror(e));
	}
	if (hsperf_map_check(path, &st, owner_uid, err) != 0) {
		close(fd);
		return -1;
	}
	/* the prologue's page first: the first update maps what is in use */
	long page = sysconf(_SC_PAGESIZE);
	size_t first = page > 0 && (size_t)page < (size_t)st.st_size ? (size_t)page : (size_t)st.st_size;
	void *m = mmap(NULL, first, PROT_READ, MAP_SHARED, fd, 0);
	int e = errno;
	/* The copy is a mapping of its own, not the heap's: only the pages in
	 * use are ever touched (12 of a small JVM's 32 KiB), and the rest stay
	 * out of gctop's memory; in the heap they would sit among pages that
	 * other allocations touch. */
	void *copy = m == MAP_FAILED ? MAP_FAILED
				     : mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED) {
		if (m != MAP_FAILED)
			munmap(m, first);
		close(fd);
		return m == MAP_FAILED ? gt_fail(err, GT_EXIT_FAILURE, "cannot map %s: %s", path, strerror(e))
				       : gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	out->shared = m;
	out->mapped = first;
	out->base = copy;
	out->fd = fd;
	out->size = (size_t)st.st_size;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	snprintf(out->path, sizeof(out->path), "%s", path);
	if (hsperf_map_update(out, err) != 0) {
		hsperf_map_close(out);
		return -1;
	}
	return 0;
}

void hsperf_map_close(struct hsperf_map *m)
{
	if (m->shared)
		munmap((void *)m->shared, m->mapped);
	if (m->base)
		munmap((void *)m->base, m->size);
	if (m->shared)
		close(m->fd);
	memset(m, 0, sizeof(*m));
}
