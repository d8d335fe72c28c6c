/* The census of live objects by type (model/census.h): its order, and the
 * change between two censuses of one target, joined by type name. Pure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "model/census.h"

#define CENSUS_FIRST_TYPES 256

void gt_census_free(struct gt_census *c)
{
	free(c->types);
	memset(c, 0, sizeof(*c));
}

int gt_census_add(struct gt_census *c, size_t *cap, const char *name, size_t name_len, uint64_t count,
		  uint64_t bytes)
{
	struct gt_census_type *t = gt_array_grow(c->types, cap, c->n_types + 1, sizeof(*t), CENSUS_FIRST_TYPES);
	if (!t)
		return -1;
	c->types = t;
	struct gt_census_type *row = &t[c->n_types++];
	if (name_len >= sizeof(row->name))
		name_len = sizeof(row->name) - 1;
	memcpy(row->name, name, name_len);
	row->name[name_len] = '\0';
	row->count = count;
	row->bytes = bytes;
	return 0;
}

static int by_bytes(const void *a, const void *b)
{
	const struct gt_census_type *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_type_name(const void *a, const void *b)
{
	const struct gt_census_type *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* One row per name: a class that several loaders loaded is one type to
 * the reader, and the change between censuses joins by name. */
static void merge_names(struct gt_census *c)
{
	qsort(c->types, c->n_types, sizeof(c->types[0]), by_type_name);
	size_t o = 0;
	for (size_t i = 0; i < c->n_types; i++) {
		if (o && strcmp(c->types[o - 1].name, c->types[i].name) == 0) {
			c->types[o - 1].count = sat_add(c->types[o - 1].count, c->types[i].count);
			c->types[o - 1].bytes = sat_add(c->types[o - 1].bytes, c->types[i].bytes);
		} else {
			if (o != i)
				c->types[o] = c->types[i];
			o++;
		}
	}
	c->n_types = o;
}

void gt_census_sort(struct gt_census *c)
{
	if (c->n_types < 2)
		return;
	merge_names(c);
	qsort(c->types, c->n_types, sizeof(c->types[0]), by_bytes);
}

/* now - before, saturated to int64 (the figures come from the target). */
static int64_t delta(uint64_t now, uint64_t before)
{
	if (now >= before)
		return now - before > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(now - before);
	return before - now > (uint64_t)INT64_MAX ? -INT64_MAX : -(int64_t)(before - now);
}

static int by_name(const void *a, const void *b)
{
	const struct gt_census_type *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

static int by_growth(const void *a, const void *b)
{
	const struct gt_census_change *x = a, *y = b;
	if (x->bytes_delta != y->bytes_delta)
		return x->bytes_delta > y->bytes_delta ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The types of c by name, for the join; NULL when out of memory. */
static const struct gt_census_type **index_by_name(const struct gt_census *c)
{
	const struct gt_census_type **ix = malloc((c->n_types ? c->n_types : 1) * sizeof(*ix));
	if (!ix)
		return NULL;
	for (size_t i = 0; i < c->n_types; i++)
		ix[i] = &c->types[i];
	qsort(ix, c->n_types, sizeof(*ix), by_name);
	return ix;
}

static const struct gt_census_type *find(const struct gt_census_type **ix, size_t n, const char *name)
{
	struct gt_census_type key;
	const struct gt_census_type *kp = &key;
	strncpy(key.name, name, sizeof(key.name) - 1);
	key.name[sizeof(key.name) - 1] = '\0';
	const struct gt_census_type **hit = bsearch(&kp, ix, n, sizeof(*ix), by_name);
	return hit ? *hit : NULL;
}

/* The rows of the types prev has and cur lacks, after out's n rows. */
static void add_vanished(const struct gt_census *prev, const struct gt_census_type **cur_ix, size_t n_cur,
			 struct gt_census_diff *out)
{
	for (size_t i = 0; i < prev->n_types; i++) {
		const struct gt_census_type *p = &prev->types[i];
		if (find(cur_ix, n_cur, p->name))
			continue;
		out->rows[out->n_rows++] = (struct gt_census_change){
			.name = p->name, .count_delta = delta(0, p->count), .bytes_delta = delta(0, p->bytes),
			.vanished = true,
		};
	}
}

int gt_census_diff(const struct gt_census *prev, const struct gt_census *cur, struct gt_census_diff *out)
{
	memset(out, 0, sizeof(*out));
	const struct gt_census_type **prev_ix = index_by_name(prev), **cur_ix = index_by_name(cur);
	size_t n = prev->n_types + cur->n_types;
	out->rows = prev_ix && cur_ix ? malloc((n ? n : 1) * sizeof(*out->rows)) : NULL;
	if (!out->rows) {
		free(prev_ix);
		free(cur_ix);
		return -1;
	}
	for (size_t i = 0; i < cur->n_types; i++) {
		const struct gt_census_type *c = &cur->types[i];
		const struct gt_census_type *p = find(prev_ix, prev->n_types, c->name);
		out->rows[out->n_rows++] = (struct gt_census_change){
			.name = c->name, .count = c->count, .bytes = c->bytes,
			.count_delta = delta(c->count, p ? p->count : 0), .bytes_delta = delta(c->bytes, p ? p->bytes : 0),
			.is_new = p == NULL,
		};
	}
	add_vanished(prev, cur_ix, cur->n_types, out);
	free(prev_ix);
	free(cur_ix);
	qsort(out->rows, out->n_rows, sizeof(*out->rows), by_growth);
	out->since_ms = cur->wall_ms - prev->wall_ms;
	out->total_bytes_delta = delta(cur->total_bytes, prev->total_bytes);
	out->total_count_delta = delta(cur->total_count, prev->total_count);
	return 0;
}

void gt_census_diff_free(struct gt_census_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}
