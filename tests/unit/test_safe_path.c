/* The path walks under a target's root (collectors/host/safe_path.c): links are
 * never followed, ".." never leaves the root, creation and removal stay in
 * the directory that was checked. Both openat2 and the fallback walk. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "collectors/host/safe_path.h"
#include "tests/unit/check.h"

static char dir[64];

typedef int (*open_fn)(int, const char *, int, mode_t);

static void make_tree(void)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/root/a/b", dir);
	CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/root", dir), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/root/a", dir), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/root/a/b", dir), mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/root/a/b/file", dir);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	snprintf(p, sizeof(p), "%s/secret", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		close(fd);
	/* An absolute link resolves against our root if followed; a relative
	 * one to the same place inside. Both must be refused. */
	char target[256];
	snprintf(target, sizeof(target), "%s", dir);
	snprintf(p, sizeof(p), "%s/root/abs", dir);
	CHECK(symlink(target, p) == 0);
	snprintf(p, sizeof(p), "%s/root/rel", dir);
	CHECK(symlink("a", p) == 0);
	snprintf(p, sizeof(p), "%s/root/a/b/flink", dir);
	CHECK(symlink("file", p) == 0);
}

static int root_fd(void)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/root", dir);
	return open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static void check_walks(open_fn fn, const char *label)
{
	int root = root_fd();
	CHECK(root >= 0);
	int fd = fn(root, "a/b/file", O_RDONLY, 0);
	if (fd < 0)
		check_fail(__FILE__, __LINE__, "%s: a/b/file: %s", label, strerror(errno));
	else
		close(fd);
	fd = fn(root, "/a/b/file", O_RDONLY, 0);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	/* Links anywhere in the path are refused. */
	CHECK(fn(root, "abs/secret", O_RDONLY, 0) < 0 && (errno == ELOOP || errno == ENOTDIR));
	CHECK(fn(root, "rel/b/file", O_RDONLY, 0) < 0 && (errno == ELOOP || errno == ENOTDIR));
	CHECK(fn(root, "a/b/flink", O_RDONLY, 0) < 0 && errno == ELOOP);
	CHECK(fn(root, "abs", O_RDONLY | O_DIRECTORY, 0) < 0);
	/* ".." stops at the root: the file beside it is never reached. */
	CHECK(fn(root, "../secret", O_RDONLY, 0) < 0);
	CHECK(fn(root, "a/../../secret", O_RDONLY, 0) < 0);
	/* Creating is exclusive and in the named directory only. */
	fd = fn(root, "a/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(fn(root, "a/new", O_WRONLY | O_CREAT | O_EXCL, 0600) < 0 && errno == EEXIST);
	CHECK(fn(root, "rel/new2", O_WRONLY | O_CREAT | O_EXCL, 0600) < 0);
	CHECK(unlinkat(root, "a/new", 0) == 0);
	close(root);
}

static void test_openat2(void)
{
	check_walks(gt_sp_openat, "openat2");
}

static void test_walk(void)
{
	check_walks(gt_sp_openat_walk, "walk");
}

static void test_dir_fit(void)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/root/a", dir);
	int fd = open(p, O_PATH | O_DIRECTORY);
	CHECK(gt_sp_dir_fit_for_create(fd, geteuid()));
	CHECK(!gt_sp_dir_fit_for_create(fd, geteuid() + 1));
	/* A sticky world-writable directory fits (/tmp); world-writable
	 * alone, where anyone could replace what gctop made, does not. */
	CHECK(chmod(p, 0777) == 0);
	CHECK(!gt_sp_dir_fit_for_create(fd, geteuid() + 1));
	CHECK(chmod(p, 01777) == 0);
	CHECK(gt_sp_dir_fit_for_create(fd, geteuid() + 1));
	chmod(p, 0755);
	close(fd);
}

static void test_unlink_same(void)
{
	int root = root_fd();
	int d = gt_sp_openat(root, "a", O_RDONLY | O_DIRECTORY, 0);
	CHECK(d >= 0);
	int fd = openat(d, "mine", O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct stat was;
	CHECK(fd >= 0 && fstat(fd, &was) == 0);
	close(fd);
	/* Replaced under the same name: not ours any more, left alone. */
	fd = openat(d, "other", O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	CHECK(renameat(d, "other", d, "mine") == 0);
	CHECK(gt_sp_unlink_same(d, "mine", &was) == -1 && errno == ESTALE);
	CHECK(faccessat(d, "mine", F_OK, AT_SYMLINK_NOFOLLOW) == 0);
	CHECK(fstatat(d, "mine", &was, AT_SYMLINK_NOFOLLOW) == 0);
	CHECK(gt_sp_unlink_same(d, "mine", &was) == 0);
	CHECK(faccessat(d, "mine", F_OK, AT_SYMLINK_NOFOLLOW) != 0);
	close(d);
	close(root);
}

static void test_fd_path_connects_what_was_opened(void)
{
	char p[64];
	gt_sp_fd_path(7, p, sizeof(p));
	CHECK_STR(p, "/proc/self/fd/7");
}

static int try_connect(int root, const char *rel, uid_t owner, pid_t peer)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc = gt_sp_connect_unix(s, root, rel, owner, peer);
	int e = errno;
	close(s);
	errno = e;
	return rc;
}

static void test_connect_checks_owner_and_peer(void)
{
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/root/a/sock", dir);
	CHECK(bind(l, (struct sockaddr *)&sa, sizeof(sa)) == 0 && listen(l, 8) == 0);
	char p[256];
	snprintf(p, sizeof(p), "%s/root/a/slink", dir);
	CHECK(symlink("sock", p) == 0);
	int root = root_fd();
	CHECK(try_connect(root, "a/sock", geteuid(), getpid()) == 0);
	CHECK(try_connect(root, "a/sock", geteuid(), 0) == 0);
	CHECK(try_connect(root, "a/sock", geteuid() + 1, 0) == -1 && errno == EPROTO);
	CHECK(try_connect(root, "a/sock", geteuid(), getpid() + 1) == -1 && errno == EPROTO);
	CHECK(try_connect(root, "a/slink", geteuid(), 0) == -1);
	CHECK(try_connect(root, "a/b/file", geteuid(), 0) == -1 && errno == EPROTO);
	close(root);
	close(l);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gctop-sp-%d", (int)getpid());
	make_tree();
	RUN_TEST(test_openat2);
	RUN_TEST(test_walk);
	RUN_TEST(test_dir_fit);
	RUN_TEST(test_unlink_same);
	RUN_TEST(test_fd_path_connects_what_was_opened);
	RUN_TEST(test_connect_checks_owner_and_peer);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_summary();
}
