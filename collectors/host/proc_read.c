/* gt_proc_read_small, in a file of its own because both the process facts
 * (collectors/host/proc.c) and the per-sample stat and status reads
 * (collectors/host/proc_stat.c) read with it. */
#include "collectors/host/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

long gt_proc_read_small(const char *path, char *buf, size_t cap)
{
	if (cap == 0)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = 0;
	while (len + 1 < cap) {
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	int saved = errno;
	close(fd);
	errno = saved;
	buf[len] = '\0';
	return (long)len;
}
