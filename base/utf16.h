/* UTF-16LE as the .NET runtime writes it (IPC strings, nettrace metadata and
 * payloads) to bounded, NUL-terminated UTF-8 for display. */
#ifndef GCTOP_BASE_UTF16_H
#define GCTOP_BASE_UTF16_H

#include <stddef.h>
#include <stdint.h>

/* Converts n_units UTF-16LE code units from src (2*n_units bytes) into dst,
 * stopping at the first NUL unit. Output is truncated at a character boundary
 * to fit dst_size (>= 1) and always NUL-terminated; unpaired surrogates and
 * control characters become '?'. Returns the bytes written, without the NUL. */
size_t gt_utf16_to_utf8(const uint8_t *src, size_t n_units, char *dst, size_t dst_size);

/* Finds the NUL unit of a UTF-16z string at p (len bytes available). Returns
 * the number of units before it, or -1 when there is no NUL within len. */
long gt_utf16z_units(const uint8_t *p, size_t len);

#endif
