#include "tests/unit/check.h"

#include <stdarg.h>
#include <stdio.h>

static const char *current;
static int current_failures;
static int failed_tests;

void check_begin(const char *test_name)
{
	current = test_name;
	current_failures = 0;
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL: %s: %s:%d: ", current ? current : "?", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	current_failures++;
}

void check_end(void)
{
	if (current_failures == 0)
		printf("PASS: %s\n", current);
	else
		failed_tests++;
	fflush(stdout);
	current = NULL;
}

int check_summary(void)
{
	return failed_tests ? 1 : 0;
}
