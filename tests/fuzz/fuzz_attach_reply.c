/* Fuzz target: whatever a process on the attach socket answers, parsing it
 * and judging it as a `load` reply stays in bounds; the same bytes as a
 * /proc status text, as a trigger's mark and as a line of /proc/PID/maps
 * too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/attach/hotspot_attach.h"
#include "collectors/hotspot/attach/hotspot_attach_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_attach_reply r;
	struct gt_error err;
	if (gt_attach_parse_reply((const char *)data, size, &r) == 0) {
		if (memchr(r.message, 0, sizeof(r.message)) == NULL)
			abort();
		gt_attach_load_result(&r, 1, &err);
	}
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct gt_attach_status st;
	if (gt_attach_parse_status(text, 1, &st) == 0)
		(void)gt_attach_catches_sigquit(&st);
	pid_t maker;
	unsigned long long ticks;
	if (gt_attach_parse_mark(text, &maker, &ticks) == 0 && maker <= 0)
		abort();
	(void)gt_attach_maps_line_is(text, 0xfd00, 42);
	free(text);
	return 0;
}
