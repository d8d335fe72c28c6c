/* gt_cgroup_* through libcgroup on this machine's real mounts: the test's
 * own group, a process that has gone, and (where the machine allows it) a
 * memory-limited group of its own that is deleted under a watched process. */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/host/cgroup.h"
#include "collectors/host/cgroup_parse.h"
#include "tests/unit/check.h"

#define GROUP_LIMIT (256ull << 20)

/* Where the test process's memory group lives, found without libcgroup so
 * the collector is checked against an independent answer. */
struct expected {
	int version;
	char dir[GT_CGROUP_PATH_MAX + 64];   /* the group's directory */
	char path[GT_CGROUP_PATH_MAX];       /* as /proc/self/cgroup names it */
};

static int fs_type_is(const char *dir, long magic)
{
	struct statfs fs;
	return statfs(dir, &fs) == 0 && (long)fs.f_type == magic;
}

static int find_expected(struct expected *e)
{
	char text[8192];
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -1;
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	struct gt_cgroup_membership m;
	if (gt_cgroup_parse_membership(text, n, &m) != 0)
		return -1;
	const char *mount;
	if (m.has_v1_memory && fs_type_is("/sys/fs/cgroup/memory", CGROUP_SUPER_MAGIC)) {
		e->version = 1;
		mount = "/sys/fs/cgroup/memory";
		strcpy(e->path, m.v1_memory_path);
	} else if (m.has_v2 && fs_type_is("/sys/fs/cgroup", CGROUP2_SUPER_MAGIC)) {
		e->version = 2;
		mount = "/sys/fs/cgroup";
		strcpy(e->path, m.v2_path);
	} else {
		return -1;
	}
	snprintf(e->dir, sizeof(e->dir), "%s%s", mount, strcmp(e->path, "/") == 0 ? "" : e->path);
	return 0;
}

static int write_file(const char *dir, const char *name, const char *value)
{
	char path[GT_CGROUP_PATH_MAX + 128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

static pid_t start_sleeper(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

static void stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static struct expected self;
static bool have_self;

static void test_own_group(void)
{
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	struct gt_cgroup *cg = gt_cgroup_open(getpid(), &info);
	CHECK(cg != NULL);
	CHECK(info.cgroup_version == self.version);
	CHECK_STR(info.cgroup_path, self.path);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_cgroup_sample(cg, &s);
	CHECK(s.cgroup_usage_bytes.valid && s.cgroup_usage_bytes.value > 0);
	CHECK(s.cgroup_working_set_bytes.valid);
	CHECK(s.cgroup_working_set_bytes.value <= s.cgroup_usage_bytes.value);
	CHECK(s.oom_kills.valid);
	/* Limits are the same figure whether read at open or per sample. */
	CHECK(s.cgroup_limit_bytes.valid == info.cgroup_limit_bytes.valid);
	if (access("/proc/pressure/memory", R_OK) == 0 || self.version == 2) {
		CHECK(s.memory_pressure_avg10.valid);
		CHECK(s.memory_pressure_system_wide == (self.version == 1));
	}
	gt_cgroup_close(cg);
}

/* In a round, two processes of one group share one reading: 64 MiB touched
 * between their samples changes the group's usage, yet the second sample
 * shows the first's figures; after the round the next sample reads again. */
static void test_round_shares_group(void)
{
	pid_t pid = start_sleeper();
	CHECK(pid > 0);
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	struct gt_cgroup *a = gt_cgroup_open(getpid(), &info);
	struct gt_cgroup *b = gt_cgroup_open(pid, &info);
	struct gt_sample sa, sb, after;
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	memset(&after, 0, sizeof(after));
	size_t n = 64u << 20;
	/* volatile: a store never read back would be optimised away */
	volatile char *mem = malloc(n);
	CHECK(mem != NULL);
	gt_cgroup_round_begin();
	gt_cgroup_sample(a, &sa);
	for (size_t i = 0; mem && i < n; i += 4096)
		mem[i] = 1;
	gt_cgroup_sample(b, &sb);
	gt_cgroup_round_end();
	gt_cgroup_sample(b, &after);
	CHECK(sa.cgroup_usage_bytes.valid);
	CHECK_U64(sb.cgroup_usage_bytes.value, sa.cgroup_usage_bytes.value);
	CHECK_U64(sb.cgroup_processes.value, sa.cgroup_processes.value);
	CHECK(after.cgroup_usage_bytes.valid && after.cgroup_usage_bytes.value != sa.cgroup_usage_bytes.value);
	free((void *)mem);
	gt_cgroup_close(a);
	gt_cgroup_close(b);
	stop(pid);
}

static void test_gone_process(void)
{
	pid_t pid = start_sleeper();
	CHECK(pid > 0);
	stop(pid);
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	struct gt_cgroup *cg = gt_cgroup_open(pid, &info);
	CHECK(cg != NULL); /* no group is no failure */
	CHECK(info.cgroup_version == 0);
	CHECK(info.cgroup_path[0] == '\0');
	CHECK(!info.cgroup_limit_bytes.valid);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 31; i++)
		gt_cgroup_sample(cg, &s);
	CHECK(!s.cgroup_usage_bytes.valid && !s.cgroup_limit_bytes.valid);
	CHECK(!s.cgroup_working_set_bytes.valid && !s.oom_kills.valid);
	CHECK(!s.memory_pressure_avg10.valid);
	gt_cgroup_close(cg);
	gt_cgroup_sample(NULL, &s);
	gt_cgroup_close(NULL);
}

/* A limited child group, watched, then deleted under the watcher: the reads
 * of its vanished files must fail quietly (libcgroup 2.0.2 crashes if the
 * failed read is ended), and the next path look-up must find the parent. */
static void test_limited_group_deleted(char *group_dir, pid_t pid)
{
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	struct gt_cgroup *cg = gt_cgroup_open(pid, &info);
	CHECK(cg != NULL);
	CHECK(info.cgroup_limit_bytes.valid);
	CHECK_U64(info.cgroup_limit_bytes.value, GROUP_LIMIT);
	CHECK(strstr(info.cgroup_path, strrchr(group_dir, '/')) != NULL);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_cgroup_sample(cg, &s);
	CHECK(s.cgroup_limit_bytes.valid);
	CHECK_U64(s.cgroup_limit_bytes.value, GROUP_LIMIT);
	CHECK(s.cgroup_usage_bytes.valid);
	/* the group holds the sleeper alone: its usage is the process's own */
	CHECK(s.cgroup_processes.valid);
	CHECK_U64(s.cgroup_processes.value, 1);

	char pid_text[32];
	snprintf(pid_text, sizeof(pid_text), "%d\n", (int)pid);
	CHECK(write_file(self.dir, "cgroup.procs", pid_text) == 0);
	CHECK(rmdir(group_dir) == 0);
	memset(&s, 0, sizeof(s));
	gt_cgroup_sample(cg, &s);
	CHECK(!s.cgroup_usage_bytes.valid && !s.cgroup_limit_bytes.valid && !s.oom_kills.valid);
	for (int i = 0; i < 30; i++) {
		memset(&s, 0, sizeof(s));
		gt_cgroup_sample(cg, &s);
	}
	CHECK(s.cgroup_usage_bytes.valid);
	CHECK(!s.cgroup_limit_bytes.valid || s.cgroup_limit_bytes.value != GROUP_LIMIT);
	gt_cgroup_close(cg);
}

/* A cgroup this test cannot make or fill: a skip naming its cause, which
 * under CI=true is a failure (CI runs as root with a memory controller; the
 * shell tests' skip_unless_ci in tests/lib.sh does the same). */
static void skip_cgroup(const char *test, const char *why, const char *detail)
{
	const char *ci = getenv("CI");
	if (ci && strcmp(ci, "true") == 0)
		printf("FAIL: %s: %s%s (cause cgroup: CI's machine provides it, so under CI=true this is a failure)\n",
		       test, why, detail);
	else
		printf("SKIP: %s: [cgroup] %s%s\n", test, why, detail);
}

static void run_limited_group(void)
{
	char dir[sizeof(self.dir) + 64], limit[32];
	snprintf(dir, sizeof(dir), "%s/gctop-unit-%d", self.dir, (int)getpid());
	if (mkdir(dir, 0755) != 0) {
		skip_cgroup("test_limited_group_deleted", "cannot create a cgroup here: ", strerror(errno));
		return;
	}
	snprintf(limit, sizeof(limit), "%llu\n", GROUP_LIMIT);
	pid_t pid = -1;
	char pid_text[32] = "";
	bool ready = write_file(dir, self.version == 2 ? "memory.max" : "memory.limit_in_bytes", limit) == 0;
	if (ready)
		pid = start_sleeper();
	if (pid > 0)
		snprintf(pid_text, sizeof(pid_text), "%d\n", (int)pid);
	ready = ready && pid > 0 && write_file(dir, "cgroup.procs", pid_text) == 0;
	if (ready) {
		check_begin("test_limited_group_deleted");
		test_limited_group_deleted(dir, pid);
		check_end();
	} else {
		skip_cgroup("test_limited_group_deleted", "cannot limit a cgroup or move a process into it here", "");
	}
	stop(pid);
	rmdir(dir); /* already gone when the test got that far */
}

/* Rounds read a group's count of processes once every 10 s and the rest at
 * every round: a second process moved into the group shows in the usage
 * figures' round at once, in the count only outside rounds (and 10 s on). */
static void test_rounds_keep_count(const char *dir, pid_t first, pid_t second)
{
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	struct gt_cgroup *cg = gt_cgroup_open(first, &info);
	struct gt_sample r1, r2, outside;
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	memset(&outside, 0, sizeof(outside));
	gt_cgroup_round_begin();
	gt_cgroup_sample(cg, &r1);
	gt_cgroup_round_end();
	char pid_text[32];
	snprintf(pid_text, sizeof(pid_text), "%d\n", (int)second);
	CHECK(write_file(dir, "cgroup.procs", pid_text) == 0);
	gt_cgroup_round_begin();
	gt_cgroup_sample(cg, &r2);
	gt_cgroup_round_end();
	gt_cgroup_sample(cg, &outside);
	CHECK(r1.cgroup_processes.valid && r1.cgroup_processes.value == 1);
	CHECK(r2.cgroup_processes.valid && r2.cgroup_processes.value == 1);  /* kept */
	CHECK(r2.cgroup_usage_bytes.valid);                                    /* read */
	CHECK(outside.cgroup_processes.valid && outside.cgroup_processes.value == 2);
	gt_cgroup_rounds_free();
	gt_cgroup_close(cg);
}

static void run_rounds_group(void)
{
	char dir[sizeof(self.dir) + 64], pid_text[32];
	snprintf(dir, sizeof(dir), "%s/gctop-unit-rounds-%d", self.dir, (int)getpid());
	if (mkdir(dir, 0755) != 0) {
		skip_cgroup("test_rounds_keep_count", "cannot create a cgroup here: ", strerror(errno));
		return;
	}
	pid_t a = start_sleeper(), b = start_sleeper();
	snprintf(pid_text, sizeof(pid_text), "%d\n", (int)a);
	if (a > 0 && b > 0 && write_file(dir, "cgroup.procs", pid_text) == 0) {
		check_begin("test_rounds_keep_count");
		test_rounds_keep_count(dir, a, b);
		check_end();
	} else {
		skip_cgroup("test_rounds_keep_count", "cannot move a process into a cgroup here", "");
	}
	stop(a);
	stop(b);
	rmdir(dir);
}

/* libcgroup 2.0.2's default logger prints to stdout (later versions: stderr)
 * and takes its level from CGROUP_LOGLEVEL; either stream would spoil the
 * full-screen view or the NDJSON. A child makes libcgroup's first use under the
 * most verbose level, with both streams captured, and reads files of a group
 * it has just deleted (each failed open logs a warning). */
static void child_uses_libcgroup(int out_fd)
{
	setenv("CGROUP_LOGLEVEL", "4", 1);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	struct gt_target_info info;
	struct gt_sample s;
	memset(&info, 0, sizeof(info));
	memset(&s, 0, sizeof(s));
	struct gt_cgroup *cg = gt_cgroup_open(getpid(), &info);
	gt_cgroup_sample(cg, &s);
	gt_cgroup_close(cg);

	char dir[sizeof(self.dir) + 64], pid_text[32];
	snprintf(dir, sizeof(dir), "%s/gctop-unit-quiet-%d", self.dir, (int)getpid());
	snprintf(pid_text, sizeof(pid_text), "%d\n", (int)getpid());
	if (mkdir(dir, 0755) == 0) {
		if (write_file(dir, "cgroup.procs", pid_text) == 0) {
			cg = gt_cgroup_open(getpid(), &info);
			write_file(self.dir, "cgroup.procs", pid_text);
			rmdir(dir);
			gt_cgroup_sample(cg, &s);
			gt_cgroup_close(cg);
		}
		rmdir(dir);
	}
	fflush(stdout);
	_exit(0);
}

static void test_library_silent(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_uses_libcgroup(fds[1]);
	}
	close(fds[1]);
	char buf[256];
	ssize_t n, total = 0;
	while ((n = read(fds[0], buf, sizeof(buf) - 1)) > 0) {
		if (total == 0) {
			buf[n] = '\0';
			check_fail(__FILE__, __LINE__, "libcgroup printed: %s", buf);
		}
		total += n;
	}
	close(fds[0]);
	int status = -1;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(total == 0);
}

int main(void)
{
	have_self = find_expected(&self) == 0;
	/* First: it must be the first use of libcgroup in the process. */
	RUN_TEST(test_library_silent);
	if (have_self) {
		RUN_TEST(test_own_group);
		RUN_TEST(test_round_shares_group);
		run_limited_group();
		run_rounds_group();
	} else {
		skip_cgroup("test_own_group", "this process is in no readable memory cgroup", "");
	}
	RUN_TEST(test_gone_process);
	return check_summary();
}
