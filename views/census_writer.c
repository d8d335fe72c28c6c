/* The census's text and JSON (views/census_writer.h). */
#include "views/census_writer.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "base/json_text.h"
#include "base/sanitize.h"
#include "model/format.h"

static struct gt_u64 u64(uint64_t v)
{
	return (struct gt_u64){ .value = v, .valid = true };
}

static void iso_time(char *buf, size_t len, int64_t wall_ms)
{
	time_t t = (time_t)(wall_ms / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%" PRId64 " ms", wall_ms);
}

const char *gt_census_summary(char *buf, size_t len, const struct gt_census *c, const struct gt_target_info *info)
{
	char when[40], bytes[24], took[24], pause[24];
	iso_time(when, sizeof(when), c->wall_ms);
	gt_format_bytes(bytes, sizeof(bytes), u64(c->total_bytes));
	gt_format_duration_ns(took, sizeof(took), u64(c->took_ns));
	struct gt_u64 p = { .value = c->pause_ns, .valid = c->pause_valid };
	gt_format_duration_ns(pause, sizeof(pause), p);
	/* "the JVM process", "the .NET process": ".NET" alone is no noun */
	snprintf(buf, len, "%s: %" PRIu64 " objects, %s live; took %s, the %s%sprocess paused %s", when, c->total_count,
		 bytes, took, info->runtime ? info->runtime->display : "", info->runtime ? " " : "", pause);
	return buf;
}

const char *gt_census_delta_bytes(char *buf, size_t len, int64_t delta)
{
	char b[24];
	uint64_t mag = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
	gt_format_bytes(b, sizeof(b), u64(mag));
	snprintf(buf, len, "%s%s", delta > 0 ? "+" : delta < 0 ? "-" : "", b);
	return buf;
}

int gt_census_write_text(FILE *out, const struct gt_census *c, const struct gt_target_info *info)
{
	char line[256], clean[GT_CENSUS_NAME_LEN * 4];
	fprintf(out, "Census of the live objects of %s %d\n%s\n\n", info->runtime ? info->runtime->display : "process",
		(int)info->pid, gt_census_summary(line, sizeof(line), c, info));
	fprintf(out, "%12s %14s  %s\n", "BYTES", "COUNT", "TYPE");
	size_t n = c->n_types < GT_CENSUS_TEXT_TOP ? c->n_types : GT_CENSUS_TEXT_TOP;
	for (size_t i = 0; i < n; i++) {
		const struct gt_census_type *t = &c->types[i];
		char bytes[24];
		fprintf(out, "%12s %14" PRIu64 "  %s\n", gt_format_bytes(bytes, sizeof(bytes), u64(t->bytes)), t->count,
			gt_sanitize(clean, sizeof(clean), t->name, gt_sanitize_terminal_mode()));
	}
	if (c->n_types > n)
		fprintf(out, "... and %zu more types (--json lists them all)\n", c->n_types - n);
	if (c->partial_why)
		fprintf(out, "Partial: %s\n", c->partial_why);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static struct json_object *types_array(const struct gt_census *c)
{
	struct json_object *a = json_object_new_array_ext((int)(c->n_types < INT32_MAX ? c->n_types : 0));
	for (size_t i = 0; i < c->n_types; i++) {
		struct json_object *row = json_object_new_object();
		add(row, "name", gt_json_text(c->types[i].name));
		add(row, "count", json_object_new_uint64(c->types[i].count));
		add(row, "bytes", json_object_new_uint64(c->types[i].bytes));
		json_object_array_add(a, row);
	}
	return a;
}

struct json_object *gt_census_json(const struct gt_census *c, const struct gt_target_info *info)
{
	struct json_object *o = json_object_new_object();
	char when[40];
	iso_time(when, sizeof(when), c->wall_ms);
	add(o, "pid", json_object_new_int64(info->pid));
	add(o, "runtime", json_object_new_string(gt_runtime_name(info->runtime)));
	add(o, "taken_at", json_object_new_string(when));
	add(o, "took_ms", json_object_new_double((double)c->took_ns / 1e6));
	add(o, "pause_ms", c->pause_valid ? json_object_new_double((double)c->pause_ns / 1e6) : NULL);
	add(o, "partial", c->partial_why ? gt_json_text(c->partial_why) : NULL);
	add(o, "total_count", json_object_new_uint64(c->total_count));
	add(o, "total_bytes", json_object_new_uint64(c->total_bytes));
	add(o, "types", types_array(c));
	return o;
}
