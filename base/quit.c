#include "base/quit.h"

#include <unistd.h>

#include "base/sighandler.h"

atomic_int gt_quit_signal;

/* The grace in seconds (0: none), and whether its alarm is set. */
static atomic_uint quit_grace_s;
static atomic_bool quit_grace_armed;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_BOOL_LOCK_FREE == 2, "set in a signal handler: lock-free");

void gt_quit_on_signal(int sig)
{
	gt_quit_signal = sig;
	/* alarm() is async-signal-safe; the first signal sets it, later ones
	 * do not put it off. */
	unsigned grace = quit_grace_s;
	bool no = false;
	if (grace && atomic_compare_exchange_strong(&quit_grace_armed, &no, true))
		alarm(grace);
}

/* The grace is over and gctop is still here: it dies of the quit signal,
 * by its default action (signal, sigprocmask and raise are
 * async-signal-safe). */
static void quit_grace_over(int alrm)
{
	int sig = gt_quit_signal > 0 ? gt_quit_signal : SIGTERM;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	signal(sig, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + alrm);
}

void gt_quit_set_grace(unsigned seconds)
{
	if (seconds)
		gt_sighandler_install(SIGALRM, quit_grace_over, 0);
	quit_grace_s = seconds;
	if (!seconds && atomic_exchange(&quit_grace_armed, false))
		alarm(0);
}

void gt_quit_by_key(void)
{
	int none = 0;
	atomic_compare_exchange_strong(&gt_quit_signal, &none, -1);
}

void gt_quit_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		gt_sighandler_install(sigs[i], gt_quit_on_signal, 0);
		sigaddset(&set, sigs[i]);
	}
	/* A mask inherited blocked (exec keeps it) would hold them off forever. */
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
