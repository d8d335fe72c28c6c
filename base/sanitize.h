/* The one sanitiser for every string that came from a target (its command
 * line, perf-data strings, .NET names, method and type names, cgroup paths)
 * before it reaches a terminal or a JSON document. A hostile target must not
 * be able to move the cursor, set the terminal title, clear the screen or
 * swallow the following output, reorder what is shown, nor make --json,
 * a recording or /metrics invalid:
 *   - C0 controls (ESC, BEL, CR, LF, TAB ...), DEL and C1 controls
 *     (U+0080..U+009F, e.g. the single-byte CSI U+009B) become '?';
 *   - the bidirectional controls U+202A..U+202E and U+2066..U+2069, which
 *     reorder the text shown after them, become '?' as controls do;
 *   - bytes that are not well-formed UTF-8 (stray continuation bytes, overlong
 *     forms, surrogates U+D800..U+DFFF, code points past U+10FFFF, sequences
 *     cut short) become '?', one per byte;
 *   - other UTF-8 is kept, or also becomes '?' in ASCII mode (a terminal
 *     whose locale is not UTF-8 may read a continuation byte 0x9b as CSI).
 * The result is always NUL-terminated and never ends in a cut character. */
#ifndef GCTOP_BASE_SANITIZE_H
#define GCTOP_BASE_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

enum gt_sanitize_mode {
	GT_SANITIZE_UTF8,   /* keep well-formed printable UTF-8 */
	GT_SANITIZE_ASCII,  /* printable ASCII only */
};

/* Cleans `in` (NUL-terminated; NULL is "") into out (size > 0); returns out. */
char *gt_sanitize(char *out, size_t size, const char *in, enum gt_sanitize_mode mode);

/* The mode for text going to stdout or the screen: UTF-8 when the locale's
 * character set is UTF-8 (main sets LC_CTYPE from the environment), else
 * ASCII. */
enum gt_sanitize_mode gt_sanitize_terminal_mode(void);

#endif
