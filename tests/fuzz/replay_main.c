/* Runs a fuzz target's entry point over every file of a corpus directory, so
 * the crafted cases are checked by `make check` with any compiler (and under
 * ASan/UBSan in `make check-asan`); libFuzzer itself is used by `make fuzz`. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	DIR *d = opendir(argv[1]);
	if (!d) {
		printf("FAIL: replay: cannot open corpus %s\n", argv[1]);
		return 1;
	}
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0;
		for (;;) {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				uint8_t *nb = realloc(buf, cap);
				if (!nb)
					break;
				buf = nb;
			}
			size_t got = fread(buf + len, 1, cap - len, f);
			if (got == 0)
				break;
			len += got;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
		free(buf);
		/* Reaching here means the case neither crashed nor tripped a sanitizer. */
		printf("PASS: replay %s\n", e->d_name);
		n++;
	}
	closedir(d);
	if (n == 0) {
		printf("FAIL: replay: corpus %s is empty\n", argv[1]);
		return 1;
	}
	return 0;
}
