/* The process picker (gctop without -p): every process gctop can watch,
 * one row each with live figures, sortable. */
#ifndef GCTOP_SESSION_PICKER_H
#define GCTOP_SESSION_PICKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/sample.h"
#include "session/deadline.h"
#include "session/fleet.h"

enum gt_picker_sort {
	GT_SORT_ALLOC = 0,   /* fastest allocator first: where garbage comes from */
	GT_SORT_GC,
	GT_SORT_HEAP,
	GT_SORT_RSS,
	GT_SORT_PID,
	GT_SORT_COUNT,
};

/* What one row shows. */
struct gt_picker_row {
	pid_t pid;
	char user[32];
	char program[256];    /* a server's known name first: "Tomcat (org.apache...)" */
	char command[1024];   /* the whole command line, which the filter searches too */
	const struct gt_runtime_traits *runtime;  /* NULL: unknown */
	char version[GT_NAME_LEN];  /* the runtime's release alone: "17.0.13", "10.0.0" */
	char gc[GT_NAME_LEN];       /* as the collectors name it: "G1", "Z", "Server" ... */
	char sampler[16];           /* --allocators' default source ("jfr", "agent"); "" unknown */
	struct gt_f64 alloc_rate_bps;
	struct gt_f64 gc_share;
	struct gt_u64 heap_used, heap_max, rss;
	const char *note;     /* why the row has no live figures, or NULL */
};

struct gt_picker_slot {
	struct gt_picker_row row;
};

/* The processes and their sessions are the fleet's; the picker keeps the
 * rows made from them, their order and the selection. */
struct gt_picker {
	struct gt_fleet fleet;
	struct gt_picker_slot *slots;
	size_t count, capacity;
	size_t selected;
	size_t top;                 /* first row on screen */
	enum gt_picker_sort sort;
	/* Rows are the processes that hold this text (any case) as
	 * gt_picker_row_matches says; "" shows every one. found
	 * counts the processes before the filter. */
	char filter[64];
	size_t found;
	struct gt_schedule schedule; /* a refresh samples every row */
	char message[512];
};

void gt_picker_init(struct gt_picker *p);
void gt_picker_free(struct gt_picker *p);

/* A fleet round (starts a listing of the processes on its worker, takes
 * in the last one finished, opens new ones, samples every open one), then
 * the rows again, sorted; the selection stays on the same process. */
void gt_picker_refresh(struct gt_picker *p);

/* Sets the filter (cut to its size) and makes the rows again from the
 * fleet as it was last refreshed; the selection stays on its process
 * while it matches. */
void gt_picker_set_filter(struct gt_picker *p, const char *text);

/* Whether a row holds text (any case) in its PID, user, program (with a
 * server's known name), its whole command line, runtime
 * version, --allocators' default source ("jfr"), or a word for its
 * runtime or collector: what the picker shows
 * ("JVM", ".NET", "ZGC", "Wkstn") and what users type ("java",
 * "hotspot", "dotnet", "Z"); every row holds "". Pure. */
bool gt_picker_row_matches(const struct gt_picker_row *r, const char *text);

/* The name a server is known by from its main class or jar and command
 * line ("Tomcat" for org.apache.catalina.startup.Bootstrap; Jetty,
 * WildFly, JBoss, Spring Boot's launchers), or NULL. */
const char *gt_picker_server_name(const char *main, const char *command_line);
/* The PROGRAM column's text: the main class (or else the command line),
 * after a server's known name: "Tomcat (org.apache.catalina.startup.Bootstrap)". */
void gt_picker_program(char *buf, size_t len, const char *main, const char *command_line);

/* The picker's name for a runtime: its display name ("JVM"), or "?". */
const char *gt_picker_runtime_label(const struct gt_runtime_traits *rt);
/* The picker's name for runtime rt's collector named gc by the collectors
 * (model/runtime.h gc_names): whole ("Workstation", "ZGC"), or brief, at
 * most GT_PICKER_GC_BRIEF characters and never cut inside a word ("Wkstn",
 * "Par"). A name the runtime does not list is given back as it is. */
#define GT_PICKER_GC_BRIEF 5
const char *gt_picker_gc_label(const struct gt_runtime_traits *rt, const char *gc, bool brief);

/* The schedule, as a session's: refreshes every interval_ns from now. */
void gt_picker_start(struct gt_picker *p, uint64_t interval_ns, uint64_t now);
/* Refreshes and polls the rows as they are due; true after a refresh. */
bool gt_picker_tick(struct gt_picker *p, uint64_t now);
uint64_t gt_picker_deadline(struct gt_picker *p);

/* The collectors' work between samples for the open rows, as the dashboard
 * does for its target: without it a row's allocation rate misses what the
 * heap counters lost at each collection. 0: no row needs a tick. */
uint64_t gt_picker_poll_interval_ns(const struct gt_picker *p);
void gt_picker_poll(struct gt_picker *p, uint64_t now_ns);
/* The descriptors of gt_picker_wait_fds after a poll: reads the rows
 * whose descriptor is ready, and takes in a listing that has finished
 * (see gt_fleet_events). True when the rows were made again. */
bool gt_picker_events(struct gt_picker *p, const struct pollfd *polled, size_t n, uint64_t now_ns);
/* Up to max descriptors to wait on; returns how many. */
size_t gt_picker_wait_fds(const struct gt_picker *p, int *fds, size_t max);
/* Closes every row's target, keeping the rows; the next refresh opens
 * them again and their rates restart. Called while the picker is not
 * polled (a dashboard is open): an EventPipe session that nobody reads
 * fills its socket, and the runtime then blocks on it, up to holding the
 * process from exiting. */
void gt_picker_close_sessions(struct gt_picker *p);

/* Sorts rows by key, ties by PID. Pure. */
void gt_picker_sort_rows(struct gt_picker_slot *slots, size_t n, enum gt_picker_sort key);

const char *gt_picker_sort_name(enum gt_picker_sort s);

/* Moves the selection by delta rows, clamped. */
void gt_picker_move(struct gt_picker *p, long delta);

/* The PID under the selection, 0 when the list is empty. */
pid_t gt_picker_selected_pid(const struct gt_picker *p);

#endif
