/* The pure cgroup parsers on fixture text: /proc/PID/cgroup of v1, v2 and
 * hybrid hosts, and every value file format gctop reads. */
#include <stdlib.h>
#include <string.h>

#include "collectors/host/cgroup_parse.h"
#include "tests/unit/check.h"

#define TEXT(s) (s), (sizeof(s) - 1)

/* A v1 host as older Docker and Kubernetes nodes have it. */
static const char v1_file[] =
	"12:pids:/docker/abc\n"
	"11:cpu,cpuacct:/docker/abc\n"
	"10:memory:/docker/abc\n"
	"1:name=systemd:/docker/abc\n";

/* systemd's hybrid layout: v1 controllers plus an empty unified hierarchy. */
static const char hybrid_file[] =
	"9:name=systemd:/\n"
	"4:memory:/process_api/38731d817924f9dc7a2a72ee23550acd\n"
	"3:cpuset:/\n"
	"0::/user.slice/session-1.scope\n";

static void test_membership_v1(void)
{
	struct gt_cgroup_membership m;
	CHECK(gt_cgroup_parse_membership(TEXT(v1_file), &m) == 0);
	CHECK(m.has_v1_memory);
	CHECK_STR(m.v1_memory_path, "/docker/abc");
	CHECK(!m.has_v2);
}

static void test_membership_v2(void)
{
	struct gt_cgroup_membership m;
	CHECK(gt_cgroup_parse_membership(TEXT("0::/system.slice/app.service\n"), &m) == 0);
	CHECK(m.has_v2);
	CHECK_STR(m.v2_path, "/system.slice/app.service");
	CHECK(!m.has_v1_memory);
	/* No final newline, and the root group. */
	CHECK(gt_cgroup_parse_membership(TEXT("0::/"), &m) == 0);
	CHECK_STR(m.v2_path, "/");
}

static void test_membership_hybrid(void)
{
	struct gt_cgroup_membership m;
	CHECK(gt_cgroup_parse_membership(TEXT(hybrid_file), &m) == 0);
	CHECK(m.has_v1_memory);
	CHECK_STR(m.v1_memory_path, "/process_api/38731d817924f9dc7a2a72ee23550acd");
	CHECK(m.has_v2);
	CHECK_STR(m.v2_path, "/user.slice/session-1.scope");
}

static void test_membership_controller_list(void)
{
	struct gt_cgroup_membership m;
	/* memory shares a hierarchy with other controllers. */
	CHECK(gt_cgroup_parse_membership(TEXT("5:cpu,memory,blkio:/grp\n"), &m) == 0);
	CHECK_STR(m.v1_memory_path, "/grp");
	/* A name that merely contains "memory" is not the controller. */
	CHECK(gt_cgroup_parse_membership(TEXT("5:name=memoryish:/x\n6:memory_foo:/y\n"), &m) == -1);
	CHECK(!m.has_v1_memory);
	/* A directory name may contain ':'; the path is the rest of the line. */
	CHECK(gt_cgroup_parse_membership(TEXT("4:memory:/pod:a:b\n"), &m) == 0);
	CHECK_STR(m.v1_memory_path, "/pod:a:b");
	/* An unnumbered or non-zero unified line is not the v2 line. */
	CHECK(gt_cgroup_parse_membership(TEXT("x::/a\n3::/b\n"), &m) == -1);
}

static void test_membership_garbage(void)
{
	struct gt_cgroup_membership m;
	CHECK(gt_cgroup_parse_membership(TEXT(""), &m) == -1);
	CHECK(gt_cgroup_parse_membership(TEXT("\n\n\n"), &m) == -1);
	CHECK(gt_cgroup_parse_membership(TEXT("garbage\n4:memory\n:memory:/x\n4:memory:relative\n"), &m) == -1);
	CHECK(!m.has_v1_memory && !m.has_v2);
	/* A bad line does not hide a good one after it. */
	CHECK(gt_cgroup_parse_membership(TEXT("4:memory\n\x01\x02:::\n0::/good\n"), &m) == 0);
	CHECK_STR(m.v2_path, "/good");
	/* Outside our cgroup namespace: no path we could read. */
	CHECK(gt_cgroup_parse_membership(TEXT("0::/../../other\n4:memory:/a/..\n"), &m) == -1);
	CHECK(gt_cgroup_parse_membership(TEXT("0::/a..b/..c\n"), &m) == 0);
	CHECK_STR(m.v2_path, "/a..b/..c");
	/* An interior NUL makes a path unusable rather than silently shorter. */
	CHECK(gt_cgroup_parse_membership("4:memory:/a\0b\n", 14, &m) == -1);
	/* Only len bytes are read: the same text cut before the path's end. */
	CHECK(gt_cgroup_parse_membership("0::/abcdef", 7, &m) == 0);
	CHECK_STR(m.v2_path, "/abc");
}

static void test_membership_overlong(void)
{
	size_t n = GT_CGROUP_PATH_MAX + 64;
	char *text = malloc(n + 32);
	CHECK(text != NULL);
	if (!text)
		return;
	/* Too long to keep: dropped, never truncated into another group's name. */
	strcpy(text, "4:memory:/");
	memset(text + strlen(text), 'a', n);
	strcpy(text + 10 + n, "\n0::/ok\n");
	struct gt_cgroup_membership m;
	CHECK(gt_cgroup_parse_membership(text, strlen(text), &m) == 0);
	CHECK(!m.has_v1_memory);
	CHECK_STR(m.v2_path, "/ok");
	/* The longest path that fits is kept whole. */
	strcpy(text, "0::/");
	memset(text + 4, 'b', GT_CGROUP_PATH_MAX - 2);
	text[GT_CGROUP_PATH_MAX + 2] = '\0';
	CHECK(gt_cgroup_parse_membership(text, strlen(text), &m) == 0);
	CHECK_U64(strlen(m.v2_path), GT_CGROUP_PATH_MAX - 1);
	free(text);
}

static void test_limit(void)
{
	uint64_t v = 7;
	CHECK(gt_cgroup_parse_limit(TEXT("268435456\n"), &v) == GT_CGROUP_LIMIT_SET);
	CHECK_U64(v, 268435456);
	CHECK(gt_cgroup_parse_limit(TEXT("max\n"), &v) == GT_CGROUP_LIMIT_UNLIMITED);
	CHECK(gt_cgroup_parse_limit(TEXT("max"), &v) == GT_CGROUP_LIMIT_UNLIMITED);
	/* v1 "unlimited" with 4 KiB and 64 KiB pages. */
	CHECK(gt_cgroup_parse_limit(TEXT("9223372036854771712\n"), &v) == GT_CGROUP_LIMIT_UNLIMITED);
	CHECK(gt_cgroup_parse_limit(TEXT("9223372036854710272\n"), &v) == GT_CGROUP_LIMIT_UNLIMITED);
	CHECK(gt_cgroup_parse_limit(TEXT("4611686018427387903\n"), &v) == GT_CGROUP_LIMIT_SET);
	CHECK_U64(v, 4611686018427387903ULL);
	CHECK(gt_cgroup_parse_limit(TEXT("0\n"), &v) == GT_CGROUP_LIMIT_SET);
	CHECK_U64(v, 0);
}

static void test_limit_garbage(void)
{
	uint64_t v = 7;
	CHECK(gt_cgroup_parse_limit(TEXT(""), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("-1\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("+5\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("maximum\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("12 34\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK(gt_cgroup_parse_limit(TEXT("0x10\n"), &v) == GT_CGROUP_LIMIT_BAD);
	/* 2^64 does not fit. */
	CHECK(gt_cgroup_parse_limit(TEXT("18446744073709551616\n"), &v) == GT_CGROUP_LIMIT_BAD);
	CHECK_U64(v, 7);
}

static void test_u64(void)
{
	uint64_t v = 0;
	CHECK(gt_cgroup_parse_u64(TEXT("190242816\n"), &v) == 0);
	CHECK_U64(v, 190242816);
	CHECK(gt_cgroup_parse_u64(TEXT("18446744073709551615"), &v) == 0);
	CHECK_U64(v, UINT64_MAX);
	CHECK(gt_cgroup_parse_u64(TEXT("18446744073709551616"), &v) == -1);
	CHECK(gt_cgroup_parse_u64(TEXT(""), &v) == -1);
	CHECK(gt_cgroup_parse_u64(TEXT("max\n"), &v) == -1);
	CHECK(gt_cgroup_parse_u64(TEXT("12a\n"), &v) == -1);
	CHECK(gt_cgroup_parse_u64(TEXT("-12\n"), &v) == -1);
}

static const char v2_stat[] =
	"anon 1048576\n"
	"file 2097152\n"
	"kernel_stack 16384\n"
	"active_file 1572864\n"
	"inactive_file 524288\n"
	"workingset_refault_file 0\n";

static const char v1_stat[] =
	"cache 827392\n"
	"inactive_file 131072\n"
	"hierarchical_memory_limit 9223372036854771712\n"
	"total_cache 827392\n"
	"total_inactive_file 262144\n";

static void test_keyed_memory_stat(void)
{
	uint64_t v = 0;
	CHECK(gt_cgroup_parse_keyed(TEXT(v2_stat), "inactive_file", &v) == 0);
	CHECK_U64(v, 524288);
	/* The exact word: inactive_file is not total_inactive_file. */
	CHECK(gt_cgroup_parse_keyed(TEXT(v1_stat), "total_inactive_file", &v) == 0);
	CHECK_U64(v, 262144);
	CHECK(gt_cgroup_parse_keyed(TEXT(v1_stat), "inactive_file", &v) == 0);
	CHECK_U64(v, 131072);
	CHECK(gt_cgroup_parse_keyed(TEXT(v1_stat), "hierarchical_memory_limit", &v) == 0);
	CHECK_U64(v, 9223372036854771712ULL);
	CHECK(gt_cgroup_parse_keyed(TEXT(v2_stat), "total_inactive_file", &v) == -1);
	CHECK(gt_cgroup_parse_keyed(TEXT(v2_stat), "inactive", &v) == -1);
}

static void test_keyed_oom(void)
{
	uint64_t v = 9;
	CHECK(gt_cgroup_parse_keyed(TEXT("low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\noom_group_kill 0\n"),
				    "oom_kill", &v) == 0);
	CHECK_U64(v, 2);
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill_disable 0\nunder_oom 0\noom_kill 5\n"), "oom_kill", &v) == 0);
	CHECK_U64(v, 5);
	/* Kernels before 4.13 have no oom_kill line in memory.oom_control. */
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill_disable 0\nunder_oom 0\n"), "oom_kill", &v) == -1);
}

static void test_keyed_garbage(void)
{
	uint64_t v = 9;
	CHECK(gt_cgroup_parse_keyed(TEXT(""), "oom_kill", &v) == -1);
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill\n"), "oom_kill", &v) == -1);
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill -1\n"), "oom_kill", &v) == -1);
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill 1 2\n"), "oom_kill", &v) == -1);
	CHECK(gt_cgroup_parse_keyed(TEXT("oom_kill=1\n"), "oom_kill", &v) == -1);
	CHECK_U64(v, 9);
	/* Garbage elsewhere in the table is not the key's business. */
	CHECK(gt_cgroup_parse_keyed(TEXT("\x7f\x01 junk\n\n  \noom_kill 4"), "oom_kill", &v) == 0);
	CHECK_U64(v, 4);
}

static void test_keyed_overlong_line(void)
{
	size_t n = 100000;
	char *text = malloc(n + 32);
	CHECK(text != NULL);
	if (!text)
		return;
	memset(text, 'x', n);
	strcpy(text + n, "\noom_kill 6\n");
	uint64_t v = 0;
	CHECK(gt_cgroup_parse_keyed(text, strlen(text), "oom_kill", &v) == 0);
	CHECK_U64(v, 6);
	/* A value too long to be a number. */
	strcpy(text, "oom_kill ");
	memset(text + 9, '1', 1000);
	text[1009] = '\0';
	CHECK(gt_cgroup_parse_keyed(text, strlen(text), "oom_kill", &v) == -1);
	free(text);
}

static const char psi_file[] =
	"some avg10=1.53 avg60=0.25 avg300=0.00 total=123456\n"
	"full avg10=0.80 avg60=0.10 avg300=0.00 total=65432\n";

static void test_psi(void)
{
	double v = -1;
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT(psi_file), &v) == 0);
	CHECK_NEAR(v, 1.53, 1e-9);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"), &v) == 0);
	CHECK_NEAR(v, 0.0, 1e-12);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("full avg10=9.00\nsome avg10=100.00 total=1"), &v) == 0);
	CHECK_NEAR(v, 100.0, 1e-9);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=42\n"), &v) == 0);
	CHECK_NEAR(v, 42.0, 1e-9);
}

static void test_psi_garbage(void)
{
	double v = -1;
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT(""), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("full avg10=1.00\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg60=1.00\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=1.\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=.5\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=1,50\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=-1.00\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=100.01\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=1e3\n"), &v) == -1);
	CHECK(gt_cgroup_parse_psi_some_avg10(TEXT("some avg10=nan\n"), &v) == -1);
	CHECK_NEAR(v, -1, 0);
}

static void test_count_lines(void)
{
	CHECK_U64(gt_cgroup_parse_count_lines(TEXT("")), 0);
	CHECK_U64(gt_cgroup_parse_count_lines(TEXT("1234\n")), 1);
	CHECK_U64(gt_cgroup_parse_count_lines(TEXT("1\n2\n3")), 3);
	CHECK_U64(gt_cgroup_parse_count_lines(TEXT("\n\n  \n42\n")), 1);
}

int main(void)
{
	RUN_TEST(test_membership_v1);
	RUN_TEST(test_membership_v2);
	RUN_TEST(test_membership_hybrid);
	RUN_TEST(test_membership_controller_list);
	RUN_TEST(test_membership_garbage);
	RUN_TEST(test_membership_overlong);
	RUN_TEST(test_limit);
	RUN_TEST(test_limit_garbage);
	RUN_TEST(test_u64);
	RUN_TEST(test_keyed_memory_stat);
	RUN_TEST(test_keyed_oom);
	RUN_TEST(test_keyed_garbage);
	RUN_TEST(test_keyed_overlong_line);
	RUN_TEST(test_psi);
	RUN_TEST(test_psi_garbage);
	RUN_TEST(test_count_lines);
	return check_summary();
}
