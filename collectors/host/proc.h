/* Process facts of one PID at a time (no /proc walk per tick): the user and
 * command line through libproc2 when a target opens, each sample's figures
 * from /proc/PID/stat and status (proc_stat.c says why by hand). */
#ifndef GCTOP_COLLECTORS_PROC_H
#define GCTOP_COLLECTORS_PROC_H

#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/sample.h"

struct gt_proc;

/* Checks that /proc is usable (before any libproc2 call, which would _exit). */
int gt_proc_check_mounted(struct gt_error *err);

/* Checks first what must hold before anything about pid is read: /proc is
 * usable, and pid names a process (else GT_EXIT_NO_PROCESS). */
struct gt_proc *gt_proc_open(pid_t pid, struct gt_error *err);

/* Fills rss/anon/file/swap, cpu ticks and hz, threads, and the host's
 * memory (read at open: the bound the derive step holds the target's
 * memory figures to). Returns 0, or 1 when
 * the process has exited (nothing filled). */
int gt_proc_sample(struct gt_proc *p, struct gt_sample *out);

/* Fills user, start_time_ms, command_line and nspid of info (runtime fields untouched). */
void gt_proc_fill_info(pid_t pid, struct gt_target_info *info);

void gt_proc_close(struct gt_proc *p);

/* /proc/PID/stat's fields that a sample uses. */
struct gt_proc_stat {
	char state;
	unsigned long long utime, stime;   /* clock ticks */
	unsigned long long threads;
	unsigned long long start_ticks;    /* field 22: clock ticks since boot */
};

/* /proc/PID/status's memory lines, in KiB (0: the line is missing). */
struct gt_proc_status {
	unsigned long long rss_kib, anon_kib, file_kib, swap_kib;
};

/* Room for either file: stat is one line of 52 numbers (a few hundred
 * bytes), status about 1.5 KiB; a cut status still holds the Vm lines
 * gctop reads, which come before the signal masks and the cpu lists. */
#define GT_PROC_STAT_TEXT 2048
#define GT_PROC_STATUS_TEXT 4096

/* Parse a stat file's text: 0, or -1 when it is not one. */
int gt_proc_parse_stat(const char *text, struct gt_proc_stat *out);
void gt_proc_parse_status(const char *text, struct gt_proc_status *out);
/* /proc/meminfo's MemTotal in KiB (0: the line is missing). The file has
 * the status file's "Key:  N kB" lines; its first line is MemTotal. */
unsigned long long gt_proc_parse_mem_total_kib(const char *text);
/* Room for the start of /proc/meminfo: MemTotal is its first line. */
#define GT_PROC_MEMINFO_TEXT 256

/* Read and parse pid's files: 0, or -1 (gone, hidden or unreadable). */
int gt_proc_read_stat(pid_t pid, struct gt_proc_stat *out);
int gt_proc_read_status(pid_t pid, struct gt_proc_status *out);

/* Cheap helpers shared by collectors (plain /proc reads). */
int gt_proc_exists(pid_t pid);
/* 1 when pid maps a file whose path holds `part` ("/libjvm.so"), 0 when
 * not, -1 when its maps are closed to us. */
int gt_proc_maps_file(pid_t pid, const char *part);                          /* 1 yes, 0 no */
int gt_proc_nspid(pid_t pid, pid_t *nspid);             /* innermost NSpid; 0 ok, -1 error */
int gt_proc_euid(pid_t pid, uid_t *uid);                /* effective uid (status "Uid:"); 0 ok, -1 error */
int gt_proc_parse_nspid(const char *status_text, pid_t *nspid); /* the same, from a status file's text */
int gt_proc_start_ticks(pid_t pid, unsigned long long *ticks); /* stat field 22, clock ticks since boot */
int gt_proc_start_time_ms(pid_t pid, uint64_t *ms);     /* from stat field 22 and btime */
int gt_proc_same_mount_ns(pid_t pid);                   /* 1 same as ours, 0 other, -1 unknown */

/* The monotonic line of a /proc/PID/timens_offsets text ("monotonic SECS
 * NSECS", that time namespace's CLOCK_MONOTONIC less the initial one's):
 * 0 with *ns, -1 when there is none or it is malformed. */
int gt_proc_parse_timens_monotonic(const char *text, int64_t *ns);
/* pid's CLOCK_MONOTONIC minus ours (0 without time namespaces): 0, or -1
 * when either's offset cannot be read (collectors/host/timens.c). */
int gt_proc_monotonic_offset(pid_t pid, int64_t *ns);

/* Reads a small file (a /proc entry) whole into buf, NUL-terminated and cut
 * at cap - 1 bytes. Returns its length, or -1 with errno set. */
long gt_proc_read_small(const char *path, char *buf, size_t cap);

#endif
