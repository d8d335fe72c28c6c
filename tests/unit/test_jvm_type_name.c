/* JVM type names as Java spells them (base/jvm_type_name.c), from both
 * spellings the JVM gives: JVMTI's descriptors (the agent) and JFR's
 * internal names (the flight recorder's reader). One table reads the same
 * from either source only if both name a type alike. */
#include <string.h>

#include "base/jvm_type_name.h"
#include "tests/unit/check.h"

#define NAME_LEN 128

static void internal_names_as_jfr_gives_them(void)
{
	char out[NAME_LEN];
	gt_jvm_type_name("java/lang/String", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "java.lang.String");
	gt_jvm_type_name("[B", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "byte[]");
	gt_jvm_type_name("[[J", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "long[][]");
	gt_jvm_type_name("[Ljava/lang/Object;", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "java.lang.Object[]");
	gt_jvm_type_name("AllocSites$Node", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "AllocSites$Node");
	/* a class named Lab in the default package, and one named B: names,
	 * not descriptors */
	gt_jvm_type_name("Lab", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "Lab");
	gt_jvm_type_name("B", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "B");
	gt_jvm_type_name("[LLab;", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "Lab[]");
}

static void descriptors_as_jvmti_gives_them(void)
{
	char out[NAME_LEN];
	gt_jvm_type_name("Ljava/lang/String;", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "java.lang.String");
	gt_jvm_type_name("LLab;", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "Lab");
	gt_jvm_type_name("[[B", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "byte[][]");
	gt_jvm_type_name("[Ljava/util/HashMap$Node;", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "java.util.HashMap$Node[]");
	gt_jvm_type_name("I", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "int");
}

static void hostile_names_stay_in_bounds(void)
{
	char out[NAME_LEN];
	char small[6];
	gt_jvm_type_name("[[[[Ljava/lang/Object;", GT_JVM_INTERNAL, small, sizeof(small));
	CHECK(strlen(small) < sizeof(small));
	gt_jvm_type_name("[[[[[[[[[[Z", GT_JVM_DESCRIPTOR, small, sizeof(small));
	CHECK(strlen(small) < sizeof(small));
	gt_jvm_type_name("Ljava/lang/String", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "java.lang.String");
	gt_jvm_type_name("[", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "[]");
	gt_jvm_type_name("", GT_JVM_INTERNAL, out, sizeof(out));
	CHECK_STR(out, "");
	gt_jvm_type_name("", GT_JVM_DESCRIPTOR, out, sizeof(out));
	CHECK_STR(out, "");
	char one[1] = { 'x' };
	gt_jvm_type_name("java/lang/String", GT_JVM_INTERNAL, one, sizeof(one));
	CHECK(one[0] == '\0');
}

int main(void)
{
	RUN_TEST(internal_names_as_jfr_gives_them);
	RUN_TEST(descriptors_as_jvmti_gives_them);
	RUN_TEST(hostile_names_stay_in_bounds);
	return check_summary();
}
