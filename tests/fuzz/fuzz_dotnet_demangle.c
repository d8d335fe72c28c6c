/* Fuzz target for the C# name demangler: the input up to its first NUL is
 * a method's type, the rest its name (both come from the target's method
 * events). The output must be terminated within its buffer at every size
 * and never longer than the buffer allows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/sampler/dotnet_demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The method event's strings are at most this long once converted. */
#define NAME_MAX_LEN 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char type[NAME_MAX_LEN + 1], method[NAME_MAX_LEN + 1];
	const uint8_t *nul = memchr(data, 0, size);
	size_t tn = nul ? (size_t)(nul - data) : size;
	size_t mn = nul ? size - tn - 1 : 0;
	if (tn > NAME_MAX_LEN)
		tn = NAME_MAX_LEN;
	if (mn > NAME_MAX_LEN)
		mn = NAME_MAX_LEN;
	memcpy(type, data, tn);
	type[tn] = '\0';
	if (nul)
		memcpy(method, nul + 1, mn);
	method[mn] = '\0';
	static const size_t lens[] = { 1, 2, 16, 224, 2 * NAME_MAX_LEN + 8 };
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *out = malloc(lens[i]);
		if (!out)
			return 0;
		gt_dn_demangle(type, method, out, lens[i]);
		if (strnlen(out, lens[i]) >= lens[i])
			__builtin_trap();
		free(out);
	}
	return 0;
}
