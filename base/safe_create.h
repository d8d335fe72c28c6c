/* Creating a file for writing at a path someone else may have prepared.
 *
 * gctop runs as root and -w FILE may name /tmp/x, a directory of another
 * user, or a path through one: a plain open(O_CREAT|O_TRUNC) there follows
 * a planted symbolic link onto any file of root's, empties a hard link of
 * one, or writes into a file another user made and keeps reading. This
 * walks the path one component at a time from descriptors (never by name
 * twice), follows a symbolic link in a directory only when neither its
 * owner nor the directory's can be anyone but root or us (a link another
 * user could make or change is refused), never follows one as the last
 * component, and checks an existing file on the open descriptor before it
 * is emptied. */
#ifndef GCTOP_BASE_SAFE_CREATE_H
#define GCTOP_BASE_SAFE_CREATE_H

#include <sys/types.h>

/* Opens path for writing with flags (O_APPEND, ...; O_WRONLY, O_NOFOLLOW
 * and O_CLOEXEC are added): an existing file only when it is a regular
 * file of our effective user with no other hard link, emptied then;
 * otherwise a new one. Either way its mode is set to exactly `mode` on the
 * descriptor, whatever the umask or the old mode. Returns the descriptor,
 * or -1 with errno and *why: a phrase saying why the path is unsafe ("is a
 * symbolic link", ...) when it was refused, NULL when it failed otherwise
 * (no such directory, no permission: errno says). */
int gt_safe_create(const char *path, mode_t mode, int flags, const char **why);

#endif
