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

int main(void)
{
	RUN_TEST(test_stamp_follows_runtimes_only);
	return check_summary();
}
