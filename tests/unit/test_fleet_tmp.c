/* The fleet's /tmp watch (session/fleet_tmp.h), on a directory of its own
 * so that other programs' files cannot move it: its sum moves when a
 * hsperfdata_* directory gains a file or a .NET socket name comes, and not
 * when another temporary file comes. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/fleet_tmp.h"
#include "tests/unit/check.h"

/* A directory's change time comes from the kernel's coarse clock (a tick,
 * up to 10 ms): two changes within one tick can leave the same time, so
 * each change waits two ticks after the last. */
static void settle(void)
{
	usleep(20000);
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

static void test_stamp_follows_runtimes_only(void)
{
	char root[] = "/tmp/gctop-fleet-tmp-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char dir[128], file[192], sock[128], other[128];
	snprintf(dir, sizeof(dir), "%s/hsperfdata_someone", root);
	snprintf(file, sizeof(file), "%s/4242", dir);
	snprintf(sock, sizeof(sock), "%s/dotnet-diagnostic-4343-1-socket", root);
	snprintf(other, sizeof(other), "%s/other", root);
	CHECK(mkdir(dir, 0700) == 0);
	struct gt_fleet_tmp t = { .root = root };
	settle();
	uint64_t s0 = gt_fleet_tmp_stamp(&t);
	CHECK(t.n_dirs == 1);
	CHECK(gt_fleet_tmp_stamp(&t) == s0);
	touch(other);
	settle();
	CHECK(gt_fleet_tmp_stamp(&t) == s0);
	touch(file);
	settle();
	uint64_t s1 = gt_fleet_tmp_stamp(&t);
	CHECK(s1 != s0);
	touch(sock);
	settle();
	uint64_t s2 = gt_fleet_tmp_stamp(&t);
	CHECK(s2 != s1);
	unlink(sock);
	settle();
	CHECK(gt_fleet_tmp_stamp(&t) == s1);
	unlink(file);
	unlink(other);
	rmdir(dir);
	rmdir(root);
	gt_fleet_tmp_free(&t);
	CHECK(t.dirs == NULL && t.n_dirs == 0);
}

/* The pids a fleet opens without a listing: the numbered entries of the
 * directories whose entries are pids (HotSpot's), not a .NET socket's pid
 * (a socket outlives a runtime that crashed), nor other names. */
static void test_pids_of_pid_directories(void)
{
	char root[] = "/tmp/gctop-fleet-tmp-XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char dir[128], path[192];
	snprintf(dir, sizeof(dir), "%s/hsperfdata_someone", root);
	CHECK(mkdir(dir, 0700) == 0);
	const char *names[] = { "4242", "17", "x12", "12x", "attach_pid9" };
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		touch(path);
	}
	snprintf(path, sizeof(path), "%s/dotnet-diagnostic-4343-1-socket", root);
	touch(path);
	struct gt_fleet_tmp t = { .root = root };
	(void)gt_fleet_tmp_stamp(&t);
	pid_t *pids = NULL;
	size_t cap = 0;
	size_t n = gt_fleet_tmp_pids(&t, &pids, &cap);
	CHECK_U64(n, 2);
	CHECK(n == 2 && ((pids[0] == 4242 && pids[1] == 17) || (pids[0] == 17 && pids[1] == 4242)));
	free(pids);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/dotnet-diagnostic-4343-1-socket", root);
	unlink(path);
	rmdir(dir);
	rmdir(root);
	gt_fleet_tmp_free(&t);
}

int main(void)
{
	RUN_TEST(test_stamp_follows_runtimes_only);
	RUN_TEST(test_pids_of_pid_directories);
	return check_summary();
}
