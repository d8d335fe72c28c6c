/* The JFR source's pure parts: chunk names in the JVM's order
 * (jfr_follow.c) and whether a runtime image's release file lists jdk.jfr
 * (jfr_available.c). */
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/jfr/jfr_alloc.h"
#include "collectors/hotspot/jfr/jfr_available.h"
#include "collectors/hotspot/jfr/jfr_follow.h"
#include "tests/unit/check.h"

static void chunk_names_sort_as_the_jvm_made_them(void)
{
	CHECK(jfr_follow_is_chunk("2026_12_07_00_51_39.jfr"));
	CHECK(jfr_follow_is_chunk("2026_12_07_00_51_39_1.jfr"));
	CHECK(jfr_follow_is_chunk("2026_12_07_00_51_39_10.jfr"));
	CHECK(!jfr_follow_is_chunk("2026_12_07_00_51_39.part"));
	CHECK(!jfr_follow_is_chunk("2026_12_07_00_51_39_.jfr"));
	CHECK(!jfr_follow_is_chunk("2026_12_07_00_51_3x.jfr"));
	CHECK(!jfr_follow_is_chunk("x026_12_07_00_51_39.jfr"));
	CHECK(!jfr_follow_is_chunk("2026_12_07_00_51_39_1a.jfr"));
	CHECK(!jfr_follow_is_chunk(".jfr"));
	CHECK(!jfr_follow_is_chunk("2026_12_07_00_51_39_12345678901.jfr"));
	CHECK(jfr_follow_name_cmp("2026_12_07_00_51_39.jfr", "2026_12_07_00_51_39_1.jfr") < 0);
	CHECK(jfr_follow_name_cmp("2026_12_07_00_51_39_2.jfr", "2026_12_07_00_51_39_10.jfr") < 0);
	CHECK(jfr_follow_name_cmp("2026_12_07_00_51_39_10.jfr", "2026_12_07_00_51_40.jfr") < 0);
	CHECK(jfr_follow_name_cmp("2026_12_07_00_51_39_3.jfr", "2026_12_07_00_51_39_3.jfr") == 0);
	CHECK(jfr_follow_name_cmp("2027_01_01_00_00_00.jfr", "2026_12_31_23_59_59_9.jfr") > 0);
}

static void release_files_name_the_module(void)
{
	const char full[] = "JAVA_VERSION=\"17.0.15\"\nMODULES=\"java.base java.logging jdk.jfr jdk.management.jfr\"\n";
	CHECK(jfr_available_release(full, strlen(full)) == 1);
	const char jlinked[] = "JAVA_VERSION=\"17.0.15\"\nMODULES=\"java.base java.logging jdk.jfrx jdk.management\"\n";
	CHECK(jfr_available_release(jlinked, strlen(jlinked)) == 0);
	const char last[] = "MODULES=\"java.base jdk.jfr\"";
	CHECK(jfr_available_release(last, strlen(last)) == 1);
	const char none[] = "JAVA_VERSION=\"17.0.15\"\n";
	CHECK(jfr_available_release(none, strlen(none)) == -1);
	/* held to the length given */
	CHECK(jfr_available_release(full, 30) == -1);
}

int main(void)
{
	RUN_TEST(chunk_names_sort_as_the_jvm_made_them);
	RUN_TEST(release_files_name_the_module);
	return check_summary();
}
