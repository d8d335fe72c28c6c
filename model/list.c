#include "model/list.h"

#include <stdlib.h>
#include <string.h>

struct gt_list_entry *gt_list_add(struct gt_list *l)
{
	if (l->count == l->capacity) {
		size_t cap = l->capacity ? l->capacity * 2 : 16;
		struct gt_list_entry *e = realloc(l->entries, cap * sizeof(*e));
		if (!e)
			return NULL;
		l->entries = e;
		l->capacity = cap;
	}
	struct gt_list_entry *e = &l->entries[l->count++];
	memset(e, 0, sizeof(*e));
	return e;
}

void gt_list_free(struct gt_list *l)
{
	free(l->entries);
	memset(l, 0, sizeof(*l));
}
