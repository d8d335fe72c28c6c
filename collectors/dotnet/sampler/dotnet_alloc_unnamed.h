/* Code in sampled stacks that no method names, and whether a rundown should
 * be asked for. On .NET 10 the method loads come in the sampling session,
 * which is on for only a share of each second: a method compiled while it
 * was off (a tier-1 recompile, code first run late) has no name until a
 * rundown enumerates it. Native code and stubs have none even then, so an
 * address a rundown left unnamed is native for good and asks for no other.
 *
 * An address is new (seen unnamed, no rundown has ended since) or settled
 * (a rundown ended after it was seen: named since, or native). A rundown
 * comes at the end of a sampling session, after its samples: it covers
 * every address noted before its stream's end. Bounded: past
 * GT_DN_UNNAMED_MAX addresses, the new ones are not kept and ask for
 * nothing. */
#ifndef GCTOP_COLLECTORS_DOTNET_ALLOC_UNNAMED_H
#define GCTOP_COLLECTORS_DOTNET_ALLOC_UNNAMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_DN_UNNAMED_MAX 4096

struct gt_dn_unnamed {
	uint64_t *ip;      /* open addressing, 0 empty (no code lives at 0) */
	size_t n;
	size_t n_new;      /* noted since the last rundown ended */
};

/* ip was found in a sampled stack with no method covering it. */
void gt_dn_unnamed_note(struct gt_dn_unnamed *u, uint64_t ip);
/* Some address waits for a rundown. */
bool gt_dn_unnamed_wanted(const struct gt_dn_unnamed *u);
/* A rundown's stream ended: every address noted so far is settled. */
void gt_dn_unnamed_settle(struct gt_dn_unnamed *u);
void gt_dn_unnamed_free(struct gt_dn_unnamed *u);

#endif
