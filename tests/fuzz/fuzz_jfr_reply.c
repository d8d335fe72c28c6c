/* Fuzz target: whatever a JVM answers to gctop's JFR.* commands, judging
 * it, finding its repository path, its gctop recordings and, as a release
 * file, its modules stays in bounds; a path found is absolute, NUL-ended
 * and free of control bytes, and each recording name is gctop's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/jfr/jfr_available.h"
#include "collectors/hotspot/jfr/jfr_reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_LISTED 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char why[JFR_REPLY_WHY_LEN];
	(void)jfr_reply_verdict(text, size, "Started recording", why, sizeof(why));
	if (memchr(why, 0, sizeof(why)) == NULL)
		abort();
	for (size_t i = 0; why[i]; i++)
		if ((unsigned char)why[i] < 0x20 || why[i] == 0x7f)
			abort();
	char path[256];
	if (jfr_reply_repository(text, size, path, sizeof(path)) == 0) {
		if (path[0] != '/' || memchr(path, 0, sizeof(path)) == NULL || strstr(path, "/../"))
			abort();
		for (size_t i = 0; path[i]; i++)
			if ((unsigned char)path[i] < 0x20)
				abort();
	}
	struct jfr_listed l[FUZZ_LISTED];
	size_t n = jfr_reply_recordings(text, size, l, FUZZ_LISTED);
	if (n > FUZZ_LISTED)
		abort();
	for (size_t i = 0; i < n; i++) {
		pid_t pid;
		if (memchr(l[i].name, 0, sizeof(l[i].name)) == NULL || !jfr_name_parse(l[i].name, &pid) || pid <= 0)
			abort();
	}
	int r = jfr_available_release(text, size);
	if (r < -1 || r > 1)
		abort();
	return 0;
}
