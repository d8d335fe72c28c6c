#include "frontends/batch_mode.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "session/driver.h"
#include "model/findings.h"
#include "record/feed.h"
#include "record/record_reader.h"
#include "views/findings_writer.h"
#include "views/json_writer.h"
#include "record/record_writer.h"
#include "views/text_writer.h"
#include "session/session.h"

void gt_batch_install_signals(void)
{
	/* The quit flag also ends a collector's wait on a slow target. */
	gt_quit_install();
	/* `gctop --json | head` must end quietly: a closed pipe is seen as EPIPE. */
	signal(SIGPIPE, SIG_IGN);
}

/* a: top allocators over the window, NULL when --allocators is off; st:
 * the stacks behind their sites, or NULL; f: the session's findings. */
static int batch_write(const struct gt_options *opt, FILE *out, const struct gt_target_info *info,
		       const struct gt_derived *d, const struct gt_alloc_derived *a, const struct gt_alloc_stacks *st,
		       const struct gt_findings *f)
{
	if (opt->mode == GT_MODE_JSON) {
		struct json_object *o = gt_json_sample(info, d);
		gt_json_add_allocators_stacks(o, a, st);
		gt_json_add_findings(o, f);
		int rc = gt_json_write_line(out, o);
		json_object_put(o);
		return rc;
	}
	return gt_text_write_block_from(out, opt->replay_path, info, d, a, st, f);
}

int gt_batch_drive(struct gt_session *s, bool (*tick)(void *ctx, uint64_t now), void *ctx, struct gt_error *err)
{
	struct gt_driver_source sources[] = {
		{ .ctx = ctx, .tick = tick },
		gt_driver_session_source(s),
	};
	/* the collector is polled at every wake but a quit or a signal (a quit
	 * ends the loop; no other signal has a handler here) */
	sources[1].read_every_wait = true;
	struct gt_driver d;
	if (gt_driver_init(&d, sources, 2, err) != 0)
		return -1;
	gt_driver_run(&d);
	gt_driver_free(&d);
	return 0;
}

/* Writes d, the session's newest figures, with its findings. */
static int batch_emit(const struct gt_options *opt, FILE *out, const struct gt_session *s, const struct gt_derived *d)
{
	const struct gt_alloc_derived *a = s->alloc_fresh ? s->live.alloc : NULL;
	struct gt_findings f;
	gt_findings_compute(&s->info, d, s->live.history, &f);
	return batch_write(opt, out, &s->info, d, a, a ? s->live.stacks : NULL, &f);
}

/* After a sample: writes it unless it is the first. Returns 1 when the
 * loop is done (-n reached, the output closed), -1 on a write error. */
static int batch_output(const struct gt_options *opt, FILE *out, const struct gt_session *s, long *written,
			struct gt_error *err)
{
	/* The first sample is the start of the first interval, not an output:
	 * alone it has no rate, and `-n 1` must give figures. */
	if (s->samples < 2)
		return 0;
	if (batch_emit(opt, out, s, &s->live.derived) != 0) {
		if (errno == EPIPE)
			return 1;
		gt_fail(err, GT_EXIT_FAILURE, "cannot write the output: %s", strerror(errno));
		return -1;
	}
	return opt->count && ++*written >= opt->count;
}

/* The target has exited: one last output says so (state exited), with
 * the last sample's figures and time again, since no new interval was
 * seen; a reader can tell it from the one before by its state alone. */
static void batch_exited(const struct gt_options *opt, FILE *out, const struct gt_session *s)
{
	if (!s->live.have_derived)
		return;
	struct gt_derived last = s->live.derived;
	last.cur.state = GT_TARGET_EXITED;
	batch_emit(opt, out, s, &last);
}

/* The longest the first output's sample may wait past its interval for the
 * collector's first figures (.NET: the runtime sends its allocation counter
 * a second after the session started, later on a loaded machine; the
 * collector bounds the wait by when it expects it), so that -n 1 has its
 * rates. */
#define BATCH_SETTLE_MS 3000

/* The batch loop's state, for its tick. */
struct batch_run {
	const struct gt_options *opt;
	FILE *out;
	struct gt_session *s;
	struct gt_recorder *rec;   /* -w's recorder, or NULL */
	struct gt_error *err;
	long written;
	int status;
};

/* After a sample: records and writes it. False when the loop is done. */
static bool batch_sampled(struct batch_run *b)
{
	if (b->rec && gt_recorder_write(b->rec, b->s, b->err) != 0) {
		b->status = GT_EXIT_FAILURE;
		return false;
	}
	int done = batch_output(b->opt, b->out, b->s, &b->written, b->err);
	if (done < 0)
		b->status = GT_EXIT_FAILURE;
	return done == 0;
}

/* The loop's turn before the wait; false when it is done (b->status). */
static bool batch_tick(void *ctx, uint64_t now)
{
	struct batch_run *b = ctx;
	struct gt_session *s = b->s;
	(void)now;   /* the settle may wait: each step reads the clock anew */
	/* the first output's sample, due: the wait overlaps its interval */
	if (s->samples == 1 && gt_schedule_sample_due(&s->schedule, gt_mono_ns()))
		gt_session_settle(s, gt_wait_deadline_in_ms(BATCH_SETTLE_MS));
	enum gt_session_step step = gt_session_tick(s, gt_mono_ns(), b->err);
	if (step == GT_SESSION_EXITED && !gt_quit_requested())
		batch_exited(b->opt, b->out, s);
	if (step == GT_SESSION_FAILED || step == GT_SESSION_EXITED) {
		b->status = gt_quit_requested() ? GT_EXIT_OK : b->err->code;
		return false;
	}
	return step != GT_SESSION_SAMPLED || batch_sampled(b);
}

static int batch_loop(const struct gt_options *opt, FILE *out, struct gt_session *s, struct gt_recorder *rec,
		      struct gt_error *err)
{
	struct batch_run b = { opt, out, s, rec, err, 0, GT_EXIT_OK };
	gt_session_start(s, opt->interval_ns, gt_mono_ns());
	if (gt_batch_drive(s, batch_tick, &b, err) != 0)
		return GT_EXIT_FAILURE;
	return b.status;
}

/* -r: the recording's samples fed to a session and written like live ones,
 * as fast as they are read. */
static int batch_replay(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	struct gt_record_reader *r = gt_record_open(opt->replay_path, err);
	if (!r)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	struct gt_session s;
	if (gt_session_init(&s, gt_record_info(r), err) != 0) {
		gt_record_close(r);
		return err->code;
	}
	long written = 0;
	int status = GT_EXIT_OK, rc = 0;
	struct gt_sample cur;
	while (!gt_quit_requested() && (rc = gt_feed_next(r, &s, &cur, GT_FEED_ALL, err)) > 0) {
		int done = batch_output(opt, out, &s, &written, err);
		if (done != 0) {
			rc = done < 0 ? -1 : 0;
			break;
		}
	}
	/* A quit signal while the reader waited or read is an interrupt: status 0. */
	if (rc < 0)
		status = gt_quit_requested() ? GT_EXIT_OK : err->code ? (int)err->code : GT_EXIT_FAILURE;
	else if (gt_record_truncated(r))
		fprintf(stderr, "gctop: the recording ends in a partial line (%s); that line was skipped\n",
			gt_record_disk_full(r) ? "the disk holding it is full: the line was cut when it filled up"
					       : "gctop was stopped while writing it, or its disk filled up");
	gt_session_close(&s);
	gt_record_close(r);
	return status;
}

int gt_batch_open(const struct gt_options *opt, struct gt_session *s, struct gt_error *err)
{
	if (gt_session_open(s, opt->pid, err) != 0)
		return -1;
	if (opt->opcount_counter && gt_session_set_opcount(s, opt->opcount_counter, err) != 0) {
		gt_session_close(s);
		return -1;
	}
	return 0;
}

int gt_batch_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	gt_batch_install_signals();
	if (opt->replay_path)
		return batch_replay(opt, out, err);
	struct gt_session s;
	if (gt_batch_open(opt, &s, err) != 0)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	if (opt->allocators && gt_session_enable_allocators(&s, opt->allocator_packages, opt->allocator_source, err) != 0) {
		gt_session_close(&s);
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	}
	struct gt_recorder *rec = NULL;
	if (opt->record_path && !(rec = gt_recorder_open(opt->record_path, err))) {
		gt_session_close(&s);
		return err->code;
	}
	int status = batch_loop(opt, out, &s, rec, err);
	gt_recorder_close(rec);
	gt_session_close(&s);
	return status;
}
