/* Heap-dump collections in gctop's own session (dotnet_inspection.h). */
#include "collectors/dotnet/dotnet_inspection.h"

#include "base/cursor.h"
#include "collectors/dotnet/proc/dotnet_proc.h"

/* GCTriggered (GC keyword, Informational): Reason, ClrInstanceID */
#define EV_GC_TRIGGERED 35
#define GC_REASON_INDUCED 1
/* The thread name the runtime gives its diagnostics server (15 bytes of
 * comm at most). */
#define DIAG_SERVER_THREAD ".NET EventPipe"

static bool known_other(const struct gt_dn_inspection *s, uint64_t tid)
{
	unsigned n = s->n_others < GT_DN_INSPECTION_OTHERS ? s->n_others : GT_DN_INSPECTION_OTHERS;
	for (unsigned i = 0; i < n; i++)
		if (s->others[i] == tid)
			return true;
	return false;
}

static bool diag_server(struct gt_dn_inspection *s, pid_t pid, uint64_t tid)
{
	if (s->have_server)
		return tid == s->server_tid;
	if (known_other(s, tid))
		return false;
	int named = gt_dotnet_proc_thread_named(pid, tid, DIAG_SERVER_THREAD);
	if (named == 1) {
		s->server_tid = tid;
		s->have_server = true;
		return true;
	}
	if (named == 0) /* unreadable is asked again next time */
		s->others[s->n_others++ % GT_DN_INSPECTION_OTHERS] = tid;
	return false;
}

void gt_dn_inspection_event(struct gt_dn_inspection *s, pid_t pid, const struct gt_nettrace_event *e)
{
	if (e->meta->event_id != EV_GC_TRIGGERED || e->payload_len < 4 || gt_le(e->payload, 4) != GC_REASON_INDUCED)
		return;
	if (diag_server(s, pid, e->thread_id))
		s->count++;
}
