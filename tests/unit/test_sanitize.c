/* The sanitiser for strings from a target: crafted bytes a hostile JVM or
 * .NET process could put in its main class, flags or names. */
#include <string.h>

#include "base/sanitize.h"
#include "tests/unit/check.h"

static char out_buf[256];

static const char *u(const char *in)
{
	return gt_sanitize(out_buf, sizeof(out_buf), in, GT_SANITIZE_UTF8);
}

static const char *a(const char *in)
{
	return gt_sanitize(out_buf, sizeof(out_buf), in, GT_SANITIZE_ASCII);
}

static void test_plain_text_kept(void)
{
	CHECK_STR(u("com.example.Main --port=8080"), "com.example.Main --port=8080");
	CHECK_STR(u(""), "");
	CHECK_STR(u(NULL), "");
	CHECK_STR(u("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_STR(u("\xc2\xa0\xef\xbf\xbd\xf4\x8f\xbf\xbf"), "\xc2\xa0\xef\xbf\xbd\xf4\x8f\xbf\xbf"); /* U+00A0, U+FFFD, U+10FFFF */
}

static void test_escape_sequences(void)
{
	CHECK_STR(u("\x1b[2J\x1b[H"), "?[2J?[H");                   /* clear screen, home */
	CHECK_STR(u("\x1b]0;pwned\x07Main"), "?]0;pwned?Main");      /* OSC title set, BEL */
	CHECK_STR(u("\x1b]2;title\x1b\\x"), "?]2;title?\\x");        /* OSC with ST */
	CHECK_STR(u("Main\x1b[?1049h"), "Main?[?1049h");             /* alternate screen */
	CHECK_STR(u("Main\x1bP"), "Main?P");                          /* unterminated DCS */
	CHECK_STR(u("Main\x1b"), "Main?");                            /* a lone ESC at the end */
	CHECK_STR(u("a\rb\nc\td\x7f" "e\x08"), "a?b?c?d?e?");         /* CR LF TAB DEL BS */
}

static void test_c1_controls(void)
{
	CHECK_STR(u("\x9b" "2J"), "?2J");              /* raw 8-bit CSI */
	CHECK_STR(u("\xc2\x9b" "2J"), "?2J");          /* U+009B as UTF-8 */
	CHECK_STR(u("\xc2\x9d" "0;t\xc2\x9c"), "?0;t?"); /* U+009D OSC ... U+009C ST */
	CHECK_STR(u("\xc2\x80\xc2\x9f\xc2\xa0"), "??\xc2\xa0");
}

/* Bidirectional controls reorder what follows them: "txt.exe" shown for
 * "exe.txt", a figure moved into another column. Every one of them, as a
 * .NET type name or an operations counter's text would carry it, becomes
 * one '?'; the characters next to them in the block stay. */
static void test_bidi_controls(void)
{
	CHECK_STR(u("Evil\xe2\x80\xaeMain"), "Evil?Main");            /* U+202E RIGHT-TO-LEFT OVERRIDE */
	CHECK_STR(u("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad"), "????"); /* U+202A..U+202D */
	CHECK_STR(u("a\xe2\x81\xa6" "b\xe2\x81\xa7" "c\xe2\x81\xa8" "d\xe2\x81\xa9"), "a?b?c?d?"); /* U+2066..U+2069 */
	/* the neighbours: U+2029, U+202F, U+2065, U+206A are not bidi controls */
	CHECK_STR(u("\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"), "\xe2\x80\xa9\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
	CHECK_STR(a("x\xe2\x80\xaey"), "x?y");
	/* a control that no longer fits is not half-written either */
	char out[4];
	CHECK_STR(gt_sanitize(out, sizeof(out), "ab\xe2\x80\xae", GT_SANITIZE_UTF8), "ab?");
}

static void test_invalid_utf8(void)
{
	CHECK_STR(u("\xc0\xaf"), "??");                /* overlong '/' */
	CHECK_STR(u("\xe0\x80\xaf"), "???");           /* overlong 3-byte */
	CHECK_STR(u("\xf0\x80\x80\xaf"), "????");      /* overlong 4-byte */
	CHECK_STR(u("\xc1\x9b"), "??");                /* overlong CSI */
	CHECK_STR(u("\xed\xa0\x80"), "???");           /* high surrogate U+D800 */
	CHECK_STR(u("\xed\xbf\xbf"), "???");           /* low surrogate U+DFFF */
	CHECK_STR(u("\xf4\x90\x80\x80"), "????");      /* past U+10FFFF */
	CHECK_STR(u("\xf5\xff\xfe"), "???");
	CHECK_STR(u("\x80\xbf"), "??");                /* stray continuation bytes */
	CHECK_STR(u("x\xe2\x82"), "x??");              /* cut short at the end */
	CHECK_STR(u("\xe2\x82" "A"), "??A");           /* cut short before ASCII */
	CHECK_STR(u("\xe2\x1b[2J"), "??[2J");          /* a cut sequence does not hide an ESC */
}

static void test_ascii_mode(void)
{
	CHECK_STR(a("caf\xc3\xa9"), "caf?");
	CHECK_STR(a("\xf0\x9f\x98\x80!"), "?!");
	CHECK_STR(a("\xc3\x9b"), "?");                 /* U+00DB: its second byte is 0x9b */
	CHECK_STR(a("\x1b[31mred"), "?[31mred");
}

static void test_bounds(void)
{
	char out[6];
	CHECK_STR(gt_sanitize(out, sizeof(out), "abcdefgh", GT_SANITIZE_UTF8), "abcde");
	/* A character that does not fit whole is left out, not cut. */
	CHECK_STR(gt_sanitize(out, sizeof(out), "abcd\xe2\x82\xac", GT_SANITIZE_UTF8), "abcd");
	CHECK_STR(gt_sanitize(out, sizeof(out), "ab\xe2\x82\xac" "cd", GT_SANITIZE_UTF8), "ab\xe2\x82\xac");
	char one[1];
	CHECK_STR(gt_sanitize(one, sizeof(one), "abc", GT_SANITIZE_UTF8), "");
	/* Every byte value alone: printable ASCII kept, the rest replaced. */
	for (int c = 1; c < 256; c++) {
		char in[2] = { (char)c, 0 };
		const char *r = u(in);
		if (c >= 0x20 && c < 0x7f)
			CHECK(r[0] == c && r[1] == 0);
		else
			CHECK_STR(r, "?");
	}
}

int main(void)
{
	RUN_TEST(test_plain_text_kept);
	RUN_TEST(test_escape_sequences);
	RUN_TEST(test_c1_controls);
	RUN_TEST(test_bidi_controls);
	RUN_TEST(test_invalid_utf8);
	RUN_TEST(test_ascii_mode);
	RUN_TEST(test_bounds);
	return check_summary();
}
