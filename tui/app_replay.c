/* A recording on the screen: the dashboard shows its samples, and t, T, r,
 * b and space move through it. A move reads in slices (record/replay.h)
 * between which the loop answers keys. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "base/clock.h"
#include "base/quit.h"
#include "tui/app_replay.h"

/* A replay's move reads this long at a time, then the loop looks at the
 * keys (tui/loop.c's LOOP_REPLAY_KEYS_NS; a poll ends at once on a
 * key): q is answered within some 20 ms of reading, and the move costs a
 * few % more. */
#define REPLAY_SLICE_NS 20000000ull
/* A move's progress on the footer is drawn this often. */
#define REPLAY_DRAW_NS 250000000ull

/* Says where the replay stands, on the footer. */
static void replay_note(struct gt_app *a)
{
	char when[32] = "";
	time_t t = (time_t)(a->session.prev.wall_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	gt_app_note(a, "replay: sample %llu%s, %s%s", (unsigned long long)a->replay->pos,
		    a->replay->at_end ? " (the last)" : "", when, a->replay->playing ? ", playing" : "");
}

/* A recording that turned unreadable ends gctop with its sentence; a
 * quit signal while it was read, with status 0. */
static void replay_failed(struct gt_app *a)
{
	a->status = gt_quit_requested() ? GT_EXIT_OK : a->err->code ? (int)a->err->code : GT_EXIT_FAILURE;
	a->quit = true;
}

/* One slice of the replay's move (record/replay.h); true when it is done. */
static bool replay_slice(struct gt_app *a)
{
	int rc = gt_replay_work(a->replay, &a->session, gt_mono_ns() + REPLAY_SLICE_NS, a->err);
	if (rc < 0) {
		replay_failed(a);
		return true;
	}
	if (rc == 0)
		return false;
	if (a->replay->at_end)
		a->replay->playing = false;
	replay_note(a);
	return true;
}

/* Moves the replay to sample pos (next: one on from where it is going),
 * in slices of the loop: keys are answered while it reads. */
static void replay_move(struct gt_app *a, uint64_t pos, bool next)
{
	struct gt_replay *r = a->replay;
	uint64_t from = r->moving ? r->target : r->pos;
	gt_replay_go(r, next ? from + 1 : pos);
	r->drawn_ns = gt_mono_ns();
	replay_slice(a);
}

bool gt_app_replay_tick(struct gt_app *a, uint64_t now)
{
	struct gt_replay *r = a->replay;
	if (r->moving) {
		if (replay_slice(a))
			return true;
		/* The footer counts the samples read, a few times a second. */
		if (now - r->drawn_ns < REPLAY_DRAW_NS)
			return false;
		r->drawn_ns = now;
		return true;
	}
	if (!r->playing || now < r->next_ns)
		return false;
	r->next_ns = now + a->interval_ns;
	replay_move(a, 0, true);
	return true;
}

void gt_app_replay_branch(struct gt_app *a)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(a->prompt_buf, &end, 10);
	if (errno || end == a->prompt_buf || *end || n < 2 || a->prompt_buf[0] == '-')
		gt_app_note(a, "sample \"%s\" ignored: give a sample number, 2 or more", a->prompt_buf);
	else
		replay_move(a, (uint64_t)n, false);
}

void gt_app_replay_key(struct gt_app *a, enum gt_action act)
{
	struct gt_replay *r = a->replay;
	switch (act) {
	case GT_ACT_BRANCH:
		gt_app_mode(a, GT_MODE_ASK_SAMPLE);
		a->prompt_buf[0] = '\0';
		break;
	case GT_ACT_STEP_NEXT: replay_move(a, 0, true); break;
	case GT_ACT_STEP_BACK: replay_move(a, (r->moving ? r->target : r->pos) - 1, false); break;
	case GT_ACT_REWIND: replay_move(a, 2, false); break;
	case GT_ACT_REFRESH:
		r->playing = !r->playing && !r->at_end;
		r->next_ns = gt_mono_ns() + a->interval_ns;
		replay_note(a);
		break;
	default: break;
	}
}

int gt_app_replay_start(struct gt_app *a, const char *path, struct gt_error *err)
{
	a->replay = calloc(1, sizeof(*a->replay));
	if (!a->replay)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	if (gt_replay_open(a->replay, &a->session, path, err) != 0) {
		gt_session_close(&a->session);
		return -1;
	}
	gt_dashboard_init(&a->db, &a->session);
	gt_app_mode(a, GT_MODE_OPEN);
	replay_note(a);
	return 0;
}
