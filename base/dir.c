#include "base/dir.h"

#include <errno.h>
#include <unistd.h>

DIR *gt_dir_adopt(int fd)
{
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}
