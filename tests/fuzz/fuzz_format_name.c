/* Fuzz target for the shortening of names from a target (type and frame
 * names, finding titles) to a column (model/format.c): whatever the names
 * and the width, the result fits the width and its buffer, and a title cut
 * at a word is a prefix of it followed by "...". Input: the width in the
 * first byte, then up to 16 names separated by '\n'. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/format.h"

#define FUZZ_NAMES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *name, int width, const char *const *names, size_t n)
{
	char out[512];
	gt_format_name(out, sizeof(out), name, width, names, n);
	if (strlen(out) > (size_t)width && strlen(out) > strlen(name))
		abort();
	if ((int)strlen(name) > width && (int)strlen(out) > width)
		abort();
	gt_format_cut_words(out, sizeof(out), name, width);
	size_t k = strlen(out);
	if ((int)k > width && k != strlen(name))
		abort();
	/* whole, a prefix and "...", or nothing */
	if (k > 3 && strcmp(out, name) != 0 &&
	    (strcmp(out + k - 3, "...") != 0 || strncmp(out, name, k - 3) != 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	int width = data[0];
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	const char *names[FUZZ_NAMES];
	size_t n = 0;
	for (char *p = text; n < FUZZ_NAMES;) {
		names[n++] = p;
		char *nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) < 400)   /* the longest site name is 224 bytes */
			check_name(names[i], width, names, n);
	free(text);
	return 0;
}
