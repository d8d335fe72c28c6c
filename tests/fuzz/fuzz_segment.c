/* Fuzz target: a segment image of any bytes must be refused or read within
 * its bounds, its stack and method tables and ops block too. The image is copied to an aligned buffer, as a mapping is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "segment/reader.h"
#include "segment/reader_stacks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gt_segment_reading r;
	if (size > GCTOP_SEG_MAX_FILE_SIZE)
		return 0;
	uint8_t *buf = aligned_alloc(64, (size + 64) / 64 * 64);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct gt_error err;
	if (gt_segment_parse(buf, size, &r, &err) == 0) {
		/* Every string that came out must be terminated inside its field. */
		for (unsigned i = 0; i < r.snap.by_frame.n; i++)
			if (memchr(r.snap.by_frame.sites[i].name, 0, sizeof(r.snap.by_frame.sites[i].name)) == NULL)
				abort();
		if (r.snap.by_frame.n > GT_ALLOC_SITES_MAX || r.snap.by_type.n > GT_ALLOC_SITES_MAX ||
		    r.n_recent > GCTOP_SEG_PAUSE_RING)
			abort();
		/* the ops block's answer: a known status, a terminated printable reason */
		if (r.opcount.status > GCTOP_SEG_OPS_STATUS_MAX || !memchr(r.opcount.reason, 0, sizeof(r.opcount.reason)))
			abort();
		for (const char *c = r.opcount.reason; *c; c++)
			if ((unsigned char)*c < 0x20)
				abort();
		/* the humongous counters only with a region size (layout_minor 3) */
		if ((r.humongous_bytes.valid || r.humongous_tail_bytes.valid) && r.region_bytes == 0)
			abort();
		/* the stacks behind the sites: bounded, every frame a name in the pool */
		static struct gt_alloc_stacks st;
		if (gt_segment_parse_stacks(buf, size, &r.snap, &st) == 0)
			for (unsigned i = 0; i < st.n_sites; i++)
				for (unsigned k = 0; k < st.sites[i].n; k++) {
					if (k >= GT_ALLOC_STACKS_TOP || st.sites[i].stacks[k].n_frames > GT_ALLOC_STACK_FRAMES)
						abort();
					for (unsigned f = 0; f < st.sites[i].stacks[k].n_frames; f++)
						if (st.sites[i].stacks[k].frames[f] >= st.pool_used)
							abort();
				}
	}
	free(buf);
	return 0;
}
