#include "base/quit.h"

#include "base/sighandler.h"

atomic_int gt_quit_signal;

void gt_quit_on_signal(int sig)
{
	gt_quit_signal = sig;
}

void gt_quit_by_key(void)
{
	int none = 0;
	atomic_compare_exchange_strong(&gt_quit_signal, &none, -1);
}

void gt_quit_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		gt_sighandler_install(sigs[i], gt_quit_on_signal, 0);
}
