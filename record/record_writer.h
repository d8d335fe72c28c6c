/* gctop -w FILE: every sample written to FILE as it is taken, in the
 * format of record/record_format.h. Reads only the session's figures. Every
 * string a target names (its facts, causes, generation, collector, site and
 * frame names) is cleaned as for --json (base/json_text.h), so a
 * recording is valid UTF-8 with no control character in it. */
#ifndef GCTOP_RECORD_RECORD_WRITER_H
#define GCTOP_RECORD_RECORD_WRITER_H

#include <json-c/json.h>

#include "base/error.h"
#include "model/allocators.h"
#include "model/sample.h"
#include "session/session.h"

struct gt_recorder;

/* Creates (or empties) path, mode 0600 whatever the umask: a recording
 * holds the target's command line. Never through a link another user could
 * have planted, never into a file not ours (base/safe_create.h). Returns
 * NULL with err naming the file: GT_EXIT_UNSAFE_OUTPUT when the path was
 * refused, GT_EXIT_FAILURE when it cannot be made. */
struct gt_recorder *gt_recorder_open(const char *path, struct gt_error *err);
/* Writes the session's newest sample (with the header before the first,
 * an info line when the facts changed, and the allocator reading when the
 * sample brought one). Returns 0, or -1 with err. */
int gt_recorder_write(struct gt_recorder *r, const struct gt_session *s, struct gt_error *err);
void gt_recorder_close(struct gt_recorder *r);

/* The lines' objects (the caller puts them). pause_from and live_from: the
 * numbers of the first pause and live-set point of s's logs not written
 * yet; alloc may be NULL. */
struct json_object *gt_record_json_info(const char *type, const struct gt_target_info *info);
struct json_object *gt_record_json_sample(const struct gt_sample *s, uint64_t pause_from, uint64_t live_from,
					  const struct gt_alloc_snapshot *alloc);

#endif
