/* A directory stream from a descriptor gctop opened itself. */
#ifndef GCTOP_BASE_DIR_H
#define GCTOP_BASE_DIR_H

#include <dirent.h>

/* fdopendir(fd), which owns fd once it succeeds; when it fails, or fd is
 * already -1 (a failed open), fd is closed and NULL returned with the errno
 * of the first failure, so callers need no cleanup of their own. */
DIR *gt_dir_adopt(int fd);

#endif
