/* The fleet (session/fleet.h): many sessions, opened without freezing the
 * holder's loop, listed only as often as the policy needs. Its life here;
 * its members, open step, listing and rounds in the files
 * session/fleet_internal.h names. */
#include "session/fleet_internal.h"

#include <stdlib.h>
#include <string.h>

#include "collectors/host/cgroup.h"

int gt_fleet_init(struct gt_fleet *f, const struct gt_fleet_policy *policy, const pid_t *only, size_t n_only)
{
	memset(f, 0, sizeof(*f));
	f->policy = *policy;
	f->disc.next_open_ns = FLEET_NEVER;
	gt_fleet_worker_init(&f->disc.run);
	f->disc.run.opcount = f->policy.opcount_counter;
	f->disc.run.opcount_agent = f->policy.opcount_agent;
	f->disc.run.opcount_agent_match = f->policy.opcount_agent_match;
	if (!n_only)
		return 0;
	f->only = malloc(n_only * sizeof(*only));
	if (!f->only)
		return -1;
	memcpy(f->only, only, n_only * sizeof(*only));
	f->n_only = n_only;
	return 0;
}

void gt_fleet_free(struct gt_fleet *f)
{
	/* first: the worker reads nothing of the fleet, but ends at once */
	gt_fleet_worker_free(&f->disc.run);
	for (size_t i = 0; i < f->count; i++)
		gt_fleet_member_close(&f->m[i]);
	free(f->m);
	free(f->waits);
	free(f->polls);
	free(f->only);
	free(f->findings_scratch);
	gt_fleet_tmp_free(&f->disc.tmp);
	free(f->disc.pids);
	gt_cgroup_rounds_free();
	memset(f, 0, sizeof(*f));
}

void gt_fleet_close_sessions(struct gt_fleet *f)
{
	/* the worker's opens too: they come back without targets */
	gt_fleet_worker_cancel(&f->disc.run);
	f->waits_stale = true;
	for (size_t i = 0; i < f->count; i++) {
		gt_fleet_member_close(&f->m[i]);
		f->m[i].retry_ns = 0;
		f->m[i].note = NULL;
		f->m[i].sampled = false;
	}
	gt_fleet_rebuild_waits(f);
}
