/* A string that may come from a target (a name, a cause, a path) as a JSON
 * string, cleaned first (base/sanitize.h), for every JSON document gctop
 * writes: --json, -l --json and the recordings of -w. The text is then
 * always valid UTF-8 with no control character, so a hostile target can
 * neither break a reader's parse nor reach a terminal that shows the file. */
#ifndef GCTOP_BASE_JSON_TEXT_H
#define GCTOP_BASE_JSON_TEXT_H

#include <json-c/json.h>

/* The cleaned string; NULL (JSON null) for NULL or when out of memory. */
struct json_object *gt_json_text(const char *s);

#endif
