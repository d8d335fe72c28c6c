/* gt_dir_adopt (base/dir.h): the descriptor is the stream's once adopted,
 * closed when it cannot be, and a failed open passes through with its errno. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/dir.h"
#include "tests/unit/check.h"

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static void test_directory_is_adopted(void)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	DIR *d = gt_dir_adopt(fd);
	CHECK(d != NULL && dirfd(d) == fd && readdir(d) != NULL);
	if (d)
		closedir(d);
	CHECK(!fd_open(fd));
}

static void test_file_is_closed(void)
{
	char path[] = "/tmp/gctop-dir-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	unlink(path);
	errno = 0;
	CHECK(gt_dir_adopt(fd) == NULL);
	CHECK(errno == ENOTDIR);
	CHECK(!fd_open(fd));
}

static void test_failed_open_keeps_errno(void)
{
	errno = 0;
	int fd = open("/nonexistent-gctop-dir", O_RDONLY | O_DIRECTORY);
	CHECK(fd == -1 && errno == ENOENT);
	CHECK(gt_dir_adopt(fd) == NULL);
	CHECK(errno == ENOENT);
}

int main(void)
{
	RUN_TEST(test_directory_is_adopted);
	RUN_TEST(test_file_is_closed);
	RUN_TEST(test_failed_open_keeps_errno);
	return check_summary();
}
