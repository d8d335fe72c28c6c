/* Following the repository's chunks (jfr_follow.h).
 *
 * The JVM names each chunk by the time it began, yyyy_MM_dd_HH_mm_ss.jfr,
 * with _1, _2, ... after the time when several begin in one second
 * (jdk.jfr.internal.Repository), so their names sort them once the number
 * is compared as a number. A chunk is complete up to the size its header
 * states (the parser's header protocol: the generation byte around the
 * fields), and finished when its generation is 0; only then does gctop go
 * on to the next. The chunk being read stays open, so maxage deleting it
 * under gctop loses nothing; chunks deleted before gctop reached them are
 * passed over (the next name after the last read is taken). */
#include "collectors/hotspot/jfr/jfr_follow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dir.h"
#include "collectors/host/safe_path.h"

#define JFR_CHUNK_SUFFIX ".jfr"
/* "yyyy_MM_dd_HH_mm_ss": the part every chunk name begins with */
#define JFR_CHUNK_STAMP_LEN 19

bool jfr_follow_is_chunk(const char *name)
{
	size_t n = strlen(name), sl = strlen(JFR_CHUNK_SUFFIX);
	if (n < JFR_CHUNK_STAMP_LEN + sl || n >= JFR_CHUNK_NAME_LEN || strcmp(name + n - sl, JFR_CHUNK_SUFFIX) != 0)
		return false;
	for (size_t i = 0; i < JFR_CHUNK_STAMP_LEN; i++) {
		bool sep = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
		if (sep ? name[i] != '_' : (name[i] < '0' || name[i] > '9'))
			return false;
	}
	const char *rest = name + JFR_CHUNK_STAMP_LEN, *end = name + n - sl;
	if (rest == end)
		return true;
	if (*rest != '_' || rest + 1 == end || end - rest > 10)
		return false;
	for (const char *c = rest + 1; c < end; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

/* The number after the stamp (0 for none). */
static unsigned long jfr_chunk_counter(const char *name)
{
	return name[JFR_CHUNK_STAMP_LEN] == '_' ? strtoul(name + JFR_CHUNK_STAMP_LEN + 1, NULL, 10) : 0;
}

int jfr_follow_name_cmp(const char *a, const char *b)
{
	int c = strncmp(a, b, JFR_CHUNK_STAMP_LEN);
	if (c)
		return c;
	unsigned long x = jfr_chunk_counter(a), y = jfr_chunk_counter(b);
	return x < y ? -1 : x > y;
}

int jfr_follow_open(struct jfr_follow *f, pid_t pid, uid_t owner, const char *repository, struct gt_error *err)
{
	memset(f, 0, sizeof(*f));
	f->pid = pid;
	f->owner = owner;
	f->chunk = -1;
	int root = gt_sp_open_root(pid);
	f->dir = root >= 0 ? gt_sp_openat(root, repository, O_PATH | O_DIRECTORY, 0) : -1;
	int e = errno;
	if (root >= 0)
		close(root);
	if (f->dir < 0)
		return gt_fail(err, e == ELOOP || e == ENOTDIR ? GT_EXIT_BAD_DATA : GT_EXIT_NO_DATA,
			       "cannot open JVM %d's flight-recorder repository %s without following a link: %s",
			       (int)pid, repository, strerror(e));
	struct stat st;
	if (fstat(f->dir, &st) != 0 || st.st_uid != owner) {
		close(f->dir);
		f->dir = -1;
		return gt_fail(err, GT_EXIT_BAD_DATA, "JVM %d's flight-recorder repository %s is not its user's",
			       (int)pid, repository);
	}
	return 0;
}

/* The chunk to read next: after f->name, or the newest before any.
 * 1 found (name filled), 0 none yet, -1 the directory cannot be read. */
static int jfr_follow_next_name(const struct jfr_follow *f, char *name)
{
	DIR *d = gt_dir_adopt(openat(f->dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	if (!d)
		return -1;
	bool found = false;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!jfr_follow_is_chunk(de->d_name))
			continue;
		if (f->started && jfr_follow_name_cmp(de->d_name, f->name) <= 0)
			continue;
		bool better = !found || (f->started ? jfr_follow_name_cmp(de->d_name, name) < 0
						    : jfr_follow_name_cmp(de->d_name, name) > 0);
		if (better) {
			memcpy(name, de->d_name, strlen(de->d_name) + 1); /* shorter than JFR_CHUNK_NAME_LEN */
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Opens the next chunk: 1 opened, 0 none yet, -1 with err. */
static int jfr_follow_next_chunk(struct jfr_follow *f, struct gt_error *err)
{
	char name[JFR_CHUNK_NAME_LEN];
	int rc = jfr_follow_next_name(f, name);
	if (rc < 0)
		return gt_fail(err, GT_EXIT_NO_DATA, "cannot list JVM %d's flight-recorder repository: %s", (int)f->pid,
			       strerror(errno));
	if (rc == 0)
		return 0;
	memcpy(f->name, name, sizeof(f->name));
	f->started = true;
	f->position = 0;
	f->seen_size = 0;
	f->stale = 0;
	int fd = gt_sp_openat(f->dir, name, O_RDONLY, 0);
	if (fd < 0) {
		if (errno == ENOENT) /* deleted (maxage) between the listing and the open */
			return 0;
		return gt_fail(err, GT_EXIT_BAD_DATA, "cannot open JVM %d's chunk %s without following a link: %s",
			       (int)f->pid, name, strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != f->owner) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "JVM %d's chunk %s is not a file of its user", (int)f->pid, name);
	}
	f->chunk = fd;
	return 1;
}

static void jfr_follow_drop_chunk(struct jfr_follow *f)
{
	if (f->chunk >= 0)
		close(f->chunk);
	f->chunk = -1;
}

/* Reads what is new in the open chunk. 1 the chunk is finished and read
 * to its end, 0 more may come, -1 with err. *budget: events left. */
static int jfr_follow_read_chunk(struct jfr_follow *f, void (*fn)(struct gt_jfr_reader *, const struct gt_jfr_event *, void *),
				 void *arg, unsigned *budget, struct gt_error *err)
{
	uint8_t head[GT_JFR_HEADER_SIZE];
	struct gt_jfr_header h;
	if (pread(f->chunk, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		return 0; /* just created: its header is not written yet */
	/* a chunk the JVM just began, its header alone until its first
	 * flush, is GT_JFR_AGAIN: nothing to read yet */
	int rc = gt_jfr_header_read(head, sizeof(head), &h, err);
	if (rc != GT_JFR_OK)
		return rc == GT_JFR_AGAIN ? 0 : -1;
	struct gt_jfr_reader *r = NULL;
	rc = gt_jfr_open_fd(f->chunk, 0, NULL, &r, err);
	if (rc == GT_JFR_AGAIN)
		return 0;
	if (rc != GT_JFR_OK)
		return -1;
	if (f->position && gt_jfr_seek(r, f->position, err) != GT_JFR_OK) {
		gt_jfr_close(r);
		return -1;
	}
	struct gt_jfr_event ev;
	int nx = GT_JFR_OK;
	while (*budget && (nx = gt_jfr_next(r, &ev, err)) == GT_JFR_OK) {
		fn(r, &ev, arg);
		(*budget)--;
		f->events++;
	}
	f->position = gt_jfr_position(r);
	bool finished = gt_jfr_header_of(r)->finished;
	gt_jfr_close(r);
	if (nx == GT_JFR_ERROR)
		return -1;
	return nx == GT_JFR_END && finished;
}

/* Whether the open chunk has stood still for JFR_FOLLOW_STALE_POLLS polls
 * while a later chunk exists: it is left then. */
static bool jfr_follow_stalled(struct jfr_follow *f)
{
	struct stat st;
	if (fstat(f->chunk, &st) != 0)
		return false;
	if (st.st_size != f->seen_size) {
		f->seen_size = st.st_size;
		f->stale = 0;
		return false;
	}
	char later[JFR_CHUNK_NAME_LEN];
	if (jfr_follow_next_name(f, later) != 1) {
		f->stale = 0;
		return false;
	}
	return ++f->stale >= JFR_FOLLOW_STALE_POLLS;
}

int jfr_follow_poll(struct jfr_follow *f, void (*fn)(struct gt_jfr_reader *r, const struct gt_jfr_event *ev, void *arg),
		    void *arg, struct gt_error *err)
{
	unsigned budget = JFR_FOLLOW_EVENTS_PER_POLL;
	while (budget) {
		if (f->chunk < 0) {
			int rc = jfr_follow_next_chunk(f, err);
			if (rc <= 0)
				return rc;
		}
		int rc = jfr_follow_read_chunk(f, fn, arg, &budget, err);
		if (rc == 0 && !jfr_follow_stalled(f))
			return 0;
		/* finished, or malformed: either way the next poll reads the next chunk */
		jfr_follow_drop_chunk(f);
		if (rc < 0)
			return -1;
		f->chunks_read++;
	}
	return 0;
}

void jfr_follow_close(struct jfr_follow *f)
{
	jfr_follow_drop_chunk(f);
	if (f->dir >= 0)
		close(f->dir);
	f->dir = -1;
}
