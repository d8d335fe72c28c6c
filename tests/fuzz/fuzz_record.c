/* libFuzzer target for the recording reader (record/record_reader.c): any
 * bytes are read to their end or refused with GT_EXIT_BAD_RECORDING, and
 * what is read keeps the reader's promises (bounded tables, terminated
 * strings, time going forward); the samples then go through a session, so
 * the derive step sees whatever a hostile recording can make it see. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_reader.h"
#include "session/session.h"

static void require(int ok)
{
	if (!ok)
		abort();
}

static void check_sample(const struct gt_sample *s, const struct gt_alloc_snapshot *a)
{
	require(s->n_generations <= GT_MAX_GENERATIONS && s->n_collectors <= GT_MAX_COLLECTORS);
	for (unsigned g = 0; g < s->n_generations; g++)
		require(memchr(s->generations[g].name, 0, sizeof(s->generations[g].name)) != NULL);
	require(memchr(s->last_gc_cause, 0, sizeof(s->last_gc_cause)) != NULL);
	require(!s->opcount_name || strlen(s->opcount_name) < 256);
	require(!s->opcount_counter || strlen(s->opcount_counter) < 256);
	require(!s->opcount_unavailable || strlen(s->opcount_unavailable) < 256);
	if (a)
		require(a->by_frame.n <= GT_ALLOC_SITES_MAX && a->by_type.n <= GT_ALLOC_SITES_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;   /* fmemopen refuses an empty buffer; the unit test reads an empty file */
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct gt_error err = { 0 };
	struct gt_record_reader *r = gt_record_open_stream(f, "fuzz", &err);
	if (!r) {
		require(err.code == GT_EXIT_BAD_RECORDING || err.code == GT_EXIT_FAILURE);
		return 0;
	}
	struct gt_session *s = malloc(sizeof(*s));
	struct gt_sample *cur = malloc(sizeof(*cur));
	require(s && cur && gt_session_init(s, gt_record_info(r), &err) == 0);
	const struct gt_alloc_snapshot *a;
	uint64_t last = 0;
	int rc;
	while ((rc = gt_record_next(r, cur, &a, &err)) == 1) {
		check_sample(cur, a);
		require(s->samples == 0 || cur->mono_ns > last);
		last = cur->mono_ns;
		require(gt_session_replay_sample(s, cur, a, gt_record_stacks(r), gt_record_info(r), &err) == 0);
	}
	require(rc == 0 || err.code == GT_EXIT_BAD_RECORDING || err.code == GT_EXIT_FAILURE);
	gt_session_close(s);
	free(s);
	free(cur);
	gt_record_close(r);
	return 0;
}
