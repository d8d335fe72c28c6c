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

int main(void)
{
	RUN_TEST(test_copy_follows_the_file);
	RUN_TEST(test_truncation_is_one_sentence);
	RUN_TEST(test_sigbus_during_copy);
	return check_summary();
}
