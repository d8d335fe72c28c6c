/* The parser's metadata table (event kinds by id) and its capture-thread
 * table (sequence numbers, for lost events). Not for other modules. */
#ifndef GCTOP_COLLECTORS_NETTRACE_TABLES_H
#define GCTOP_COLLECTORS_NETTRACE_TABLES_H

#include "collectors/dotnet/nettrace/nettrace_state.h"

const struct gt_nettrace_meta *nt_meta_find(const struct gt_nettrace *p, uint32_t id);
/* Takes ownership of m's fields; a repeated id keeps the first definition. */
int nt_meta_add(struct gt_nettrace *p, struct gt_nettrace_meta *m);
void nt_tables_free(struct gt_nettrace *p);
/* Counts the events a capture thread's sequence number says were lost. */
void nt_note_seq(struct gt_nettrace *p, uint64_t tid, uint32_t seq);
/* A sequence point's number for a thread: events up to it that never
 * arrived were lost. */
void nt_note_sequence_point(struct gt_nettrace *p, uint64_t tid, uint32_t seq);

#endif
