/* Creating -w's file (base/safe_create.c): a new file or our own regular
 * file is opened, emptied and made mode 0600 whatever the umask; a link as
 * the name, a FIFO, a hard link and a link above the name in a directory
 * others may change are refused with a reason; ordinary failures have none.
 * The cases with another user's files are in
 * tests/integration/security_record_write.sh (they need root). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safe_create.h"
#include "tests/unit/check.h"

static char dir[64];

static const char *at(const char *name)
{
	static char p[4][256];
	static int i;
	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
	return p[i];
}

static void put(const char *name, const char *text, mode_t mode)
{
	FILE *f = fopen(at(name), "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(at(name), mode);
}

static off_t size_of(const char *name)
{
	struct stat st;
	return stat(at(name), &st) == 0 ? st.st_size : -1;
}

static mode_t mode_of(const char *name)
{
	struct stat st;
	return stat(at(name), &st) == 0 ? st.st_mode & 07777 : 0;
}

/* path opened: fd written to and closed; true when it worked. */
static bool created(const char *path)
{
	const char *why = "unset";
	int fd = gt_safe_create(path, 0600, O_APPEND, &why);
	if (fd < 0)
		return false;
	CHECK(why == NULL);
	CHECK(write(fd, "x\n", 2) == 2);
	close(fd);
	return true;
}

/* path refused with a reason containing `reason`. */
static bool refused(const char *path, const char *reason)
{
	const char *why = NULL;
	int fd = gt_safe_create(path, 0600, O_APPEND, &why);
	if (fd >= 0)
		close(fd);
	return fd < 0 && why && strstr(why, reason);
}

static void test_new_and_own_files(void)
{
	mode_t old = umask(0);
	CHECK(created(at("new.ndjson")));
	CHECK_U64(mode_of("new.ndjson"), 0600);
	put("own.ndjson", "an old recording, longer than two bytes\n", 0666);
	CHECK(created(at("own.ndjson")));
	CHECK_U64(mode_of("own.ndjson"), 0600);
	CHECK_U64(size_of("own.ndjson"), 2);
	umask(old);
}

static void test_refused_names(void)
{
	put("target", "keep\n", 0644);
	CHECK(symlink(at("target"), at("link.ndjson")) == 0);
	CHECK(refused(at("link.ndjson"), "symbolic link"));
	CHECK(mkfifo(at("fifo.ndjson"), 0600) == 0);
	CHECK(refused(at("fifo.ndjson"), "not a regular file"));
	CHECK(link(at("target"), at("hard.ndjson")) == 0);
	CHECK(refused(at("hard.ndjson"), "hard link"));
	CHECK_U64(size_of("target"), 5);
}

static void test_links_above(void)
{
	CHECK(mkdir(at("real"), 0755) == 0);
	CHECK(symlink("real", at("mine")) == 0);
	CHECK(created(at("mine/a.ndjson")));
	CHECK(size_of("real/a.ndjson") == 2);
	/* A link in a directory others may rename entries in is anyone's. */
	CHECK(mkdir(at("open"), 0777) == 0 && chmod(at("open"), 0777) == 0);
	CHECK(symlink(at("real"), at("open/to-real")) == 0);
	CHECK(refused(at("open/to-real/b.ndjson"), "under a symbolic link"));
	CHECK(size_of("real/b.ndjson") == -1);
	/* The sticky bit keeps others from renaming the link, as in /tmp. */
	CHECK(chmod(at("open"), 01777) == 0);
	CHECK(created(at("open/to-real/c.ndjson")));
	CHECK(symlink("loop2", at("loop1")) == 0 && symlink("loop1", at("loop2")) == 0);
	const char *why = "unset";
	CHECK(gt_safe_create(at("loop1/x"), 0600, 0, &why) < 0 && errno == ELOOP && why == NULL);
}

static void test_ordinary_failures(void)
{
	const char *why = "unset";
	CHECK(gt_safe_create(at("no-such-dir/x"), 0600, 0, &why) < 0 && errno == ENOENT && why == NULL);
	why = "unset";
	CHECK(gt_safe_create(at("real/"), 0600, 0, &why) < 0 && errno == EISDIR && why == NULL);
	char rel[300];
	CHECK(chdir(dir) == 0);
	snprintf(rel, sizeof(rel), "real/../mine/./rel.ndjson");
	CHECK(created(rel));
	CHECK(size_of("real/rel.ndjson") == 2);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gctop-safe-create.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN_TEST(test_new_and_own_files);
	RUN_TEST(test_refused_names);
	RUN_TEST(test_links_above);
	RUN_TEST(test_ordinary_failures);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_summary();
}
