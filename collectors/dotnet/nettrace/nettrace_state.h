/* The parser's state, the bottom of the nettrace files' own order:
 * nettrace_state.h <- nettrace_tables.h (metadata and thread tables)
 * <- nettrace_block.h (block contents) <- nettrace.c (stream framing).
 * Each file includes only the headers below its own. Not for other modules. */
#ifndef GCTOP_COLLECTORS_NETTRACE_STATE_H
#define GCTOP_COLLECTORS_NETTRACE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
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
	struct gt_error err;     /* why parsing stopped */
	struct gt_nettrace_stats stats;

	/* Open addressing on id; slots point to records so that an empty slot
	 * costs a pointer, not a record. */
	struct gt_nettrace_meta **metas;
	size_t meta_cap, meta_count;
	struct thread_seq *threads;       /* open addressing on capture thread id */
	size_t thread_cap, thread_count;
};

/* Records why parsing stopped (the parser stays failed); returns -1. A
 * macro over gt_fail, which checks the format, rather than a second
 * printf-style function. */
#define nt_fail(p, ...) ((p)->failed = true, gt_fail(&(p)->err, GT_EXIT_BAD_DATA, __VA_ARGS__))

#endif
