#include "base/quit.h"

#include <string.h>

volatile sig_atomic_t gt_quit_signal;

void gt_quit_on_signal(int sig)
{
	gt_quit_signal = sig;
}

void gt_quit_by_key(void)
{
	if (!gt_quit_signal)
		gt_quit_signal = -1;
}

void gt_quit_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = gt_quit_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
