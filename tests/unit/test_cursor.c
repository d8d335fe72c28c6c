/* The bounds-checked little-endian reader (base/cursor.h): values in the
 * right byte order, and every overrun latched instead of read past the end. */
#include <string.h>

#include "base/cursor.h"
#include "tests/unit/check.h"

static void reads_little_endian_fields_in_order(void)
{
	static const uint8_t b[] = { 0xAB, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
				     1, 2, 3, 4, 5, 6, 7, 8 };
	struct gt_cursor c = gt_cursor_at(b, sizeof(b));
	CHECK_U64(gt_cursor_u8(&c), 0xAB);
	CHECK_U64(gt_cursor_u16(&c), 0x1234);
	CHECK_U64(gt_cursor_u32(&c), 0x12345678);
	CHECK_U64(gt_cursor_u64(&c), 0x0807060504030201ull);
	CHECK(!c.bad);
	CHECK_U64(gt_cursor_left(&c), 0);
	CHECK_U64(gt_le(b + 1, 2), 0x1234);
}

static void an_overrun_latches_and_reads_zero(void)
{
	static const uint8_t b[] = { 1, 2, 3, 4, 5, 6 };
	struct gt_cursor c = gt_cursor_at(b, sizeof(b));
	CHECK_U64(gt_cursor_u32(&c), 0x04030201);
	/* two bytes left: a u32 fails without moving, and so does all after */
	CHECK_U64(gt_cursor_u32(&c), 0);
	CHECK(c.bad);
	CHECK_U64(gt_cursor_left(&c), 0);
	CHECK_U64(gt_cursor_u8(&c), 0);
	CHECK(gt_cursor_take(&c, 0) == NULL);
	CHECK_U64(c.off, 4);
}

static void varuint_is_bounded(void)
{
	static const uint8_t b[] = { 0xE5, 0x8E, 0x26, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	struct gt_cursor c = gt_cursor_at(b, sizeof(b));
	CHECK_U64(gt_cursor_varuint(&c, 5), 624485);
	CHECK(!c.bad);
	/* six bytes of a 32-bit LEB128 allowed five: malformed */
	CHECK_U64(gt_cursor_varuint(&c, 5), 0);
	CHECK(c.bad);
	struct gt_cursor cut = gt_cursor_at(b, 2);
	CHECK_U64(gt_cursor_varuint(&cut, 10), 0);
	CHECK(cut.bad);
}

static void utf16_strings_are_checked_against_what_is_left(void)
{
	static const uint8_t z[] = { 'h', 0, 'i', 0, 0, 0, 'x', 0 };
	struct gt_cursor c = gt_cursor_at(z, sizeof(z));
	char out[16];
	gt_cursor_utf16z(&c, out, sizeof(out));
	CHECK_STR(out, "hi");
	CHECK_U64(c.off, 6);
	/* no NUL unit before the end */
	gt_cursor_utf16z(&c, out, sizeof(out));
	CHECK(c.bad);
	CHECK_STR(out, "");

	struct gt_cursor n = gt_cursor_at(z, sizeof(z));
	gt_cursor_utf16(&n, 2, out, sizeof(out));
	CHECK_STR(out, "hi");
	CHECK_U64(n.off, 4);
	/* a count whose doubling would wrap is refused, not taken */
	gt_cursor_utf16(&n, SIZE_MAX / 2 + 2, out, sizeof(out));
	CHECK(n.bad);
	CHECK_STR(out, "");
}

int main(void)
{
	RUN_TEST(reads_little_endian_fields_in_order);
	RUN_TEST(an_overrun_latches_and_reads_zero);
	RUN_TEST(varuint_is_bounded);
	RUN_TEST(utf16_strings_are_checked_against_what_is_left);
	return check_summary();
}
