/* --doctor: the findings of one process, watched for -d seconds (ten by
 * default), and an exit status by the worst, for a script or a CI step. */
#include "frontends/doctor.h"

#include "base/clock.h"
#include "base/quit.h"
#include "frontends/batch.h"
#include "model/findings.h"
#include "session/session.h"
#include "writers/findings_out.h"

/* The --doctor report: who was watched and for how long, then the findings. */
static void doctor_report(FILE *out, const struct gt_session *s, double watched_s, const struct gt_findings *f)
{
	const struct gt_target_info *info = &s->info;
	fprintf(out, "gctop --doctor: PID %d (%s %s, GC %s), watched %.1f s\n", (int)info->pid,
		gt_runtime_name(info->runtime), info->runtime_version[0] ? info->runtime_version : "n/a",
		info->gc_name[0] ? info->gc_name : "n/a", watched_s);
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

int gt_doctor_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	gt_batch_install_signals();
	struct gt_session s;
	if (gt_batch_open(opt, &s, err) != 0)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	uint64_t start = gt_mono_ns(), end = start + opt->doctor_ns;
	int status = GT_EXIT_OK;
	gt_session_start(&s, opt->interval_ns, start);
	/* Until the time is up and the sample due then has been taken. */
	while (!gt_quit_requested()) {
		uint64_t now = gt_mono_ns();
		enum gt_session_step step = gt_session_tick(&s, now, err);
		if (step == GT_SESSION_FAILED || step == GT_SESSION_EXITED) {
			status = err->code;
			break;
		}
		if (step == GT_SESSION_SAMPLED && now >= end)
			break;
		gt_batch_wait(&s, gt_session_deadline(&s));
	}
	struct gt_findings f;
	gt_findings_compute(&s.info, s.live.have_derived ? &s.live.derived : NULL, s.live.history, &f);
	doctor_report(out, &s, (double)(gt_mono_ns() - start) / 1e9, &f);
	gt_session_close(&s);
	if (status != GT_EXIT_OK)
		return status;
	return doctor_status(f.worst);
}
