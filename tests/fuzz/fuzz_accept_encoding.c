/* libFuzzer target for gctop --serve's Accept-Encoding reading
 * (frontends/serve_gzip.c): a scraper's header, any bytes. Whatever they
 * are, the answer is a yes or no read within them (ASan sees a read past
 * the end of the exact-size copy), and the same bytes give the same answer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/serve_gzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a header's value as libmicrohttpd hands it: NUL-terminated */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	bool once = gt_serve_accepts_gzip(text);
	if (gt_serve_accepts_gzip(text) != once)
		abort();
	free(text);
	return 0;
}
