/* Whether a JVM offers the flight recorder (jfr_available.h). */
#include "collectors/hotspot/jfr/jfr_available.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collectors/host/safe_path.h"
#include "collectors/hotspot/jfr/jfr_recording.h"

/* A release file is a few KiB; the MODULES line is in its first 16. */
#define JFR_RELEASE_MAX 16384

int jfr_available_release(const char *text, size_t len)
{
	static const char key[] = "MODULES=";
	for (size_t i = 0; i < len;) {
		const char *line = text + i, *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;
		i += n + 1;
		if (n < sizeof(key) - 1 || memcmp(line, key, sizeof(key) - 1) != 0)
			continue;
		/* a whole word: "jdk.jfr" but not "jdk.jfrx" */
		for (size_t j = sizeof(key) - 1; j + 7 <= n; j++) {
			bool start = line[j - 1] == ' ' || line[j - 1] == '"' || line[j - 1] == '=';
			bool end = j + 7 == n || line[j + 7] == ' ' || line[j + 7] == '"';
			if (start && end && memcmp(line + j, "jdk.jfr", 7) == 0)
				return 1;
		}
		return 0;
	}
	return -1;
}

/* 1 the image beside /proc/PID/exe lists jdk.jfr, 0 it does not, -1 unknown. */
static int jfr_available_image(pid_t pid)
{
	char exe[PATH_MAX], path[PATH_MAX + 16];
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(link, exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	/* <home>/bin/java: the release file is <home>/release */
	char *bin = strrchr(exe, '/');
	if (!bin || strcmp(bin, "/java") != 0)
		return -1;
	*bin = '\0';
	char *home = strrchr(exe, '/');
	if (!home || strcmp(home, "/bin") != 0)
		return -1;
	*home = '\0';
	snprintf(path, sizeof(path), "%s/release", exe);
	int root = gt_sp_open_root(pid);
	int fd = root >= 0 ? gt_sp_openat(root, path, O_RDONLY, 0) : -1;
	if (root >= 0)
		close(root);
	if (fd < 0)
		return -1;
	char text[JFR_RELEASE_MAX];
	ssize_t got = read(fd, text, sizeof(text));
	close(fd);
	return got > 0 ? jfr_available_release(text, (size_t)got) : -1;
}

/* -XX:-FlightRecorder among the JVM's arguments (NUL-separated). */
static bool jfr_available_disabled(pid_t pid)
{
	static const char flag[] = "-XX:-FlightRecorder";
	char path[64], args[8192];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, args, sizeof(args));
	close(fd);
	for (ssize_t i = 0; i < n;) {
		size_t l = strnlen(args + i, (size_t)(n - i));
		if (l == sizeof(flag) - 1 && memcmp(args + i, flag, l) == 0)
			return true;
		i += (ssize_t)l + 1;
	}
	return false;
}

void jfr_available_sources(pid_t pid, unsigned jdk_major, char *out, size_t len)
{
	int image = jfr_available_image(pid);
	if (image < 0 || jdk_major == 0) {
		snprintf(out, len, "%s", "");
		return;
	}
	bool off = jfr_available_disabled(pid);
	snprintf(out, len, "%s", image == 1 && !off && jdk_major >= JFR_MIN_JDK ? "jfr,agent" : "agent");
}
