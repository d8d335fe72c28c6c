#include "record/record_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/quit.h"
#include "base/wait.h"
#include "record/record_format.h"

/* Bytes read at once. Read by hand rather than with stdio's getc: the
 * reader must look at the quit flag between reads and wait on a pipe with
 * ppoll (base/wait.h), which stdio's hidden buffer does not allow. */
#define RECORD_READ_CHUNK (64 * 1024)

int gt_record_lines_bad(const struct gt_record_lines *l, struct gt_error *err, const char *what)
{
	return gt_fail(err, GT_EXIT_BAD_RECORDING, "%s, line %llu: %s; not a recording gctop can read", l->name,
		       (unsigned long long)l->line_no, what);
}

/* l with its buffers and nothing to read yet (f NULL, fd -1). */
static int lines_init(struct gt_record_lines *l, const char *name, struct gt_error *err)
{
	memset(l, 0, sizeof(*l));
	l->fd = -1;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->line = malloc(GT_RECORD_LINE_MAX + 1);
	l->buf = malloc(RECORD_READ_CHUNK);
	if (!l->line || !l->buf) {
		gt_record_lines_close(l);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

int gt_record_lines_stream(struct gt_record_lines *l, FILE *f, const char *name, struct gt_error *err)
{
	if (lines_init(l, name, err) != 0) {
		fclose(f);
		return -1;
	}
	l->f = f;
	return 0;
}

/* path opened for reading without waiting: a FIFO's open waits for its
 * writer, where a quit signal landing just before would be missed; the
 * reads then block again (refill waits first on anything not a regular
 * file). -1 with errno. */
static int open_quietly(const char *path, bool *regular)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0)
		return -1;
	int fl = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) != 0 || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*regular = S_ISREG(st.st_mode);
	return fd;
}

int gt_record_lines_open(struct gt_record_lines *l, const char *path, bool file_only, struct gt_error *err)
{
	bool regular = false;
	int fd = open_quietly(path, &regular);
	if (fd < 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot open the recording %s: %s", path, strerror(errno));
	if (file_only && !regular) {
		close(fd);
		return gt_fail(err, GT_EXIT_USAGE, "%s is not a regular file: stepping back through a recording reads it "
			       "again from its start, which a pipe cannot do; -b and --json read a pipe", path);
	}
	if (lines_init(l, path, err) != 0) {
		close(fd);
		return -1;
	}
	l->fd = fd;
	l->regular = regular;
	return 0;
}

void gt_record_lines_close(struct gt_record_lines *l)
{
	free(l->line);
	free(l->buf);
	if (l->f)
		fclose(l->f);
	if (l->fd >= 0)
		close(l->fd);
	l->line = l->buf = NULL;
	l->f = NULL;
	l->fd = -1;
}

bool gt_record_lines_disk_full(const struct gt_record_lines *l)
{
	struct statvfs fs;
	return l->fd >= 0 && fstatvfs(l->fd, &fs) == 0 && fs.f_blocks > 0 && fs.f_bavail == 0;
}

/* More bytes into l->buf: 1, 0 at the end, or -1 with err (a read error;
 * a quit request, status 0). */
static int refill(struct gt_record_lines *l, struct gt_error *err)
{
	l->buf_pos = l->buf_len = 0;
	if (l->f) {
		l->buf_len = fread(l->buf, 1, RECORD_READ_CHUNK, l->f);
		if (l->buf_len == 0 && ferror(l->f))
			return gt_fail(err, GT_EXIT_FAILURE, "cannot read the recording %s", l->name);
		return l->buf_len > 0;
	}
	for (;;) {
		/* A pipe may stay silent for ever: its wait ends on a quit signal
		 * however close before the wait it lands. */
		if (gt_quit_requested() ||
		    (!l->regular && gt_wait_fd(l->fd, POLLIN, GT_WAIT_NEVER) == GT_WAIT_QUIT))
			return gt_wait_interrupted(err);
		ssize_t n = read(l->fd, l->buf, RECORD_READ_CHUNK);
		if (n >= 0) {
			l->buf_len = (size_t)n;
			return n > 0;
		}
		if (errno != EINTR && errno != EAGAIN)
			return gt_fail(err, GT_EXIT_FAILURE, "cannot read the recording %s: %s", l->name, strerror(errno));
	}
}

/* Every line looks at the quit flag, so an endless input (a pipe of empty
 * lines) ends on a signal. */
int gt_record_lines_next(struct gt_record_lines *l, size_t *len, struct gt_error *err)
{
	size_t n = 0;
	if (gt_quit_requested())
		return gt_wait_interrupted(err);
	for (;;) {
		if (l->buf_pos == l->buf_len) {
			int rc = l->eof ? 0 : refill(l, err);
			if (rc < 0)
				return -1;
			if (rc == 0) {
				l->eof = true;
				l->truncated = n > 0;
				return 0;
			}
		}
		const char *start = l->buf + l->buf_pos;
		size_t avail = l->buf_len - l->buf_pos;
		const char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		if (take > GT_RECORD_LINE_MAX - n) {
			char what[64];
			l->line_no++;
			snprintf(what, sizeof(what), "longer than %d bytes", GT_RECORD_LINE_MAX);
			return gt_record_lines_bad(l, err, what);
		}
		memcpy(l->line + n, start, take);
		n += take;
		l->buf_pos += take + (nl != NULL);
		if (nl) {
			l->line[n] = '\0';
			*len = n;
			l->line_no++;
			return 1;
		}
	}
}
