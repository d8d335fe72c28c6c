/* Fuzz target for the allocation sampler's payload parsers: the input is
 * tried as AllocationSampled, AllocationTick and method load payloads for
 * both pointer sizes, and the parsed method goes into a name map that is
 * then searched. */
#include <stdint.h>
#include <string.h>

#include "collectors/dotnet/dotnet_alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_dn_alloc_event e;
	struct gt_dn_method m;
	struct gt_dn_methods map = { 0 };
	for (int ps = 4; ps <= 8; ps += 4) {
		if (gt_dn_parse_allocation_sampled(data, size, ps, &e) == 0 && e.weight < 0)
			__builtin_trap();
		if (gt_dn_parse_allocation_tick(data, size, ps, &e) == 0 && e.weight < 0)
			__builtin_trap();
	}
	if (gt_dn_parse_method_verbose(data, size, &m) == 0) {
		if (m.size == 0 || strlen(m.name) >= sizeof(m.name))
			__builtin_trap();
		gt_dn_methods_add(&map, &m);
		/* a range that wraps past the top of the address space has no
		 * end to look beyond */
		if (m.start <= UINT64_MAX - m.size) {
			const struct gt_dn_method *f = gt_dn_methods_find(&map, m.start + m.size - 1);
			if (!f || gt_dn_methods_find(&map, m.start + m.size) != NULL)
				__builtin_trap();
		}
	}
	gt_dn_methods_free(&map);
	return 0;
}
