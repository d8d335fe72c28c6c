/* The contents of the nettrace blocks: events, metadata, stacks and
 * sequence points. Not for other modules. */
#ifndef GCTOP_COLLECTORS_NETTRACE_BLOCK_H
#define GCTOP_COLLECTORS_NETTRACE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/dotnet/nettrace/nettrace_state.h"

/* Block contents; 0, or -1 with the parser failed. */
int nt_parse_event_block(struct gt_nettrace *p, const uint8_t *b, size_t n, bool metadata_block);
int nt_parse_stack_block(struct gt_nettrace *p, const uint8_t *b, size_t n);
int nt_parse_sp_block(struct gt_nettrace *p, const uint8_t *b, size_t n);

#endif
