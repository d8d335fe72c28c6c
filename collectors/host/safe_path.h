/* Path walks under a target's root that the target cannot redirect.
 *
 * Everything below /proc/PID/root or /proc/PID/cwd is the target owner's to
 * change, including while gctop walks it: a symbolic link there resolves
 * against *our* root, so a plain open() of "/proc/PID/root/tmp/x" can land in
 * any directory of ours. Every file gctop opens, creates or removes under a
 * target's root or cwd goes through here instead: resolved from a directory
 * fd taken as the root (openat2 RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS, or a
 * walk that opens each component with O_NOFOLLOW where openat2 is missing
 * or refused by a seccomp filter),
 * and removed by name relative to the directory it was made in. */
#ifndef GCTOP_COLLECTORS_SAFE_PATH_H
#define GCTOP_COLLECTORS_SAFE_PATH_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/* An O_PATH descriptor of pid's root directory (/proc/PID/root); when that
 * cannot be opened and pid shares our mount namespace, of "/". -1 with
 * errno on failure. */
int gt_sp_open_root(pid_t pid);

/* An O_PATH descriptor of pid's working directory, or -1 with errno. */
int gt_sp_open_cwd(pid_t pid);

/* Opens rel (absolute or relative; taken relative to rootfd, which is its
 * "/") with flags (O_NOFOLLOW, O_CLOEXEC and O_NOCTTY are added) and mode
 * for O_CREAT. No component may be a symbolic link (ELOOP or ENOTDIR) and
 * ".." never leaves rootfd (openat2 stops it at the root, the walk refuses
 * it with EXDEV). With O_PATH a final symbolic link is opened as itself:
 * such callers check the type with fstat. Returns the fd or -1 with errno. */
int gt_sp_openat(int rootfd, const char *rel, int flags, mode_t mode);

/* The same with the component-by-component walk (what gt_sp_openat uses
 * where openat2 does not exist); exposed for the unit tests. */
int gt_sp_openat_walk(int rootfd, const char *rel, int flags, mode_t mode);

/* True when the directory dirfd is somewhere gctop may create files for a
 * process of uid `owner`: a directory owned by that user, or a sticky
 * world-writable one (/tmp). Anywhere else the owner could have pointed us
 * at a directory of someone else. */
bool gt_sp_dir_fit_for_create(int dirfd, uid_t owner);

/* Removes name from dirfd if it still is the file `was` (same device and
 * inode, never followed). 0, or -1 with errno (ESTALE when it was replaced). */
int gt_sp_unlink_same(int dirfd, const char *name, const struct stat *was);

/* "/proc/self/fd/N" for fd: connect() through it reaches the socket the
 * O_PATH descriptor fd names, whatever its path has become since. */
void gt_sp_fd_path(int fd, char *buf, size_t len);

/* Connects the AF_UNIX socket sock to the socket rel names under dirfd
 * (walked as gt_sp_openat does) without a second path walk: the name is
 * opened O_PATH, checked to be a socket owned by `owner`, and connected
 * through /proc/self/fd. Then the listening end must be process peer_pid
 * with uid owner (SO_PEERCRED), unless peer_pid is 0. 0, or -1 with errno:
 * EPROTO when the file or the peer is not the one expected. */
int gt_sp_connect_unix(int sock, int dirfd, const char *rel, uid_t owner, pid_t peer_pid);

#endif
