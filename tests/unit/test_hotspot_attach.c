/* The attach listener's replies as JDK 17 and JDK 21+/25 send them, what
 * each means for the user, and the /proc status fields attach relies on. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "collectors/hotspot/attach/hotspot_attach.h"
#include "collectors/hotspot/attach/hotspot_attach_files.h"
#include "collectors/host/proc.h"
#include "tests/unit/check.h"

static int parse(const char *text, struct gt_attach_reply *r)
{
	return gt_attach_parse_reply(text, strlen(text), r);
}

static void test_load_ok_jdk17_and_25(void)
{
	struct gt_attach_reply r;
	struct gt_error err;
	CHECK(parse("0\nreturn code: 0\n", &r) == 0);
	CHECK(r.status == 0 && r.have_return_code && r.return_code == 0);
	CHECK(gt_attach_load_result(&r, 42, &err) == 0);
}

static void test_agent_return_codes(void)
{
	struct gt_attach_reply r;
	struct gt_error err;
	CHECK(parse("0\nreturn code: 3\n", &r) == 0);
	CHECK(r.have_return_code && r.return_code == 3);
	CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "shared-memory file"));
	CHECK(parse("0\nreturn code: 1\n", &r) == 0);
	CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "JDK 11"));
	/* JDK 8 answers a bare number. */
	CHECK(parse("0\n2\n", &r) == 0);
	CHECK(r.have_return_code && r.return_code == 2);
}

static void test_dynamic_loading_disabled(void)
{
	struct gt_attach_reply r;
	struct gt_error err;
	/* JDK 17: status -1; JDK 21+: status 0, the same text. */
	const char *texts[] = {
		"-1\nDynamic agent loading is not enabled. Use -XX:+EnableDynamicAgentLoading to launch target VM.\n",
		"0\nDynamic agent loading is not enabled. Use -XX:+EnableDynamicAgentLoading to launch target VM.\n",
	};
	for (int i = 0; i < 2; i++) {
		CHECK(parse(texts[i], &r) == 0);
		CHECK(!r.have_return_code);
		CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "-XX:-EnableDynamicAgentLoading"));
	}
}

static void test_library_not_loaded(void)
{
	struct gt_attach_reply r;
	struct gt_error err;
	const char *texts[] = {
		"-1\n/nonexistent.so was not loaded.\n/nonexistent.so: cannot open shared object file: No such file or directory\n",
		"0\n/nonexistent.so was not loaded.\n/nonexistent.so: cannot open shared object file: No such file or directory\n",
	};
	for (int i = 0; i < 2; i++) {
		CHECK(parse(texts[i], &r) == 0);
		CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "cannot open shared object file"));
		CHECK(strstr(r.message, "was not loaded.; /nonexistent.so") != NULL);
	}
}

static void test_other_replies(void)
{
	struct gt_attach_reply r;
	struct gt_error err;
	CHECK(parse("-1\nOperation bogus not recognized!\n", &r) == 0);
	CHECK(r.status == -1 && !r.have_return_code);
	CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "not recognized"));
	CHECK(parse("101\n", &r) == 0);
	CHECK(gt_attach_load_result(&r, 42, &err) == -1 && strstr(err.msg, "protocol version"));
	CHECK(parse("0\n2 streaming", &r) == 0); /* getversion on 25 */
	CHECK(parse("", &r) == -1);
	CHECK(parse("garbage\n", &r) == -1);
	CHECK(parse("\n0\n", &r) == -1);
	CHECK(parse("0", &r) == 0 && r.status == 0 && !r.have_return_code);
	CHECK(gt_attach_load_result(&r, 42, &err) == -1);
	CHECK(parse("0\r\nreturn code: 0\r\n", &r) == 0 && r.status == 0);
}

static void test_message_bounded_and_clean(void)
{
	char big[2000];
	memset(big, 'x', sizeof(big));
	memcpy(big, "-1\n", 3);
	big[500] = '\x1b';
	big[sizeof(big) - 1] = '\0';
	struct gt_attach_reply r;
	CHECK(parse(big, &r) == 0);
	CHECK(strlen(r.message) == sizeof(r.message) - 1);
	CHECK(strchr(r.message, '\x1b') == NULL);
}

static void test_status_fields(void)
{
	const char *text =
		"Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nNgid:\t0\nPid:\t4242\n"
		"Uid:\t1000\t1001\t1001\t1001\nGid:\t2000\t2002\t2002\t2002\n"
		"NStgid:\t4242\t7\nNSpid:\t4242\t7\n"
		"SigQ:\t0/31446\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\n"
		"SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t2000000181005ccf\n";
	struct gt_attach_status st;
	CHECK(gt_attach_parse_status(text, 4242, &st) == 0);
	CHECK(st.nspid == 7);
	CHECK(st.euid == 1001 && st.egid == 2002);
	CHECK(gt_attach_catches_sigquit(&st));

	/* -Xrs: SIGQUIT (bit 3 counted from 1) not caught. */
	const char *xrs = "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nNSpid:\t99\n"
			  "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nSigCgt:\t2000000181005cc9\n";
	CHECK(gt_attach_parse_status(xrs, 99, &st) == 0);
	CHECK(st.nspid == 99 && !gt_attach_catches_sigquit(&st));

	/* Ignored wins over caught; missing fields mean no signal facts. */
	const char *ign = "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nSigBlk:\t0\nSigIgn:\t4\nSigCgt:\t4\n";
	CHECK(gt_attach_parse_status(ign, 5, &st) == 0 && st.nspid == 5 && !gt_attach_catches_sigquit(&st));
	CHECK(gt_attach_parse_status("Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n", 5, &st) == 0 && !st.have_signals);
	CHECK(gt_attach_parse_status("Name:\tjava\n", 5, &st) == -1);
}

/* ---- leftovers of killed attaches ---- */

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static bool present(const char *dir, const char *name)
{
	char path[512];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &sb) == 0;
}

/* In a directory of our own: a marked trigger (or a trigger's part, made
 * where there is no O_TMPFILE) whose maker is gone goes, and so does an
 * empty part whose maker (its name's pid) is gone (killed before its mark);
 * one whose maker runs (this process), an unmarked one, a link under a
 * trigger's name, a fresh agent copy and a copy-named file of other bytes
 * stay. */
static void test_clear_leftovers(void)
{
	char dir[] = "/tmp/gctop-test-leftovers.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char agent[600], mark[96];
	snprintf(agent, sizeof(agent), "%s/agent.so", dir);
	put(dir, "agent.so", "agent bytes");
	put(dir, ".attach_pid101", "gctop-attach 999999999 12345\n");
	put(dir, ".attach_pid110.999999999.part", "gctop-attach 999999999 12345\n");
	unsigned long long ticks = 0;
	CHECK(gt_proc_start_ticks(getpid(), &ticks) == 0);
	snprintf(mark, sizeof(mark), "gctop-attach %d %llu\n", (int)getpid(), ticks);
	put(dir, ".attach_pid102", mark);
	put(dir, ".attach_pid103", "");
	char own_part[64];
	snprintf(own_part, sizeof(own_part), ".attach_pid112.%d.part", (int)getpid());
	put(dir, ".attach_pid111.999999999.part", "");
	put(dir, own_part, "");
	put(dir, ".gctop-agent-104.so", "agent bytes");
	put(dir, ".gctop-agent-105.so", "other bytes");
	char link[600];
	snprintf(link, sizeof(link), "%s/.attach_pid106", dir);
	CHECK(symlink(".attach_pid101", link) == 0);
	int fd = open(dir, O_PATH | O_DIRECTORY);
	struct gt_attach_status st = { .nspid = 100, .euid = geteuid(), .egid = getegid() };
	gt_attach_clear_leftovers(fd, agent, &st);
	close(fd);
	CHECK(!present(dir, ".attach_pid101"));
	CHECK(!present(dir, ".attach_pid110.999999999.part"));
	CHECK(present(dir, ".attach_pid102"));
	CHECK(present(dir, ".attach_pid103"));
	CHECK(!present(dir, ".attach_pid111.999999999.part"));
	CHECK(present(dir, own_part));
	CHECK(present(dir, ".gctop-agent-104.so"));
	CHECK(present(dir, ".gctop-agent-105.so"));
	CHECK(present(dir, ".attach_pid106"));
	const char *names[] = { "agent.so", ".attach_pid102", ".attach_pid103", ".gctop-agent-104.so",
				".gctop-agent-105.so", ".attach_pid106", own_part };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[600];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* A copy of the agent with a second link (a name a user linked to it) is
 * not gctop's: it is neither compared nor removed, under the JVM's own
 * name (which clears whatever the age) as under another; a copy of one
 * link, the agent's bytes, is. */
static void test_linked_copy_stays(void)
{
	char dir[] = "/tmp/gctop-test-linked.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char agent[600], copy[600], other[600];
	snprintf(agent, sizeof(agent), "%s/agent.so", dir);
	snprintf(copy, sizeof(copy), "%s/.gctop-agent-107.so", dir);
	snprintf(other, sizeof(other), "%s/.gctop-agent-108.so", dir);
	put(dir, "agent.so", "agent bytes");
	put(dir, ".gctop-agent-107.so", "agent bytes");
	CHECK(link(copy, other) == 0);
	int fd = open(dir, O_PATH | O_DIRECTORY);
	struct gt_attach_status st = { .nspid = 107, .euid = geteuid(), .egid = getegid() };
	gt_attach_clear_own_copy(fd, agent, &st);
	CHECK(present(dir, ".gctop-agent-107.so"));
	st.nspid = 108;
	gt_attach_clear_own_copy(fd, agent, &st);
	CHECK(present(dir, ".gctop-agent-108.so"));
	/* one link again: the JVM's own copy goes */
	unlink(other);
	st.nspid = 107;
	gt_attach_clear_own_copy(fd, agent, &st);
	CHECK(!present(dir, ".gctop-agent-107.so"));
	close(fd);
	unlink(copy);
	unlink(other);
	unlink(agent);
	rmdir(dir);
}

/* A pid above any pid_max (2^22): no process, no working directory, so the
 * trigger goes into the tmp given. */
#define NO_PID INT_MAX

/* The trigger has its mark from the moment it has its name: watched with
 * inotify, its name appears (created or moved in) and is never written
 * after, and it holds gctop's mark. Then an unmarked file under the name
 * is used (someone else's) and neither replaced nor removed. */
static void test_trigger_made_marked(void)
{
	char dir[] = "/tmp/gctop-test-trigger.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	CHECK(in >= 0);
	CHECK(inotify_add_watch(in, dir, IN_CREATE | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE) >= 0);
	struct gt_attach_status st = { .nspid = 109, .euid = geteuid(), .egid = getegid() };
	struct gt_attach_trigger t;
	int tmp = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(gt_attach_trigger_create(NO_PID, &st, tmp, &t) == 0);
	CHECK(t.dir >= 0);
	/* every event of the directory so far, those of the trigger's name counted */
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(in, buf, sizeof(buf));
	int appeared = 0, written_after = 0;
	for (char *p = buf; n > 0 && p < buf + n;) {
		const struct inotify_event *e = (const struct inotify_event *)p;
		if (e->len && strcmp(e->name, t.name) == 0) {
			if (e->mask & (IN_CREATE | IN_MOVED_TO))
				appeared++;
			else if (appeared)
				written_after++;
		}
		p += sizeof(*e) + e->len;
	}
	CHECK(appeared == 1);
	CHECK(written_after == 0);
	char path[600], text[96], mark[96];
	snprintf(path, sizeof(path), "%s/%s", dir, t.name);
	FILE *f = fopen(path, "r");
	CHECK(f && fgets(text, sizeof(text), f));
	unsigned long long ticks = 0;
	CHECK(gt_proc_start_ticks(getpid(), &ticks) == 0);
	snprintf(mark, sizeof(mark), "gctop-attach %d %llu\n", (int)getpid(), ticks);
	CHECK(f && strcmp(text, mark) == 0);
	if (f)
		fclose(f);
	gt_attach_trigger_remove(&t);
	CHECK(!present(dir, ".attach_pid109"));
	/* someone else's unmarked trigger: used, kept */
	put(dir, ".attach_pid109", "");
	CHECK(gt_attach_trigger_create(NO_PID, &st, tmp, &t) == 0);
	CHECK(t.dir == -1);
	gt_attach_trigger_remove(&t);
	CHECK(present(dir, ".attach_pid109"));
	unlink(path);
	close(tmp);
	close(in);
	rmdir(dir);
}

/* The mark is the whole text of the trigger, one line. */
static void test_parse_mark(void)
{
	pid_t maker = 0;
	unsigned long long ticks = 0;
	CHECK(gt_attach_parse_mark("gctop-attach 4242 123456\n", &maker, &ticks) == 0);
	CHECK_U64(maker, 4242);
	CHECK_U64(ticks, 123456);
	CHECK(gt_attach_parse_mark("", &maker, &ticks) == -1);
	CHECK(gt_attach_parse_mark("gctop-attach 4242 123456", &maker, &ticks) == -1);
	CHECK(gt_attach_parse_mark("gctop-attach 4242 123456\nmore", &maker, &ticks) == -1);
	CHECK(gt_attach_parse_mark("gctop-attach 0 1\n", &maker, &ticks) == -1);
	CHECK(gt_attach_parse_mark("gctop-attach -7 1\n", &maker, &ticks) == -1);
	CHECK(gt_attach_parse_mark("jcmd 4242 1\n", &maker, &ticks) == -1);
}

static void test_maps_line(void)
{
	const char *line = "7f1c2a000000-7f1c2a001000 r--p 00000000 fd:01 42   /tmp/.gctop-agent-7.so (deleted)\n";
	CHECK(gt_attach_maps_line_is(line, makedev(0xfd, 1), 42));
	CHECK(!gt_attach_maps_line_is(line, makedev(0xfd, 0), 42));
	CHECK(!gt_attach_maps_line_is(line, makedev(0xfd, 1), 43));
	CHECK(!gt_attach_maps_line_is("/tmp/.gctop-agent-7.so (deleted)\n", makedev(0xfd, 1), 42));
}

/* The copy is known in a process's maps by device and inode, whatever
 * path the process sees it under. */
static void test_copy_mapped(void)
{
	char path[] = "/tmp/gctop-test-mapped.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "x", 1) == 1);
	struct gt_attach_copy c = { .name = "copy" };
	CHECK(fstat(fd, &c.made) == 0);
	CHECK(!gt_attach_copy_mapped(getpid(), &c));
	void *m = mmap(NULL, 1, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(m != MAP_FAILED);
	unlink(path); /* mapped, the name no longer matters */
	CHECK(gt_attach_copy_mapped(getpid(), &c));
	c.made.st_ino++;
	CHECK(!gt_attach_copy_mapped(getpid(), &c));
	if (m != MAP_FAILED)
		munmap(m, 1);
	close(fd);
}

int main(void)
{
	RUN_TEST(test_load_ok_jdk17_and_25);
	RUN_TEST(test_agent_return_codes);
	RUN_TEST(test_dynamic_loading_disabled);
	RUN_TEST(test_library_not_loaded);
	RUN_TEST(test_other_replies);
	RUN_TEST(test_message_bounded_and_clean);
	RUN_TEST(test_status_fields);
	RUN_TEST(test_clear_leftovers);
	RUN_TEST(test_linked_copy_stays);
	RUN_TEST(test_trigger_made_marked);
	RUN_TEST(test_parse_mark);
	RUN_TEST(test_maps_line);
	RUN_TEST(test_copy_mapped);
	return check_summary();
}
