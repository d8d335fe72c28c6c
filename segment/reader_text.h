/* Text fields of gctop's segment, copied out of an image another process
 * may be writing. Both the reader (segment/reader.c) and its stack tables
 * (segment/reader_stacks.c) copy names with it. */
#ifndef GCTOP_SEGMENT_READER_TEXT_H
#define GCTOP_SEGMENT_READER_TEXT_H

#include <stddef.h>

/* A fixed-size text field at base + off, field bytes long, copied bounded
 * and cleaned into dst. */
void gt_segment_copy_text(char *dst, size_t dstlen, const void *base, size_t off, size_t field);

#endif
