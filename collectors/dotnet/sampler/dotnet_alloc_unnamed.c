/* Unnamed code addresses (dotnet_alloc_unnamed.h): a small open-addressing
 * set, since every frame of every new stack that no method covers is
 * looked up in it. */
#include "collectors/dotnet/sampler/dotnet_alloc_unnamed.h"

#include <stdlib.h>
#include <string.h>

/* Twice the addresses kept, a power of two: probes stay short. */
#define TABLE_SIZE (2 * GT_DN_UNNAMED_MAX)

static size_t slot_of(uint64_t ip)
{
	/* code addresses share their low bits' alignment: mix before masking */
	ip ^= ip >> 29;
	ip *= 0xbf58476d1ce4e5b9ull;
	ip ^= ip >> 32;
	return (size_t)ip & (TABLE_SIZE - 1);
}

void gt_dn_unnamed_note(struct gt_dn_unnamed *u, uint64_t ip)
{
	if (ip == 0 || u->n == GT_DN_UNNAMED_MAX)
		return;
	if (!u->ip && !(u->ip = calloc(TABLE_SIZE, sizeof(*u->ip))))
		return;
	size_t i = slot_of(ip);
	while (u->ip[i] != 0) {
		if (u->ip[i] == ip)
			return;
		i = (i + 1) & (TABLE_SIZE - 1);
	}
	u->ip[i] = ip;
	u->n++;
	u->n_new++;
}

bool gt_dn_unnamed_wanted(const struct gt_dn_unnamed *u)
{
	return u->n_new > 0;
}

void gt_dn_unnamed_settle(struct gt_dn_unnamed *u)
{
	u->n_new = 0;
}

void gt_dn_unnamed_free(struct gt_dn_unnamed *u)
{
	free(u->ip);
	memset(u, 0, sizeof(*u));
}
