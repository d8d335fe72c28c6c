#include "tui/term.h"

#include "base/fault.h"
#include "base/quit.h"
#include "base/sighandler.h"

#include <errno.h>
#include <fcntl.h>
#include <ncurses.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* How long a quit signal waits for the clean way out (base/quit.h): the
 * loop ends within a wait's wake, the teardown waits for no answer. */
#define TERM_QUIT_GRACE_S 1

volatile sig_atomic_t gt_term_resized;
static volatile sig_atomic_t screen_open;
/* The terminal's file status flags as gctop found them. */
static int term_flags = -1;

static void on_winch(int sig)
{
	(void)sig;
	gt_term_resized = 1;
}

/* A crash must not leave the user's shell in raw mode on the alternate
 * screen: restore it, then die of the same signal (core dump included).
 * endwin() is not async-signal-safe, but the process is lost anyway and a
 * usable terminal is worth the risk, as htop and nvtop judge too. */
static void on_crash(int sig)
{
	if (screen_open) {
		screen_open = 0;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int gt_term_open(void)
{
	/* No SA_RESTART: the signal must end the loop's poll() at once; the
	 * flag (base/quit.h) also ends any collector's wait. */
	gt_quit_install();
	gt_sighandler_install(SIGWINCH, on_winch, 0);
	/* A write to a terminal that went away must not kill us before the
	 * terminal modes are restored; the write simply fails. */
	gt_sighandler_install(SIGPIPE, SIG_IGN, 0);
	static const int crash[] = { SIGSEGV, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		gt_sighandler_install(crash[i], on_crash, SA_RESETHAND | SA_NODEFER);
	/* SIGBUS has one handler, which survives a truncated perf-data file
	 * and calls this one for any other. */
	gt_fault_on_crash(on_crash);

	if (!newterm(NULL, stdout, stdin))
		return -1;
	screen_open = 1;
	/* ncurses retries a write that says EAGAIN at once, forever: on a
	 * terminal another program left non-blocking (the flag is the open
	 * file's, shared) and nobody reads, it would spin. Blocking, a stuck
	 * write waits quietly for the quit signal's grace. */
	term_flags = fcntl(STDOUT_FILENO, F_GETFL);
	if (term_flags >= 0 && (term_flags & O_NONBLOCK))
		fcntl(STDOUT_FILENO, F_SETFL, term_flags & ~O_NONBLOCK);
	gt_quit_set_grace(TERM_QUIT_GRACE_S);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* Esc alone should act at once, not after a second. */
	set_escdelay(25);
	curs_set(0);
	return 0;
}

void gt_term_close(void)
{
	if (!screen_open)
		return;
	screen_open = 0;
	curs_set(1);
	endwin();
	if (term_flags >= 0 && (term_flags & O_NONBLOCK))
		fcntl(STDOUT_FILENO, F_SETFL, term_flags);
	/* The last write to the terminal is done. */
	gt_quit_set_grace(0);
}

bool gt_term_gone(void)
{
	/* A hung-up terminal answers every ioctl with EIO; a live one,
	 * whatever its size (0x0 too), answers this one. */
	struct winsize ws;
	return (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) != 0 && errno == EIO) ||
	       (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 && errno == EIO);
}

void gt_term_apply_resize(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	/* The old picture is stale at the new size: repaint it all once. */
	clearok(curscr, TRUE);
}
