#include "base/fault.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>

#include "base/sighandler.h"

/* A SIGBUS goes to the thread that faulted, so the way back is per thread:
 * a session's worker (session/job.h) may read a JVM's file while the main
 * thread reads another's. */
static _Thread_local sigjmp_buf fault_env;
static _Thread_local volatile sig_atomic_t fault_armed;
static _Atomic(void (*)(int)) fault_crash;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;

static void fault_on_sigbus(int sig)
{
	if (fault_armed)
		siglongjmp(fault_env, 1);
	void (*crash)(int) = atomic_load(&fault_crash);
	if (crash)
		crash(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void fault_install(void)
{
	/* SIGBUS stays unblocked in the handler, so the jump back needs no
	 * saved signal mask (sigsetjmp(env, 0)): no system call per read. */
	gt_sighandler_install(SIGBUS, fault_on_sigbus, SA_NODEFER);
}

int gt_fault_guarded(void (*fn)(void *), void *arg)
{
	pthread_once(&fault_once, fault_install);
	if (sigsetjmp(fault_env, 0) != 0) {
		fault_armed = 0;
		return -1;
	}
	fault_armed = 1;
	fn(arg);
	fault_armed = 0;
	return 0;
}

void gt_fault_on_crash(void (*crash)(int))
{
	atomic_store(&fault_crash, crash);
	pthread_once(&fault_once, fault_install);
}
