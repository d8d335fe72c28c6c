/* The trigger and the agent copy of an attach, and what killed gctops left
 * of them. A gctop can be killed (SIGKILL, a crash) while it waits for the
 * JVM's socket with the trigger in place, or for the load reply with the
 * copy in place; neither can be removed earlier (the JVM reads the trigger
 * when its signal thread gets to SIGQUIT, and dlopens the copy on the
 * request). So both are made to be known later: the trigger holds gctop's
 * mark, the copy the agent's bytes; neither is ever under its name
 * half-written (make_whole). */
#include "collectors/hotspot/attach/hotspot_attach_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "collectors/host/proc.h"
#include "collectors/host/safe_path.h"

#define TRIGGER_MARK "gctop-attach"
#define TRIGGER_PREFIX ".attach_pid"
#define COPY_PREFIX ".gctop-agent-"

/* ---- reading a file of a target's directory ---- */

/* Opens name in dir for reading when it is a regular file (never followed)
 * owned by one of the two users, the same file as sb (filled) says. A FIFO
 * or device in its place is never opened. -1 otherwise. */
static int open_plain(int dir, const char *name, uid_t a, uid_t b, struct stat *sb)
{
	if (fstatat(dir, name, sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb->st_mode) ||
	    (sb->st_uid != a && sb->st_uid != b))
		return -1;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat now;
	if (fd >= 0 && (fstat(fd, &now) != 0 || now.st_dev != sb->st_dev || now.st_ino != sb->st_ino)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* True when fd holds exactly the bytes of the file src, or with `part`
 * their beginning (a copy cut short). */
static bool same_bytes(int fd, const char *src, bool part)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	struct stat a, b;
	bool same = in >= 0 && fstat(fd, &a) == 0 && fstat(in, &b) == 0 &&
		    (a.st_size == b.st_size || (part && a.st_size < b.st_size));
	char x[8192], y[8192];
	for (off_t off = 0; same && off < a.st_size;) {
		ssize_t n = pread(fd, x, sizeof(x), off);
		same = n > 0 && pread(in, y, (size_t)n, off) == n && memcmp(x, y, (size_t)n) == 0;
		off += n > 0 ? n : 0;
	}
	if (in >= 0)
		close(in);
	return same;
}

/* ---- a file made whole under its name ---- */

/* Writes a new file's content (and readies its name): 0, or -1 with errno. */
typedef int (*fill_fn)(int fd, void *ctx);

/* The unnamed file, filled, linked as name through /proc/self/fd (which
 * needs no privilege, unlike AT_EMPTY_PATH; linkat never replaces a file
 * nor follows a link under name: EEXIST). -1 with errno EOPNOTSUPP or
 * EISDIR where the file system has no O_TMPFILE. */
static int make_linked(int dir, const char *name, fill_fn fill, void *ctx, struct stat *made)
{
	int out = openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (out < 0)
		return -1;
	char self[64];
	gt_sp_fd_path(out, self, sizeof(self));
	int rc = fill(out, ctx) == 0 && fstat(out, made) == 0 ? 0 : -1;
	if (rc == 0)
		rc = linkat(AT_FDCWD, self, dir, name, AT_SYMLINK_FOLLOW);
	int e = errno;
	close(out);
	errno = e;
	return rc;
}

/* Without O_TMPFILE (overlayfs before Linux 6.6): a named part, renamed
 * once complete. A part a killed gctop left behind in a /tmp is cleared by
 * gt_attach_clear_leftovers. */
static int make_renamed(int dir, const char *name, fill_fn fill, void *ctx, struct stat *made)
{
	char part[128];
	snprintf(part, sizeof(part), "%s.%d.part", name, (int)getpid());
	unlinkat(dir, part, 0);
	int out = openat(dir, part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return -1;
	int rc = fill(out, ctx) == 0 && fstat(out, made) == 0 ? 0 : -1;
	if (close(out) != 0)
		rc = -1;
	/* renameat2 NOREPLACE: a file not gctop's under the name stays. */
	if (rc == 0)
		rc = renameat2(dir, part, dir, name, RENAME_NOREPLACE);
	int e = errno;
	if (rc != 0)
		unlinkat(dir, part, 0);
	errno = e;
	return rc;
}

/* Makes name in dir, mode 0600, with what fill writes, in one step: no one
 * sees it under its name before it is whole, and a gctop killed while it
 * writes leaves nothing under the name. 0 with made, or -1 with errno
 * (EEXIST: a file is there, kept). */
static int make_whole(int dir, const char *name, fill_fn fill, void *ctx, struct stat *made)
{
	int rc = make_linked(dir, name, fill, ctx, made);
	if (rc != 0 && (errno == EOPNOTSUPP || errno == EISDIR))
		rc = make_renamed(dir, name, fill, ctx, made);
	return rc;
}

/* ---- the trigger ---- */

static int trigger_mark(int fd, void *unused)
{
	(void)unused;
	unsigned long long ticks = 0;
	gt_proc_start_ticks(getpid(), &ticks);
	char b[64];
	int n = snprintf(b, sizeof(b), TRIGGER_MARK " %d %llu\n", (int)getpid(), ticks);
	return write(fd, b, (size_t)n) == n ? 0 : -1;
}

int gt_attach_parse_mark(const char *text, pid_t *maker, unsigned long long *ticks)
{
	int pid, len = 0;
	if (sscanf(text, TRIGGER_MARK " %d %llu\n%n", &pid, ticks, &len) != 2 || len == 0 || text[len] != '\0' ||
	    text[len - 1] != '\n' || pid <= 0)
		return -1;
	*maker = pid;
	return 0;
}

/* The pid P of a part's name, "NAME.P.part", or 0 for a whole name. */
static pid_t part_maker(const char *name)
{
	const char *end = strrchr(name, '.');
	if (!end || strcmp(end, ".part") != 0)
		return 0;
	const char *dot = end;
	while (dot > name && dot[-1] != '.')
		dot--;
	int p = 0, len = 0;
	return dot > name && sscanf(dot, "%d%n", &p, &len) == 1 && dot + len == end && p > 0 ? (pid_t)p : 0;
}

/* True when name in dir is a trigger of our own user with gctop's mark
 * whose maker no longer runs, or an empty part whose maker (its name's
 * pid) no longer runs: a gctop killed between making the part and writing
 * its mark, where there is no O_TMPFILE (sb: the file, for removing it). */
static bool trigger_stale(int dir, const char *name, struct stat *sb)
{
	int fd = open_plain(dir, name, geteuid(), geteuid(), sb);
	if (fd < 0)
		return false;
	char b[64];
	ssize_t n = sb->st_size < (off_t)sizeof(b) ? read(fd, b, sizeof(b) - 1) : -1;
	close(fd);
	unsigned long long maker_ticks;
	pid_t part_of = part_maker(name);
	if (n == 0 && part_of)
		return gt_proc_start_ticks(part_of, &maker_ticks) != 0;
	if (n <= 0)
		return false;
	b[n] = '\0';
	pid_t maker;
	unsigned long long ticks, now;
	if (gt_attach_parse_mark(b, &maker, &ticks) != 0)
		return false;
	return gt_proc_start_ticks(maker, &now) != 0 || now != ticks;
}

/* Makes the trigger in dir when gctop may create files there for this JVM.
 * 1 made, 0 already there (a trigger the JVM would accept, of someone
 * else or a gctop still running), -1 not here (errno EPERM when the
 * directory is not one gctop creates files in). */
static int trigger_in(int dir, const struct gt_attach_status *st, struct gt_attach_trigger *t)
{
	if (dir < 0)
		return -1;
	if (!gt_sp_dir_fit_for_create(dir, st->euid)) {
		errno = EPERM;
		return -1;
	}
	/* Made with its mark in one step: a trigger seen empty, or left
	 * unmarked by a kill between its creation and its mark, would be
	 * taken for someone else's and never removed. */
	struct stat sb;
	int rc = make_whole(dir, t->name, trigger_mark, NULL, &t->made);
	if (rc != 0 && errno == EEXIST && trigger_stale(dir, t->name, &sb) && gt_sp_unlink_same(dir, t->name, &sb) == 0)
		rc = make_whole(dir, t->name, trigger_mark, NULL, &t->made);
	if (rc == 0) {
		if ((t->dir = dup(dir)) >= 0)
			return 1;
		gt_sp_unlink_same(dir, t->name, &t->made);
		return -1;
	}
	/* Whatever stopped us (errno may be the stale check's by now): a
	 * trigger the JVM would accept is there. */
	if (fstatat(dir, t->name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
	    (sb.st_uid == st->euid || sb.st_uid == 0))
		return 0;
	return -1;
}

/* A marked trigger a killed gctop (of an earlier version, which wrote
 * there first) left in the JVM's working directory. */
static void clear_cwd_trigger(pid_t pid, const char *name)
{
	int cwd = gt_sp_open_cwd(pid);
	struct stat sb;
	if (cwd < 0)
		return;
	if (trigger_stale(cwd, name, &sb))
		gt_sp_unlink_same(cwd, name, &sb);
	close(cwd);
}

int gt_attach_trigger_create(pid_t pid, const struct gt_attach_status *st, int tmp, struct gt_attach_trigger *t)
{
	t->dir = -1;
	snprintf(t->name, sizeof(t->name), TRIGGER_PREFIX "%d", (int)st->nspid);
	clear_cwd_trigger(pid, t->name);
	return trigger_in(tmp, st, t) < 0 ? -1 : 0;
}

void gt_attach_trigger_remove(struct gt_attach_trigger *t)
{
	if (t->dir < 0)
		return;
	gt_sp_unlink_same(t->dir, t->name, &t->made);
	close(t->dir);
	t->dir = -1;
}

/* ---- the agent copy ---- */

/* Writes src into out and hands it to the JVM's user. */
static int copy_into(int out, const char *src, const struct gt_attach_status *st)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	char buf[65536];
	ssize_t r;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r) {
			r = -1;
			break;
		}
	int e = errno;
	if (r == 0 && geteuid() == 0 && fchown(out, st->euid, st->egid) != 0) {
		r = -1;
		e = errno;
	}
	close(in);
	errno = e;
	return r == 0 ? 0 : -1;
}

/* True when name in tmp is an agent copy (the agent's bytes, or with
 * `part` their beginning; a regular file of the JVM's user or ours) that
 * may go (sb: the file). A copy gctop made has one link: a file with more
 * is not compared, so that a user cannot make each attach read the agent's
 * size once for every name linked to one file of theirs. */
static bool copy_stale(int tmp, const char *name, const char *src, uid_t owner, bool part, struct stat *sb)
{
	int fd = open_plain(tmp, name, owner, geteuid(), sb);
	if (fd < 0)
		return false;
	bool same = sb->st_nlink == 1 && same_bytes(fd, src, part);
	close(fd);
	return same;
}

/* Removes a copy an earlier gctop left under c->name. */
static void copy_clear_name(const char *src, int tmp, const struct gt_attach_status *st, struct gt_attach_copy *c)
{
	struct stat old;
	if (copy_stale(tmp, c->name, src, st->euid, false, &old))
		gt_sp_unlink_same(tmp, c->name, &old);
}

void gt_attach_clear_own_copy(int tmp, const char *src, const struct gt_attach_status *st)
{
	struct gt_attach_copy c;
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), COPY_PREFIX "%d.so", (int)st->nspid);
	copy_clear_name(src, tmp, st, &c);
}

/* What an agent copy is made from, for make_whole. */
struct copy_job {
	const char *src;
	int tmp;
	const struct gt_attach_status *st;
	struct gt_attach_copy *c;
};

/* The agent's bytes, handed to the JVM's user; then a copy an earlier
 * gctop left under the name is removed. */
static int copy_fill(int out, void *ctx)
{
	struct copy_job *j = ctx;
	if (copy_into(out, j->src, j->st) != 0)
		return -1;
	copy_clear_name(j->src, j->tmp, j->st, j->c);
	return 0;
}

int gt_attach_agent_copy(const char *src, int tmp, const struct gt_attach_status *st, struct gt_attach_copy *c,
			 struct gt_error *err)
{
	if (!gt_sp_dir_fit_for_create(tmp, st->euid))
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "the /tmp of JVM %d is neither its user's nor a sticky shared directory; "
			       "gctop will not put its agent there", (int)st->nspid);
	snprintf(c->name, sizeof(c->name), COPY_PREFIX "%d.so", (int)st->nspid);
	snprintf(c->load_path, sizeof(c->load_path), "/tmp/%s", c->name);
	struct copy_job job = { src, tmp, st, c };
	int rc = make_whole(tmp, c->name, copy_fill, &job, &c->made);
	if (rc == 0)
		return 0;
	if (errno == EEXIST)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "/tmp/%s of JVM %d is not a copy of gctop's agent, so gctop will not put its agent there; "
			       "remove that file and try again", c->name, (int)st->nspid);
	return gt_fail(err, errno == EACCES ? GT_EXIT_PERMISSION : GT_EXIT_FAILURE,
		       "cannot copy gctop's agent %s into the /tmp of JVM %d: %s", src, (int)st->nspid, strerror(errno));
}

void gt_attach_agent_remove(int tmp, struct gt_attach_copy *c)
{
	if (!c->name[0])
		return;
	gt_sp_unlink_same(tmp, c->name, &c->made);
	c->name[0] = '\0';
}

bool gt_attach_maps_line_is(const char *line, dev_t dev, ino_t ino)
{
	unsigned maj, min;
	unsigned long long i;
	/* start-end perms offset major:minor inode [path] */
	return sscanf(line, "%*x-%*x %*s %*x %x:%x %llu", &maj, &min, &i) == 3 && i == (unsigned long long)ino &&
	       makedev(maj, min) == dev;
}

bool gt_attach_copy_mapped(pid_t pid, const struct gt_attach_copy *c)
{
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool found = false;
	/* A path longer than line only continues a line fgets split off;
	 * such a piece is read as a line of its own, whose match could only
	 * make gctop remove the copy early (the target's own loss). */
	while (!found && fgets(line, sizeof(line), f))
		found = gt_attach_maps_line_is(line, c->made.st_dev, c->made.st_ino);
	fclose(f);
	return found;
}

/* ---- leftovers of killed runs ---- */

enum leftover { NONE, TRIGGER, COPY, PART };

/* Whether name ends at len, or at ".P.part" after it. */
static bool ends_whole_or_part(const char *name, int len, bool *part)
{
	int n, part_len = 0;
	*part = name[len] != '\0';
	return !*part ||
	       (sscanf(name + len, ".%d.part%n", &n, &part_len) == 1 && part_len > 0 && name[len + part_len] == '\0');
}

/* .attach_pidN, .gctop-agent-N.so, and each with .P.part (a trigger's part
 * holds the mark, so it is a trigger to the scan). */
static enum leftover leftover_kind(const char *name)
{
	int n, len = 0;
	bool part;
	if (sscanf(name, TRIGGER_PREFIX "%d%n", &n, &len) == 1 && len > 0)
		return ends_whole_or_part(name, len, &part) ? TRIGGER : NONE;
	if (sscanf(name, COPY_PREFIX "%d.so%n", &n, &len) != 1 || len == 0 || !ends_whole_or_part(name, len, &part))
		return NONE;
	return part ? PART : COPY;
}

void gt_attach_clear_leftovers(int tmp, const char *src, const struct gt_attach_status *st)
{
	int fd = openat(tmp, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	time_t now = time(NULL);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		enum leftover kind = leftover_kind(e->d_name);
		struct stat sb;
		/* Copies are their JVM's user's: this JVM's user's or ours (a
		 * user's copy of another JVM goes with an attach to one of
		 * theirs), only the agent's bytes under gctop's name, old enough
		 * to be no one's. */
		if ((kind == TRIGGER && trigger_stale(tmp, e->d_name, &sb)) ||
		    (src && (kind == COPY || kind == PART) && fstatat(tmp, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		     now - sb.st_ctime > GT_ATTACH_COPY_STALE_S &&
		     copy_stale(tmp, e->d_name, src, st->euid, kind == PART, &sb)))
			gt_sp_unlink_same(tmp, e->d_name, &sb);
	}
	closedir(d);
}
