#include "frontends/list_mode.h"

#include <json-c/json.h>

#include "base/clock.h"
#include "session/runtimes.h"
#include "session/session.h"
#include "views/json_writer.h"
#include "views/text_writer.h"

int gt_list_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	(void)err;
	struct gt_list list = { 0 };
	gt_session_list_all(&list);
	int64_t now = gt_wall_ms();
	int rc = 0;
	if (opt->list_json) {
		for (size_t i = 0; i < list.count && rc == 0; i++) {
			struct json_object *o = gt_json_list_entry(&list.entries[i], now);
			rc = gt_json_write_line(out, o);
			json_object_put(o);
		}
	} else if (list.count == 0) {
		char names[128];
		fprintf(stderr, "gctop: no %s process that this user can watch is running\n",
			gt_runtimes_names(names, sizeof(names), " or "));
	} else {
		rc = gt_text_write_list(out, &list, now);
	}
	gt_list_free(&list);
	return rc == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}
