/* A fleet: every JVM and .NET process the user can see (or only the given
 * pids), each a session, keyed by pid. The picker's rows and gctop --serve
 * both hold one; each asks for its own policy.
 *
 * A round (gt_fleet_refresh) takes in what the fleet's worker finished
 * (session/fleet_worker.h: a listing, or opens), samples every open
 * process, drops those gone, and gives the worker its next step: the new
 * processes to open (not too young), else a listing when due. With the
 * policy's round_ns (--serve), the fleet also keeps a clock of its own
 * between rounds (gt_fleet_watch): new processes found from /tmp and
 * opened as soon as they are old enough, gone ones dropped. A runtime
 * slow to answer holds the worker, never the round, so neither the screen
 * nor --serve's sampling waits for a listing or an open. Sessions keep no history (neither holder shows one,
 * and at 100 KiB each a few hundred would be most of gctop's memory).
 * Each .NET session is an EventPipe session, which the holder must keep
 * reading (poll on every wait fd) or close (gt_fleet_close_sessions). */
#ifndef GCTOP_SESSION_FLEET_H
#define GCTOP_SESSION_FLEET_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/findings.h"
#include "model/history.h"
#include "model/pause_hist.h"
#include "model/sample.h"
#include "session/fleet_worker.h"
#include "session/fleet_tmp.h"
#include "session/session.h"

struct gt_fleet_policy {
	/* A process younger than this may still be starting (a JVM writing
	 * its perf data), and opening it would wait for it: it is opened on a
	 * later round. */
	uint64_t open_min_age_ms;
	/* false: list every process every round. true: list only when a new
	 * process may be there (see FLEET_LIST_EVERY_NS in fleet_list.c); rounds
	 * between sample the known ones. */
	bool list_on_change;
	/* false: a process that could not be opened or read stays so (its
	 * note says why) until gt_fleet_close_sessions. true: it is tried again
	 * FLEET_RETRY_NS later, unless it refused permission or exited. */
	bool retry;
	/* --serve --ops NAME: the perf-data counter of operations every JVM's
	 * session counts (a .NET process counts its own requests), or NULL. */
	const char *opcount_counter;
	/* Each member's findings (--serve's gctop_finding), over its last
	 * GT_FLEET_FINDING_POINTS intervals (session/fleet_findings.c). */
	bool findings;
	/* --ops-agent: the worker loads gctop's agent into each JVM whose
	 * counter lives inside it (--ops jmx:), for that counter alone; with
	 * opcount_agent_match (--ops-agent-match, a shell pattern), only into
	 * those whose main class or command line matches it
	 * (gt_fleet_agent_chosen). */
	bool opcount_agent;
	const char *opcount_agent_match;
	/* The holder's interval between rounds (--serve's -d), or 0 (the
	 * picker: its rounds drive everything). With it, the fleet keeps a
	 * clock of its own between rounds (gt_fleet_watch): it looks for new
	 * processes and opens them, and drops those gone, so that neither waits
	 * for a round; a listing leaves out every member, opened or not (it
	 * reads only pids not seen before); and a member whose collector's tick
	 * is the idle one (FLEET_IDLE_TICK_NS) or no faster than the rounds is
	 * read at the rounds alone. */
	uint64_t round_ns;
};

/* A member's findings: the model's rules (model/findings.h) over its last
 * intervals, the few points of them a fleet keeps instead of a history. */
#define GT_FLEET_FINDING_POINTS 64
struct gt_fleet_findings {
	struct gt_history_point points[GT_FLEET_FINDING_POINTS];
	size_t head, count;
	unsigned n;                       /* what holds now, worst first */
	struct gt_finding_brief found[GT_FINDINGS_MAX];
};

struct gt_fleet_member {
	pid_t pid;
	struct gt_target_info listed;     /* identity, from the listing that found it */
	struct gt_u64 heap_used, heap_max, rss; /* the newest listing's cheap figures */
	struct gt_session *session;       /* NULL when not open */
	struct gt_pause_hist pauses;      /* single pauses since the session opened */
	struct gt_fleet_findings *findings; /* with the policy's findings, once sampled; else NULL */
	double watch_start_s;             /* when it opened, seconds since the epoch */
	const char *note;                 /* why it has no live figures, or NULL */
	uint64_t retry_ns;                /* CLOCK_MONOTONIC before which no open is tried */
	uint64_t next_poll_ns;            /* CLOCK_MONOTONIC when its collector's tick is next due (0: now;
					   * UINT64_MAX: at the rounds only) */
	unsigned quiet_rounds;            /* samples since its findings were last computed (fleet_findings.c) */
	bool sampled;                     /* the newest round sampled its session */
	bool opening;                     /* the worker is opening it */
	bool seen;                        /* still there at the newest round */
	bool fresh;                       /* opened since its last sample: sampled at once (policy round_ns) */
	int wait_fd;                      /* its session's descriptor to wait on, or -1 (fleet_members.c: wait list) */
	bool wait_lags;                   /* ... whose data may wait a little (gt_session_wait_may_lag) */
};

/* A descriptor to wait on, and whose it is (an index into the members). */
struct gt_fleet_wait {
	int fd;
	size_t member;
	bool lags;
};

/* What the last full listing saw, to tell whether another is needed. */
struct gt_fleet_discovery {
	struct gt_fleet_tmp tmp;   /* /tmp as last read (session/fleet_tmp.h) */
	uint64_t tmp_stamp;        /* the hsperfdata_* directories and .NET sockets of /tmp, summed
				    * (with the policy's round_ns, the sockets alone) */
	uint64_t dirs_stamp;       /* with round_ns: the directories alone */
	bool discover;             /* ... which changed since gt_fleet_discover last read them */
	uint64_t listed_ns;        /* CLOCK_MONOTONIC of the last listing, 0: never */
	uint64_t changed_ns;       /* ... of the last change of tmp_stamp */
	uint64_t next_open_ns;     /* CLOCK_MONOTONIC when a member noted starting is old enough, or UINT64_MAX */
	uint64_t next_watch_ns;    /* ... of gt_fleet_watch's next look (policy round_ns), 0: now */
	uint64_t swept_ns;         /* ... of its last look for members gone */
	pid_t *pids;               /* the pids /tmp named at the last look (gt_fleet_discover) */
	size_t pids_cap;
	struct gt_fleet_worker run;  /* the listings' and opens' worker (session/fleet_worker.h) */
	bool listed;               /* a listing has been taken in */
};

struct gt_fleet {
	struct gt_fleet_policy policy;
	pid_t *only;               /* the pids to watch; n_only 0: every process */
	size_t n_only;
	struct gt_fleet_discovery disc;
	struct gt_fleet_member *m; /* by pid */
	size_t count, capacity;
	size_t n_sorted;           /* m[0..n_sorted) are in pid order (the rest came since the last prune) */
	struct gt_fleet_wait *waits;  /* the members' wait_fd that are open, in member order */
	size_t n_waits, waits_capacity;
	bool waits_stale;             /* a member's wait_fd or the members changed */
	size_t *polls;                /* the members whose next_poll_ns is not UINT64_MAX (by index) */
	size_t n_polls, polls_capacity;
	bool polls_stale;             /* a member's next_poll_ns became or left UINT64_MAX, or the members changed */
	bool changed;                 /* members became live or went since the holder last published */
	struct gt_history *findings_scratch; /* the history a member's points are read into */
};

/* only: the pids to watch (n_only 0: every process). Returns 0, or -1 when
 * out of memory. */
int gt_fleet_init(struct gt_fleet *f, const struct gt_fleet_policy *policy, const pid_t *only, size_t n_only);
void gt_fleet_free(struct gt_fleet *f);

/* One round (see above). Members stay in pid order. */
void gt_fleet_refresh(struct gt_fleet *f);

/* Between rounds, with the policy's round_ns: at its own clock
 * (FLEET_WATCH_NS), starts a listing when /tmp says a process may have
 * come, opens those old enough (at the moment each is), and, when the
 * rounds are further apart than FLEET_SWEEP_NS, drops the members whose
 * process has gone. A member opened here has its first sample at once.
 * True, at most once a FLEET_WATCH_NS, when members became live or went
 * since the last round or the last true: the holder publishes them then,
 * not only at its next round. */
bool gt_fleet_watch(struct gt_fleet *f, uint64_t now_ns);
/* When gt_fleet_watch is next due (CLOCK_MONOTONIC; UINT64_MAX without
 * the policy's round_ns). */
uint64_t gt_fleet_next_watch_ns(const struct gt_fleet *f);

/* Whether a listing has been taken in: before, no member means "not known
 * yet", not "none". */
static inline bool gt_fleet_listed(const struct gt_fleet *f)
{
	return f->disc.listed;
}

/* Whether the member has figures of its own: an open session with a
 * sample (its prev, live.derived and info). */
static inline bool gt_fleet_member_live(const struct gt_fleet_member *m)
{
	return m->session && m->session->have_prev;
}

/* The collectors' work between rounds (see struct gt_backend_ops): the
 * shortest tick of any member, and a poll of the members whose own tick is
 * due (an idle JVM's is a second, a collecting one's a few milliseconds:
 * each is read at its own, not at the fastest one's). */
uint64_t gt_fleet_poll_interval_ns(const struct gt_fleet *f);
void gt_fleet_poll(struct gt_fleet *f, uint64_t now_ns);
/* When gt_fleet_poll is next due: the earliest of the members' own ticks
 * (CLOCK_MONOTONIC; UINT64_MAX when none polls). Cheaper than
 * gt_fleet_poll_interval_ns, which asks every collector: it and
 * gt_fleet_poll walk only the members with a tick between rounds. */
uint64_t gt_fleet_next_poll_ns(const struct gt_fleet *f);
/* The descriptors of gt_fleet_wait_fds after a poll (n of them, in the
 * same order): reads the members whose descriptor is ready (their sessions
 * are read continuously), not the others, and takes in a listing that has
 * finished, or opens (a listing's new members are opened from the next
 * round). True when the members changed (a listing or opens came). */
bool gt_fleet_events(struct gt_fleet *f, const struct pollfd *polled, size_t n, uint64_t now_ns);
/* Up to max descriptors to wait on, a running listing's first; returns
 * how many. */
size_t gt_fleet_wait_fds(const struct gt_fleet *f, int *fds, size_t max);
/* The same, leaving out those whose data may wait a little (a .NET
 * session's: gt_session_wait_may_lag), for a loop that reads those only
 * every so often. */
size_t gt_fleet_wait_fds_prompt(const struct gt_fleet *f, int *fds, size_t max);
/* Closes every session, keeping the members; the next round opens them
 * again (their rates restart), whatever stopped them before. */
void gt_fleet_close_sessions(struct gt_fleet *f);

#endif
