#include "base/json_text.h"

#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

struct json_object *gt_json_text(const char *s)
{
	if (!s)
		return NULL;
	/* Cleaning never lengthens a string: a kept character is copied, a
	 * rejected byte or character becomes one '?'. */
	size_t size = strlen(s) + 1;
	char *clean = malloc(size);
	if (!clean)
		return NULL;
	struct json_object *o = json_object_new_string(gt_sanitize(clean, size, s, GT_SANITIZE_UTF8));
	free(clean);
	return o;
}
