#include "base/jvm_type_name.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *gt_jvm_primitive_name(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	default: return NULL;
	}
}

/* Copies a class name ("java/lang/String") as "java.lang.String", up to
 * its end or, in a descriptor, its ';'. Returns the length written. */
static size_t jvm_copy_class(const char *p, bool descriptor, char *out, size_t len)
{
	size_t o = 0;
	for (; *p && !(descriptor && *p == ';') && o + 1 < len; p++)
		out[o++] = *p == '/' ? '.' : *p;
	out[o] = '\0';
	return o;
}

void gt_jvm_type_name(const char *name, enum gt_jvm_name_form form, char *out, size_t len)
{
	if (!len)
		return;
	unsigned dims = 0;
	while (name[dims] == '[')
		dims++;
	const char *base = name + dims;
	/* an array's element is a descriptor in either form */
	bool descriptor = dims || form == GT_JVM_DESCRIPTOR;
	const char *prim = descriptor && base[0] && !base[1] ? gt_jvm_primitive_name(base[0]) : NULL;
	size_t o;
	if (prim) {
		o = (size_t)snprintf(out, len, "%s", prim);
		if (o >= len)
			o = len - 1;
	} else {
		o = jvm_copy_class(descriptor && *base == 'L' ? base + 1 : base, descriptor, out, len);
	}
	for (unsigned i = 0; i < dims && o + 3 <= len; i++) {
		memcpy(out + o, "[]", 3);
		o += 2;
	}
}
