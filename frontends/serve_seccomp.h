/* gctop --serve forbids itself to start a program or to attach to one.
 *
 * --serve runs for months as root with CAP_SYS_PTRACE and CAP_DAC_OVERRIDE
 * and parses what every process on the machine and every client on the
 * network sends it. It never needs execve, execveat or ptrace (it reads
 * targets through /proc, perf-data files and sockets; the agent, with
 * --ops-agent, is loaded through the attach protocol: a file, a signal and
 * a socket), so once it starts they fail with EPERM for every thread:
 * a defect in a parser cannot start a shell or take over another process
 * through ptrace. A seccomp filter, not a systemd setting alone, so that
 * gctop run by hand, by a container runtime or by systemd holds it alike.
 *
 * The filter is a few BPF instructions of our own (no libseccomp): it
 * also refuses every system call of another ABI (i386's int 0x80, x32's
 * numbers), whose exec would have another number. */
#ifndef GCTOP_FRONTENDS_SERVE_SECCOMP_H
#define GCTOP_FRONTENDS_SERVE_SECCOMP_H

#include "base/error.h"

/* LeakSanitizer stops every thread with ptrace when the process exits: a
 * sanitizer build (make SAN=1) leaves ptrace allowed and denies exec alone. */
#if defined(__SANITIZE_ADDRESS__)
#define GT_SERVE_DENIES_PTRACE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GT_SERVE_DENIES_PTRACE 0
#endif
#endif
#ifndef GT_SERVE_DENIES_PTRACE
#define GT_SERVE_DENIES_PTRACE 1
#endif

/* Sets no_new_privs and installs the filter, which every thread started
 * after it inherits: call it while the process has one thread (it refuses
 * otherwise). Returns 0, or -1 with err (GT_EXIT_FAILURE) when the kernel
 * refuses it or the architecture is not one gctop knows. */
int gt_serve_forbid_exec(struct gt_error *err);

#endif
