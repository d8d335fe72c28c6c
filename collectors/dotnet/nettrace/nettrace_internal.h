/* The parser's state, shared by the nettrace files: stream framing
 * (nettrace.c), block contents (nettrace_block.c) and the metadata and
 * thread tables (nettrace_tables.c). Not for other modules. */
#ifndef GCTOP_COLLECTORS_NETTRACE_INTERNAL_H
#define GCTOP_COLLECTORS_NETTRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/dotnet/nettrace/nettrace.h"

struct thread_seq {
	uint64_t tid;
	uint32_t seq;
	bool used;
};

struct gt_nettrace {
	struct gt_nettrace_callbacks cb;
	void (*on_stack)(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size);
	void (*on_sequence_point)(void *ctx);
	uint8_t *buf;
	size_t len, cap, pos;
	uint64_t base;           /* stream offset of buf[0], for block alignment */
	bool header_done, ended, failed;
	bool have_trace;
	struct gt_nettrace_trace trace;
	char error[256];
	struct gt_nettrace_stats stats;

	struct gt_nettrace_meta *metas;   /* open addressing on id */
	size_t meta_cap, meta_count;
	struct thread_seq *threads;       /* open addressing on capture thread id */
	size_t thread_cap, thread_count;
};

/* Records why parsing stopped (the parser stays failed); returns -1. */
int nt_fail(struct gt_nettrace *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const struct gt_nettrace_meta *nt_meta_find(const struct gt_nettrace *p, uint32_t id);
/* Takes ownership of m's fields; a repeated id keeps the first definition. */
int nt_meta_add(struct gt_nettrace *p, struct gt_nettrace_meta *m);
void nt_tables_free(struct gt_nettrace *p);
/* Counts the events a capture thread's sequence number says were lost. */
void nt_note_seq(struct gt_nettrace *p, uint64_t tid, uint32_t seq);
/* A sequence point's number for a thread: events up to it that never
 * arrived were lost. */
void nt_note_sequence_point(struct gt_nettrace *p, uint64_t tid, uint32_t seq);

/* Block contents; 0, or -1 with the parser failed. */
int nt_parse_event_block(struct gt_nettrace *p, const uint8_t *b, size_t n, bool metadata_block);
int nt_parse_stack_block(struct gt_nettrace *p, const uint8_t *b, size_t n);
int nt_parse_sp_block(struct gt_nettrace *p, const uint8_t *b, size_t n);

#endif
