/* gctop --serve's seccomp filter: see serve_seccomp.h. */
#include "frontends/serve_seccomp.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define SERVE_AUDIT_ARCH AUDIT_ARCH_X86_64
/* x32's system calls run on the x86-64 arch with this bit set. */
#define SERVE_X32_BIT 0x40000000u
#elif defined(__aarch64__)
#define SERVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef SERVE_AUDIT_ARCH

#define DENY (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
/* nr == k: deny; else go on */
#define DENY_NR(k) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, 1), BPF_STMT(BPF_RET | BPF_K, DENY)

static const struct sock_filter serve_filter[] = {
	LOAD(arch),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SERVE_AUDIT_ARCH, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, DENY),
	LOAD(nr),
#ifdef SERVE_X32_BIT
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, SERVE_X32_BIT, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, DENY),
#endif
	DENY_NR(__NR_execve),
	DENY_NR(__NR_execveat),
#if GT_SERVE_DENIES_PTRACE
	DENY_NR(__NR_ptrace),
#endif
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* The threads of this process: the filter below holds the calling thread
 * and those it starts later, so it must be alone. */
static unsigned thread_count(void)
{
	DIR *d = opendir("/proc/self/task");
	unsigned n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

int gt_serve_forbid_exec(struct gt_error *err)
{
	if (thread_count() != 1)
		return gt_fail(err, GT_EXIT_FAILURE, "--serve must forbid itself exec before any thread starts");
	/* the kernel takes a filter from a process without CAP_SYS_ADMIN only
	 * with no_new_privs; --serve has no setuid program to run anyway */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "--serve cannot set no_new_privs: %s", strerror(errno));
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(serve_filter) / sizeof(serve_filter[0])),
		.filter = (struct sock_filter *)serve_filter,
	};
	/* prctl, not seccomp(2) with TSYNC: systemd's @system-service set has
	 * prctl but not seccomp, and kills a service that calls what its
	 * SystemCallFilter= leaves out */
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "--serve cannot forbid itself exec and ptrace (seccomp): %s",
			       strerror(errno));
	return 0;
}

#else

int gt_serve_forbid_exec(struct gt_error *err)
{
	return gt_fail(err, GT_EXIT_FAILURE, "--serve knows no seccomp filter for this architecture");
}

#endif
