/* The diagnostics IPC wire format and socket discovery on crafted bytes. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "collectors/dotnet/ipc/diag_ipc.h"
#include "collectors/dotnet/proc/dotnet_proc.h"
#include "base/utf16.h"
#include "collectors/host/proc.h"
#include "tests/unit/check.h"

static void test_collect_tracing2_matches_the_reference_bytes(void)
{
	/* The CollectTracing2 example of the protocol reference, with gctop's
	 * fields: 64 MB, NetTrace, no rundown, GC keyword at Informational. */
	struct gt_diag_provider p = { "Microsoft-Windows-DotNETRuntime", 0x1, 4, NULL, NULL, 0 };
	static struct gt_diag_msg m;
	CHECK(gt_diag_build_collect(&m, 2, 64, &p, 1) == 0);
	CHECK_U64(m.len, 117);
	static const uint8_t head[] = { 'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0,
					117, 0, 2, 3, 0, 0, 64, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,
					1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 32, 0, 0, 0, 'M', 0 };
	CHECK(memcmp(m.data, head, sizeof(head)) == 0);
	CHECK(memcmp(m.data + 113, "\0\0\0\0", 4) == 0); /* empty arguments */
}

static void test_collect_versions_lay_out_their_flags(void)
{
	struct gt_diag_provider p = { "P", 0, 4, "EventCounterIntervalSec=1", NULL, 0 };
	static struct gt_diag_msg m;
	CHECK(gt_diag_build_collect(&m, 5, 16, &p, 1) == 0);
	CHECK_U64(m.data[17], 0x06);
	/* session type 0, buffer, format, rundown keyword (8), stackwalk (1), count */
	CHECK_U64(m.data[20], 0);
	CHECK_U64(m.data[24], 16);
	CHECK_U64(m.data[28], 1);
	CHECK_U64(m.data[32 + 8], 0);      /* no stacks */
	CHECK_U64(m.data[41], 1);          /* one provider */
	/* 20 + 4+4+4+8+1+4 + provider (8+4+4+2*2+4+2*26) + filter (1+4) */
	CHECK_U64(m.len, 45 + 8 + 4 + 8 + 4 + 52 + 5);
	CHECK_U64(m.data[14] | (m.data[15] << 8), m.len);
	CHECK(gt_diag_build_collect(&m, 3, 16, &p, 1) == 0);
	CHECK_U64(m.data[17], 0x04);
	CHECK(gt_diag_build_collect(&m, 6, 16, &p, 1) == -1);
}

/* CollectTracing 5's event filter: enable 0 and the ids left out, after
 * the provider's arguments; older commands have no filter to send. */
static void test_collect5_leaves_out_the_skipped_ids(void)
{
	static const uint32_t skip[] = { 10, 203, 0x12345678 };
	struct gt_diag_provider p = { "P", 1, 5, NULL, skip, 3 };
	static struct gt_diag_msg m;
	CHECK(gt_diag_build_collect(&m, 5, 16, &p, 1) == 0);
	/* 20 + 4+4+4+8+1+4 + provider (8+4+4+2*2+4) + filter (1+4+3*4) */
	size_t filter = 20 + 25 + 24;
	CHECK_U64(m.len, filter + 1 + 4 + 12);
	static const uint8_t want[] = { 0, 3, 0, 0, 0, 10, 0, 0, 0, 203, 0, 0, 0, 0x78, 0x56, 0x34, 0x12 };
	CHECK(memcmp(m.data + filter, want, sizeof(want)) == 0);
	CHECK(gt_diag_build_collect(&m, 4, 16, &p, 1) == 0);
	CHECK_U64(m.len, 20 + 4 + 4 + 8 + 1 + 4 + 24);
}

static void test_oversized_message_is_refused(void)
{
	static char big[70000];
	memset(big, 'a', sizeof(big) - 1);
	struct gt_diag_provider p = { big, 0, 4, NULL, NULL, 0 };
	static struct gt_diag_msg m;
	CHECK(gt_diag_build_collect(&m, 2, 16, &p, 1) == -1);
}

static void test_header_parsing(void)
{
	uint8_t b[20] = { 'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0, 28, 0, 0xFF, 0x00, 0, 0 };
	struct gt_diag_header h;
	CHECK(gt_diag_parse_header(b, sizeof(b), &h) == 0);
	CHECK_U64(h.size, 28);
	CHECK_U64(h.command_set, 0xFF);
	CHECK(gt_diag_parse_header(b, 19, &h) == -1);
	b[14] = 19;
	CHECK(gt_diag_parse_header(b, sizeof(b), &h) == -1);
	b[14] = 28;
	b[3] = 'X';
	CHECK(gt_diag_parse_header(b, sizeof(b), &h) == -1);
}

static size_t put_string(uint8_t *p, const char *s)
{
	size_t n = strlen(s) + 1;
	p[0] = (uint8_t)n;
	p[1] = p[2] = p[3] = 0;
	for (size_t i = 0; i < n; i++) {
		p[4 + 2 * i] = (uint8_t)s[i];
		p[5 + 2 * i] = 0;
	}
	return 4 + 2 * n;
}

static size_t process_info3(uint8_t *p)
{
	size_t n = 0;
	p[n++] = 1; p[n++] = 0; p[n++] = 0; p[n++] = 0;   /* version */
	p[n++] = 0x39; p[n++] = 0x30; memset(p + n, 0, 6); n += 6; /* pid 12345 */
	memset(p + n, 0xAB, 16); n += 16;                  /* cookie */
	n += put_string(p + n, "/usr/bin/dotnet app.dll --port 80");
	n += put_string(p + n, "Linux");
	n += put_string(p + n, "x64");
	n += put_string(p + n, "app");
	n += put_string(p + n, "10.0.12");
	n += put_string(p + n, "linux-x64");
	return n;
}

static void test_process_info_versions(void)
{
	uint8_t p[512];
	size_t n = process_info3(p);
	struct gt_diag_process_info pi;
	CHECK(gt_diag_parse_process_info(p, n, 3, &pi) == 0);
	CHECK_U64(pi.pid, 12345);
	CHECK_STR(pi.command_line, "/usr/bin/dotnet app.dll --port 80");
	CHECK_STR(pi.os, "Linux");
	CHECK_STR(pi.arch, "x64");
	CHECK_STR(pi.entry_assembly, "app");
	CHECK_STR(pi.runtime_version, "10.0.12");
	CHECK_STR(pi.rid, "linux-x64");
	CHECK_U64(gt_diag_runtime_major(pi.runtime_version), 10);
	/* ProcessInfo2 is the same without the leading version and the RID */
	CHECK(gt_diag_parse_process_info(p + 4, n - 4 - (4 + 2 * 10), 2, &pi) == 0);
	CHECK_STR(pi.runtime_version, "10.0.12");
	CHECK_STR(pi.rid, "");
	/* every truncation is an error, never a read past the end */
	for (size_t cut = 0; cut < n - (4 + 2 * 10); cut++)
		CHECK(gt_diag_parse_process_info(p, cut, 3, &pi) == -1);
}

static void test_huge_string_count_is_refused(void)
{
	uint8_t p[64] = { 0 };
	p[24] = 0xFF; p[25] = 0xFF; p[26] = 0xFF; p[27] = 0x7F; /* command line count */
	struct gt_diag_process_info pi;
	CHECK(gt_diag_parse_process_info(p, sizeof(p), 1, &pi) == -1);
}

static void test_utf16_conversion(void)
{
	/* "a", e-acute, a surrogate pair (U+1F600), an escape character, NUL */
	const uint8_t s[] = { 'a', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0x1B, 0, 0, 0, 'z', 0 };
	char out[32];
	gt_utf16_to_utf8(s, 7, out, sizeof(out));
	CHECK_STR(out, "a\xC3\xA9\xF0\x9F\x98\x80?");
	char tiny[4];
	gt_utf16_to_utf8(s, 7, tiny, sizeof(tiny));
	CHECK_STR(tiny, "a\xC3\xA9"); /* truncated at a character boundary */
	CHECK(gt_utf16z_units(s, sizeof(s)) == 5);
	CHECK(gt_utf16z_units(s, 9) == -1);
}

static void test_nspid_parsing(void)
{
	pid_t ns = 0;
	CHECK(gt_proc_parse_nspid("Name:\tx\nNSpid:\t680\t50\t1\nNSgid:\t1\n", &ns) == 0);
	CHECK_U64(ns, 1);
	CHECK(gt_proc_parse_nspid("Name:\tx\nNSpid:\t4242\n", &ns) == 0);
	CHECK_U64(ns, 4242);
	CHECK(gt_proc_parse_nspid("Name:\tx\n", &ns) == -1);
}

static int bind_socket(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Maps an empty file named libcoreclr.so, which is what makes a process
 * a .NET runtime to discovery. Returns the mapping or NULL. */
static void *pose_as_runtime(char *lib, size_t len)
{
	snprintf(lib, len, "/tmp/gctop-test-%d", (int)getpid());
	mkdir(lib, 0700);
	snprintf(lib, len, "/tmp/gctop-test-%d/libcoreclr.so", (int)getpid());
	int fd = open(lib, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		return NULL;
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return m == MAP_FAILED ? NULL : m;
}

static void test_discovery_ignores_sockets_of_an_earlier_process(void)
{
	/* Our own process stands in for a target: its TMPDIR is this test's. */
	const char *tmp = getenv("TMPDIR");
	char dir[256], lib[128];
	snprintf(dir, sizeof(dir), "%s", tmp && tmp[0] == '/' ? tmp : "/tmp");
	struct gt_error err = { 0 };
	char found[GT_DIAG_PATH_MAX];
	/* Not a runtime (no libcoreclr.so mapped): no socket counts. */
	CHECK(gt_diag_find_socket(getpid(), found, sizeof(found), &err) == 1);
	void *runtime = pose_as_runtime(lib, sizeof(lib));
	CHECK(runtime != NULL);
	unsigned long long start;
	CHECK(gt_proc_start_ticks(getpid(), &start) == 0);
	char good[300], stale[300], shown[340];
	snprintf(good, sizeof(good), "%s/dotnet-diagnostic-%d-%llu-socket", dir, (int)getpid(), start);
	snprintf(stale, sizeof(stale), "%s/dotnet-diagnostic-%d-%llu-socket", dir, (int)getpid(), start + 1);
	/* Found under our root, walked again without links at connect. */
	snprintf(shown, sizeof(shown), "/proc/%d/root%s", (int)getpid(), good);
	CHECK(gt_diag_find_socket(getpid(), found, sizeof(found), &err) == 1);
	int a = bind_socket(good);
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	nanosleep(&pause, NULL);
	int b = bind_socket(stale); /* newer, but of an earlier process with our pid */
	CHECK(a >= 0 && b >= 0);
	CHECK(gt_diag_find_socket(getpid(), found, sizeof(found), &err) == 0);
	CHECK_STR(found, shown);
	/* The socket found is connected to, and its listener is us. */
	listen(a, 1);
	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(gt_diag_connect_checked(c, found) == 0);
	close(c);
	/* A link with a socket's name is not a socket. */
	unlink(good);
	CHECK(symlink(stale, good) == 0);
	CHECK(gt_diag_find_socket(getpid(), found, sizeof(found), &err) == 1);
	unlink(good);
	unlink(stale);
	close(a);
	close(b);
	if (runtime)
		munmap(runtime, 4096);
	unlink(lib);
	*strrchr(lib, '/') = '\0';
	rmdir(lib);
}

int main(void)
{
	RUN_TEST(test_collect_tracing2_matches_the_reference_bytes);
	RUN_TEST(test_collect_versions_lay_out_their_flags);
	RUN_TEST(test_collect5_leaves_out_the_skipped_ids);
	RUN_TEST(test_oversized_message_is_refused);
	RUN_TEST(test_header_parsing);
	RUN_TEST(test_process_info_versions);
	RUN_TEST(test_huge_string_count_is_refused);
	RUN_TEST(test_utf16_conversion);
	RUN_TEST(test_nspid_parsing);
	RUN_TEST(test_discovery_ignores_sockets_of_an_earlier_process);
	return check_summary();
}
