/* The diagnostics IPC client: finds a .NET process's diagnostics socket and
 * runs commands on it (ProcessInfo, CollectTracing, StopTracing). One command
 * per connection, as the runtime serves them. */
#ifndef GCTOP_COLLECTORS_DIAG_IPC_H
#define GCTOP_COLLECTORS_DIAG_IPC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/dotnet/ipc/diag_ipc_wire.h"

/* sun_path holds 108 bytes including the NUL. */
#define GT_DIAG_PATH_MAX 108

/* Finds pid's socket: dotnet-diagnostic-NSPID-KEY-socket in the target's
 * TMPDIR (from its environment, else /tmp), through /proc/PID/root when the
 * target lives in another mount namespace. Only a socket whose key is the
 * process's start time counts (others are stale, of an earlier process with
 * the same pid), except across pid namespaces, where the newest wins.
 * Returns 0 and the path,
 * 1 when there is none, -1 with err set when the path cannot be used. */
int gt_diag_find_socket(pid_t pid, char *path, size_t size, struct gt_error *err);

/* Connects fd to the socket at path. A path gt_diag_find_socket made is
 * walked from the process's root without following links, must be a socket
 * of the process's user, and its listening end must be that process
 * (SO_PEERCRED); otherwise -1 with errno EPROTO. 0, or -1 with errno. */
int gt_diag_connect_checked(int fd, const char *path);

/* Runs ProcessInfo3, falling back to ProcessInfo2 and ProcessInfo on
 * "unknown command". timeout_ms bounds the whole command, fallbacks
 * included (base/wait.h); a quit request ends it at once with err->code
 * GT_EXIT_OK. */
int gt_diag_process_info(pid_t pid, const char *path, int timeout_ms,
			 struct gt_diag_process_info *out, struct gt_error *err);

/* Starts a streaming nettrace session with rundown and stacks as opts
 * says, newest CollectTracing first and older ones on "unknown command", all
 * within timeout_ms. Returns the connected non-blocking socket, positioned
 * at the first byte of the nettrace stream, and the session id; -1 with err
 * set. */
int gt_diag_collect_tracing(pid_t pid, const char *path, int timeout_ms, uint32_t buffer_mb,
				 const struct gt_diag_session_opts *opts,
				 const struct gt_diag_provider *providers, size_t n_providers,
				 uint64_t *session_id, struct gt_error *err);

/* Sends StopTracing for session_id on a new connection and reads the
 * answer, all within timeout_ms. 0, or -1. */
int gt_diag_stop_tracing(const char *path, int timeout_ms, uint64_t session_id);

#endif
