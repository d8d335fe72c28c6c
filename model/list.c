#include "model/list.h"
#include "base/array.h"

#include <stdlib.h>
#include <string.h>

struct gt_list_entry *gt_list_add(struct gt_list *l)
{
	struct gt_list_entry *v = gt_array_grow(l->entries, &l->capacity, l->count + 1, sizeof(*v), 16);
	if (!v)
		return NULL;
	l->entries = v;
	struct gt_list_entry *e = &l->entries[l->count++];
	memset(e, 0, sizeof(*e));
	return e;
}

void gt_list_free(struct gt_list *l)
{
	free(l->entries);
	memset(l, 0, sizeof(*l));
}
