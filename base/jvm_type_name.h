#ifndef GT_BASE_JVM_TYPE_NAME_H
#define GT_BASE_JVM_TYPE_NAME_H

#include <stddef.h>

/* How the JVM spelled a type's name. */
enum gt_jvm_name_form {
	/* a field descriptor, as JVMTI's GetClassSignature gives it:
	 * "Ljava/lang/String;", "[B", "I" */
	GT_JVM_DESCRIPTOR,
	/* an internal name, as JFR's constant pools give it: "java/lang/String",
	 * "Lab" (a class of that name, not a descriptor), arrays as descriptors
	 * ("[B", "[Ljava/lang/Object;") */
	GT_JVM_INTERNAL,
};

/* A field descriptor's one-letter primitive type as Java spells it
 * ('B' -> "byte", JVMS 4.3.2), NULL for any other letter. */
const char *gt_jvm_primitive_name(char c);

/* The type's name as Java source spells it ("java.lang.String",
 * "byte[][]") into out (len bytes, always terminated, cut to fit). The
 * agent (inside the target) and JFR's reader (in gctop) both name types
 * this way, so one table reads the same from either source. */
void gt_jvm_type_name(const char *name, enum gt_jvm_name_form form, char *out, size_t len);

#endif
