/* Fuzz target for the sanitiser of target strings: whatever the input, the
 * output holds no control byte (C0, DEL), no C1 or bidirectional control,
 * only well-formed UTF-8 (ASCII only in ASCII mode; tests/fuzz/clean_text.h),
 * fits its buffer, and cleaning it again changes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "tests/fuzz/clean_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	/* The first byte picks the output size, so short buffers are tried too. */
	size_t out_size = (size_t)data[0] + 1;
	char *in = malloc(size);
	char *out = malloc(out_size), *again = malloc(out_size);
	if (!in || !out || !again)
		goto done;
	memcpy(in, data + 1, size - 1);
	in[size - 1] = '\0';
	for (int m = 0; m < 2; m++) {
		enum gt_sanitize_mode mode = m ? GT_SANITIZE_ASCII : GT_SANITIZE_UTF8;
		gt_sanitize(out, out_size, in, mode);
		if (strlen(out) >= out_size)
			abort();
		fuzz_text_check(out, strlen(out), mode == GT_SANITIZE_ASCII ? TEXT_ASCII : 0);
		gt_sanitize(again, out_size, out, mode);
		if (strcmp(out, again) != 0)
			abort();
	}
done:
	free(in);
	free(out);
	free(again);
	return 0;
}
