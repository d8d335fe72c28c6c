/* Fuzz target for the diagnostics IPC replies: the input is a reply as the
 * socket would deliver it (header, then payload), decoded as every
 * ProcessInfo version and as an error or session id. */
#include <stdint.h>

#include "collectors/dotnet/ipc/diag_ipc_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_diag_header h;
	const uint8_t *payload = data;
	size_t len = size;
	if (gt_diag_parse_header(data, size, &h) == 0) {
		payload = data + GT_DIAG_HEADER_SIZE;
		len = size - GT_DIAG_HEADER_SIZE;
		if (len > (size_t)h.size - GT_DIAG_HEADER_SIZE)
			len = (size_t)h.size - GT_DIAG_HEADER_SIZE;
	}
	static struct gt_diag_process_info pi;
	for (int version = 1; version <= 3; version++)
		gt_diag_parse_process_info(payload, len, version, &pi);
	struct gt_cursor r = gt_cursor_at(payload, len);
	gt_cursor_u32(&r);
	gt_cursor_u64(&r);
	char s[8];
	gt_diag_get_string(&r, s, sizeof(s));
	gt_diag_runtime_major(pi.runtime_version);
	return 0;
}
