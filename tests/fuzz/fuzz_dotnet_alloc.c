/* Fuzz target for the allocation sampler's payload parsers: the input is
 * tried as AllocationSampled, AllocationTick and method load payloads for
 * both pointer sizes, and the parsed method goes into a name map that is
 * then searched. The input is also a stack (its bytes as instruction
 * pointers) behind a sample, with the method named, and the stacks behind
 * the sites are read out: every frame is a name in the pool, every share
 * within 0..1. */
#include <stdint.h>
#include <string.h>

#include <stdlib.h>

#include "collectors/dotnet/sampler/dotnet_alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An AllocationSampled payload (64-bit) of a 24-byte System.Object. */
static const uint8_t SAMPLE[] = {
	0, 0, 0, 0, 7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 'T', 0, 0, 0,
	0, 0x10, 0, 0, 0, 0x7e, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0,
};

static void check_stacks(const struct gt_alloc_stacks *st)
{
	for (unsigned i = 0; i < st->n_sites; i++) {
		const struct gt_alloc_site_stacks *s = &st->sites[i];
		for (unsigned k = 0; k < s->n; k++) {
			struct gt_f64 share = gt_alloc_stack_share(s, &s->stacks[k]);
			if (s->stacks[k].n_frames > GT_ALLOC_STACK_FRAMES || (share.valid && share.value > 1))
				__builtin_trap();
			for (unsigned f = 0; f < s->stacks[k].n_frames; f++)
				if (s->stacks[k].frames[f] >= st->pool_used)
					__builtin_trap();
		}
	}
}

/* The stack: the parsed method's start (when the input is a method load,
 * which also names it) and then the input's bytes as pointers. */
#define STACK_BYTES 2048

static void stacks_of(const uint8_t *data, size_t size, const struct gt_dn_method *m)
{
	struct gt_error err = { 0 };
	struct gt_dn_alloc *a = gt_dn_alloc_new(true, NULL, &err);
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	uint8_t stack[8 + STACK_BYTES];
	size_t n = 0;
	if (a && st) {
		if (m) {
			gt_dn_alloc_method(a, data, size);
			for (int k = 0; k < 8; k++)
				stack[n++] = (uint8_t)(m->start >> (8 * k));
		}
		size_t rest = size < STACK_BYTES ? size : STACK_BYTES;
		memcpy(stack + n, data, rest);
		n += rest;
		gt_dn_alloc_stack(a, 1, stack, (uint32_t)n);
		gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 1, SAMPLE, sizeof(SAMPLE));
		gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 1, SAMPLE, sizeof(SAMPLE));
		gt_dn_alloc_stacks(a, st);
		check_stacks(st);
	}
	free(st);
	gt_dn_alloc_free(a);
}

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
	bool named = gt_dn_parse_method_verbose(data, size, &m) == 0;
	stacks_of(data, size, named ? &m : NULL);
	if (named) {
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
