/* Reading a perf-data file its owner truncates: the size check before each
 * copy, and the SIGBUS guard for a truncation racing that check. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collectors/hotspot/perfdata/hsperf.h"
#include "tests/unit/check.h"

#define FILE_SIZE 32768

static char path[64];

static int make_file(size_t size)
{
	snprintf(path, sizeof(path), "/tmp/gctop-test-hsperf.XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, (off_t)size) == 0);
	CHECK(pwrite(fd, "\xca\xfe\xc0\xc0", 4, 0) == 4);
	return fd;
}

static void test_copy_follows_the_file(void)
{
	int fd = make_file(FILE_SIZE);
	struct hsperf_map m;
	struct gt_error err = { 0 };
	CHECK(hsperf_map_open(path, geteuid(), &m, &err) == 0);
	CHECK(m.size == FILE_SIZE && memcmp(m.base, "\xca\xfe\xc0\xc0", 4) == 0);
	CHECK(pwrite(fd, "\x11\x22", 2, 100) == 2);
	CHECK(m.base[100] == 0);  /* the copy changes only at an update */
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(m.base[100] == 0x11 && m.base[101] == 0x22);
	hsperf_map_close(&m);
	close(fd);
	unlink(path);
}

static void test_truncation_is_one_sentence(void)
{
	int fd = make_file(FILE_SIZE);
	struct hsperf_map m;
	struct gt_error err = { 0 };
	CHECK(hsperf_map_open(path, geteuid(), &m, &err) == 0);
	CHECK(ftruncate(fd, 4096) == 0);
	CHECK(hsperf_map_update(&m, &err) == -1);
	CHECK(err.code == GT_EXIT_BAD_DATA);
	/* seen by the size check, or (within HSPERF_STAT_EVERY_NS of the last
	 * one) by the guarded copy: one sentence either way */
	CHECK(strstr(err.msg, "its owner cut it short") != NULL);
	CHECK(memcmp(m.base, "\xca\xfe\xc0\xc0", 4) == 0);  /* the last copy stays */
	hsperf_map_close(&m);
	close(fd);
	unlink(path);
}

/* The race: the size check passes (fd is a whole file) but the mapping
 * reaches past the end of the file it maps, as after a truncation between
 * the check and the copy. The copy hits SIGBUS and reports it. */
static void test_sigbus_during_copy(void)
{
	int whole = make_file(FILE_SIZE);
	char whole_path[64];
	memcpy(whole_path, path, sizeof(path));
	int shortf = make_file(4096);
	void *shared = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, shortf, 0);
	CHECK(shared != MAP_FAILED);
	struct hsperf_map m;
	memset(&m, 0, sizeof(m));
	m.base = aligned_alloc(8, FILE_SIZE);
	m.shared = shared;
	m.size = FILE_SIZE;
	m.mapped = FILE_SIZE;
	m.fd = whole;
	snprintf(m.path, sizeof(m.path), "crafted");
	struct gt_error err = { 0 };
	CHECK(hsperf_map_update(&m, &err) == -1);
	CHECK(err.code == GT_EXIT_BAD_DATA && strstr(err.msg, "truncated while gctop read it") != NULL);
	/* The guard is gone afterwards and a later copy works. */
	m.shared = m.base;
	CHECK(hsperf_map_update(&m, &err) == 0);
	munmap(shared, FILE_SIZE);
	free((void *)m.base);
	close(whole);
	close(shortf);
	unlink(whole_path);
	unlink(path);
}

/* A prologue whose used size is `used` (little-endian, as this machine). */
static void write_used(int fd, uint32_t used)
{
	uint8_t pro[8] = { 1, 2, 0, 1 };   /* byte order, major, minor, accessible */
	memcpy(pro + 4, &used, sizeof(used));
	CHECK(pwrite(fd, pro, sizeof(pro), 4) == (ssize_t)sizeof(pro));
}

/* Watching: an update copies the prologue and the watched ranges only
 * while the prologue's key stays; when the JVM adds entries (used grows)
 * every byte in use comes again, and stops being watched. */
static void test_watch_copies_only_the_ranges(void)
{
	int fd = make_file(FILE_SIZE);
	write_used(fd, 4096);
	struct hsperf_map m;
	struct gt_error err = { 0 };
	CHECK(hsperf_map_open(path, geteuid(), &m, &err) == 0);
	CHECK(m.mapped == 4096);   /* the pages in use only, not the file's 32 KiB */
	/* a counter at 1000, a 5-byte string at 2003 (not word-aligned),
	 * and ranges outside the file: skipped, never read */
	const struct hsperf_range r[] = { { 1000, 8 }, { 2003, 5 }, { FILE_SIZE - 4, 8 }, { UINT32_MAX - 3, 8 },
					  { FILE_SIZE, 8 } };
	hsperf_map_watch(&m, r, sizeof(r) / sizeof(r[0]));
	CHECK(pwrite(fd, "\x11\x22\x33\x44\x55\x66\x77\x88", 8, 1000) == 8);
	CHECK(pwrite(fd, "abcde", 5, 2003) == 5);
	CHECK(pwrite(fd, "\x99", 1, 3000) == 1);   /* in use, not watched */
	CHECK(pwrite(fd, "\x01", 1, 7) == 1);      /* the accessible flag: the prologue */
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(m.watched);
	CHECK(memcmp(m.base + 1000, "\x11\x22\x33\x44\x55\x66\x77\x88", 8) == 0);
	CHECK(memcmp(m.base + 2003, "abcde", 5) == 0);
	CHECK(m.base[7] == 1);
	CHECK(m.base[3000] == 0);   /* left as at the last full copy */

	/* the JVM adds an entry: everything in use again, until watched anew */
	write_used(fd, 8192);
	CHECK(pwrite(fd, "\x42", 1, 6000) == 1);
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(!m.watched);
	CHECK(m.mapped == 8192);   /* mapped as far as the JVM now uses */
	CHECK(m.base[3000] == 0x99 && m.base[6000] == 0x42);
	CHECK(pwrite(fd, "\x43", 1, 6000) == 1);
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(!m.watched && m.base[6000] == 0x43);
	hsperf_map_watch(&m, r, 1);
	CHECK(pwrite(fd, "\x44", 1, 6000) == 1);
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(m.watched && m.base[6000] == 0x43);

	/* a prologue rewritten to something else entirely: every byte again */
	CHECK(pwrite(fd, "\xff\xff\xff\xff", 4, 28) == 4);
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(!m.watched && m.base[6000] == 0x44);

	/* no ranges: every byte at every update, as without watching */
	hsperf_map_watch(&m, NULL, 0);
	CHECK(pwrite(fd, "\x45", 1, 6000) == 1);
	CHECK(hsperf_map_update(&m, &err) == 0);
	CHECK(!m.watched && m.base[6000] == 0x45);

	/* the owner truncates the file under a watched range: one sentence
	 * (the guarded copy's SIGBUS, or the size check) */
	const struct hsperf_range past[] = { { 1000, 8 }, { 6000, 8 } };
	hsperf_map_watch(&m, past, 2);
	CHECK(ftruncate(fd, 4096) == 0);
	CHECK(hsperf_map_update(&m, &err) == -1);
	CHECK(err.code == GT_EXIT_BAD_DATA && strstr(err.msg, "its owner cut it short") != NULL);
	hsperf_map_close(&m);
	close(fd);
	unlink(path);
}

int main(void)
{
	RUN_TEST(test_copy_follows_the_file);
	RUN_TEST(test_truncation_is_one_sentence);
	RUN_TEST(test_sigbus_during_copy);
	RUN_TEST(test_watch_copies_only_the_ranges);
	return check_summary();
}
