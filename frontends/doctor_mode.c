/* --doctor: the findings of one process, watched for -d seconds (ten by
 * default), and an exit status by the worst, for a script or a CI step. */
#include "frontends/doctor_mode.h"

#include "base/clock.h"
#include "base/quit.h"
#include "frontends/batch_mode.h"
#include "model/findings.h"
#include "model/gc_ceiling.h"
#include "model/history.h"
#include "session/session.h"
#include "views/findings_writer.h"
#include "views/format_ceiling.h"
#include "views/text_writer.h"

/* The --doctor report: who was watched and for how long, then the findings. */
static void doctor_report(FILE *out, const struct gt_session *s, double watched_s, const struct gt_findings *f)
{
	gt_text_write_doctor_header(out, &s->info, watched_s);
	/* The leak question's figures, whatever the findings: a live set whose
	 * trend needs more points than the watch gave says so and why. */
	if (s->live.have_derived)
		gt_text_write_live_set(out, &s->live.derived);
	/* The third seed's lesson: what allocating less can win at most, over
	 * the whole watch. */
	struct gt_history_window w;
	struct gt_gc_ceiling c;
	char line[320];
	gt_history_window(s->live.history, UINT64_MAX, &w);
	gt_gc_ceiling_of(w.pause_share, w.gc_cpu_share, w.cpu_share, &c);
	fprintf(out, "GC cost: %s\n", gt_format_gc_ceiling(line, sizeof(line), &c));
	gt_text_write_findings(out, f);
	fflush(out);
}

static int doctor_status(enum gt_severity worst)
{
	switch (worst) {
	case GT_SEVERITY_INFO: return GT_EXIT_FINDING_INFO;
	case GT_SEVERITY_WARNING: return GT_EXIT_FINDING_WARNING;
	case GT_SEVERITY_CRITICAL: return GT_EXIT_FINDING_CRITICAL;
	case GT_SEVERITY_NONE: break;
	}
	return GT_EXIT_OK;
}

/* The doctor's watch, for its tick. */
struct doctor_run {
	struct gt_session *s;
	uint64_t end;
	struct gt_error *err;
	int status;
};

/* Until the time is up and the sample due then has been taken. */
static bool doctor_tick(void *ctx, uint64_t now)
{
	struct doctor_run *r = ctx;
	enum gt_session_step step = gt_session_tick(r->s, now, r->err);
	if (step == GT_SESSION_FAILED || step == GT_SESSION_EXITED) {
		r->status = r->err->code;
		return false;
	}
	return !(step == GT_SESSION_SAMPLED && now >= r->end);
}

int gt_doctor_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	gt_batch_install_signals();
	struct gt_session s;
	if (gt_batch_open(opt, &s, err) != 0)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	/* --ops-agent: the agent for --ops jmx: alone; one that does not load
	 * leaves the operations n/a, with why, not the findings undone. */
	struct gt_error agent_err = { 0 };
	if (opt->ops_agent && gt_session_enable_opcount_agent(&s, &agent_err) != 0)
		fprintf(stderr, "gctop: %s\n", agent_err.msg);
	uint64_t start = gt_mono_ns();
	struct doctor_run r = { &s, start + opt->doctor_ns, err, GT_EXIT_OK };
	gt_session_start(&s, opt->interval_ns, start);
	if (gt_batch_drive(&s, doctor_tick, &r, err) != 0)
		r.status = GT_EXIT_FAILURE;
	struct gt_findings f;
	gt_findings_compute(&s.info, s.live.have_derived ? &s.live.derived : NULL, s.live.history, &f);
	doctor_report(out, &s, (double)(gt_mono_ns() - start) / 1e9, &f);
	gt_session_close(&s);
	if (r.status != GT_EXIT_OK)
		return r.status;
	return doctor_status(f.worst);
}
