/* A tiny test harness: each check prints PASS:/FAIL: lines that tests/run.sh
 * counts. A test function groups checks under one name. */
#ifndef GCTOP_TESTS_CHECK_H
#define GCTOP_TESTS_CHECK_H

#include <stdbool.h>

void check_begin(const char *test_name);
/* Records a failed expectation of the current test, with where and why. */
void check_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Ends the current test: PASS when no expectation failed. */
void check_end(void);
/* Prints nothing more; returns the process exit status (1 if anything failed). */
int check_summary(void);

#define RUN_TEST(fn) do { check_begin(#fn); fn(); check_end(); } while (0)

#define CHECK(cond) do { if (!(cond)) check_fail(__FILE__, __LINE__, "%s", #cond); } while (0)
#define CHECK_U64(a, b) do { unsigned long long a_ = (a), b_ = (b); \
	if (a_ != b_) check_fail(__FILE__, __LINE__, "%s == %llu, expected %llu", #a, a_, b_); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_) != 0) check_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
/* |a - b| <= tol */
#define CHECK_NEAR(a, b, tol) do { double a_ = (a), b_ = (b), t_ = (tol); \
	if (!(a_ - b_ <= t_ && b_ - a_ <= t_)) check_fail(__FILE__, __LINE__, "%s == %g, expected %g +- %g", #a, a_, b_, t_); } while (0)

#endif
