/* Plain /proc reads the .NET collector needs about a target: its TMPDIR and
 * environment, the runtime library it maps and the names of its GC threads. */
#ifndef GCTOP_COLLECTORS_DOTNET_PROC_DOTNET_PROC_H
#define GCTOP_COLLECTORS_DOTNET_PROC_DOTNET_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* TMPDIR from the target's environment, else "/tmp" (no trailing slash). */
void gt_dotnet_proc_tmpdir(pid_t pid, char *out, size_t size);

/* The value of NAME in the target's environment. 0 found, -1 not found or unreadable. */
int gt_dotnet_proc_getenv(pid_t pid, const char *name, char *out, size_t size);

/* 1 when the process maps libcoreclr.so, 0 when not, -1 unreadable. */
int gt_dotnet_proc_maps_coreclr(pid_t pid);

/* How many of the process's threads have a name starting with prefix. */
int gt_dotnet_proc_count_threads(pid_t pid, const char *prefix);

/* 1 when the process's thread whose id in the process's own pid namespace
 * (an EventPipe event's thread id) is tid has a name starting with prefix,
 * 0 when it has another or no such thread is left, -1 unreadable. */
int gt_dotnet_proc_thread_named(pid_t pid, uint64_t tid, const char *prefix);


#endif
