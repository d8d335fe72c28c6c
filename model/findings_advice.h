/* Each finding's next step in the words of the runtime it was found on and
 * of the front end that shows it: the full-screen view names its keys ("key
 * a shows who allocates"), -b, --json, --doctor and every other front end
 * without keys name the option instead ("gctop --allocators shows who
 * allocates"). Pure: a table lookup. */
#ifndef GCTOP_MODEL_FINDINGS_ADVICE_H
#define GCTOP_MODEL_FINDINGS_ADVICE_H

#include <stddef.h>

#include "model/runtime.h"

enum gt_front_end {
	GT_FRONT_OPTIONS = 0,   /* -b, --json, --doctor, --serve: a command line */
	GT_FRONT_SCREEN,        /* the full-screen view: keys */
};

/* Writes finding id's advice for runtime rt (NULL: unknown) as front end fe says it into
 * buf (always NUL-terminated); "" for an id the table does not know. */
void gt_findings_advice(char *buf, size_t len, const char *id, const struct gt_runtime_traits *rt,
			enum gt_front_end fe);

#endif
