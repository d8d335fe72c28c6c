/* libFuzzer target for the /proc/PID/stat and status parsers
 * (collectors/host/proc_stat.c). A target names its own command (field 2 of
 * stat, prctl PR_SET_NAME): spaces, parentheses and digits in it must not
 * move the fields read after it. Both parsers see the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/host/proc.h"

static void require(int ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy with its NUL, so ASan sees any read past it. */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	struct gt_proc_stat st;
	memset(&st, 0, sizeof(st));
	if (gt_proc_parse_stat(text, &st) == 0) {
		/* the state is the byte after the last ") " */
		const char *close = strrchr(text, ')');
		require(close != NULL && close[1] == ' ' && st.state == close[2]);
	}
	struct gt_proc_status ss;
	memset(&ss, 0xff, sizeof(ss));
	gt_proc_parse_status(text, &ss);
	/* every figure is set, to 0 when its line is missing */
	if (!strstr(text, "VmRSS:"))
		require(ss.rss_kib == 0);
	if (!strstr(text, "VmSwap:"))
		require(ss.swap_kib == 0);
	/* /proc/meminfo has the same lines (the host's memory: model/live_set.c) */
	if (!strstr(text, "MemTotal:"))
		require(gt_proc_parse_mem_total_kib(text) == 0);
	free(text);
	return 0;
}
