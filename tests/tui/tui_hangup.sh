#!/bin/sh
# test-lane: timed
# (Its bound, 2 s of wall time from the hangup to gctop's status, measured
# from outside gctop: in the timed lane no other test's workload shares
# the two cores with it.)
# The terminal goes away under the full-screen view: the tmux server is
# killed (the pane's master closed) while the shell above gctop survives
# the hangup, so no SIGHUP comes, only a hung-up terminal; or SIGHUP comes
# alone (an ssh that dropped). Either way gctop ends within 2 s with exit
# status 19, its .NET target's diagnostics connections closed (the
# EventPipe session ended); in the picker too. SIGTERM still gives 0. And a
# terminal that takes no more output (its tmux server stopped, so the
# pane's writes block in ncurses, where no flag is looked at): SIGTERM
# still ends gctop, after its 1 s grace, dying of it (143).
# (Before: a hung-up gctop exited 0, as if the user had quit; one blocked
# in a write ignored SIGTERM for as long as the terminal was not read, and
# on a terminal left non-blocking spun at 100% CPU, deaf to SIGTERM.)
. tests/lib.sh
. tests/tui/tui_common.shlib
# A tmux server this test stopped is let go on any way out, or its
# kill-server would wait for it.
TMUX_STOPPED=""
trap '[ -n "$TMUX_STOPPED" ] && kill -CONT "$TMUX_STOPPED"; tui_cleanup' EXIT INT TERM
require_tmux
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

start_dotnet GcAlloc 1 20 120
dotnet_socket_exists "$DPID" || { fail "the .NET workload has no diagnostics socket"; exit 0; }

# gctop_pid: the pid of the gctop the pane's shell runs.
gctop_pid() { pgrep -P "$(tm list-panes -F '#{pane_pid}')" -x gctop; }
has_ends() { [ -n "$(gctop_ends "$gpid" "$DPID")" ]; }
has_status() { [ -s "$WORK/status" ]; }
got_status() { sed 's/gctop-exit=//' "$WORK/status" 2>/dev/null; }

# start_hupless ARGS...: gctop ARGS in a fresh pane under a shell that
# ignores SIGHUP, so it outlives the hangup, sends gctop none, and writes
# gctop's status; no sleep after it, which would outlive the test. The
# shell's own stderr goes nowhere: its word on a child killed by a signal
# ("Terminated") would block on an unread terminal before the status.
start_hupless() {
	new_server
	rm -f "$WORK/status"
	tm new-session -d -x 100 -y 30 "trap '' HUP; exec 3>&2 2>/dev/null; $GCTOP_BIN $* 2>&3; $(status_to gctop-exit "$WORK/status")"
}

# ends_of_dashboard: once the dashboard is up, gctop's pid in $gpid and its
# connections to the .NET workload in $ends; 1 when it did not come up.
ends_of_dashboard() {
	wait_screen " Memory " 15 || return 1
	gpid=$(gctop_pid)
	[ -n "$gpid" ] || return 1
	wait_until 50 has_ends
	ends=$(gctop_ends "$gpid" "$DPID")
}

# The pane's terminal hangs up (tmux killed), no SIGHUP.
start_hupless -p "$DPID"
if ! ends_of_dashboard; then
	fail "the .NET dashboard did not come up: $(screen | head -3)"
	exit 0
fi
check "gctop holds a diagnostics connection to PID $DPID before the hangup ($ends)" [ -n "$ends" ]
tm kill-server
wait_until 20 has_status
status=$(got_status)
check "a hung-up terminal ends gctop within 2 s with status 19 (got '$status')" [ "$status" = 19 ]
check "and its connections to the .NET process are closed ($ends)" wait_until 20 ends_closed "$DPID" "$ends"

# SIGHUP alone (the terminal still there).
start_hupless -p "$DPID"
if ! ends_of_dashboard; then
	fail "the .NET dashboard did not come up again: $(screen | head -3)"
	exit 0
fi
kill -HUP "$gpid"
wait_until 20 has_status
status=$(got_status)
check "SIGHUP ends gctop within 2 s with status 19 (got '$status')" [ "$status" = 19 ]
check "and its connections to the .NET process are closed after SIGHUP ($ends)" wait_until 20 ends_closed "$DPID" "$ends"

# SIGTERM is a quit, not a hangup: status 0, as documented.
start_hupless -p "$DPID"
if ! ends_of_dashboard; then
	fail "the .NET dashboard did not come up a third time: $(screen | head -3)"
	exit 0
fi
kill -TERM "$gpid"
wait_until 20 has_status
status=$(got_status)
check "SIGTERM ends gctop within 2 s with status 0 (got '$status')" [ "$status" = 0 ]
check "and its connections to the .NET process are closed after SIGTERM ($ends)" wait_until 20 ends_closed "$DPID" "$ends"

# The picker's terminal hangs up.
start_hupless
wait_screen "pick a process" 10
tm kill-server
wait_until 20 has_status
status=$(got_status)
check "a hung-up terminal ends the picker within 2 s with status 19 (got '$status')" [ "$status" = 19 ]

# A terminal nobody reads: the tmux server stopped, gctop repaints (SIGWINCH
# repaints all) until its write to the pane blocks (its main thread in
# write(2), /proc/PID/syscall 1).
start_hupless -p "$DPID"
if ! ends_of_dashboard; then
	fail "the .NET dashboard did not come up a fourth time: $(screen | head -3)"
	exit 0
fi
TMUX_STOPPED=$(tm display -p '#{pid}')
kill -STOP "$TMUX_STOPPED"
in_write() { read -r _sc _rest <"/proc/$gpid/syscall" && [ "$_sc" = 1 ]; }
repaint_until_blocked() {
	_n=0
	while [ "$_n" -lt 200 ]; do
		kill -WINCH "$gpid" 2>/dev/null || return 1
		sleep 0.05
		in_write && in_write && return 0
		_n=$((_n + 1))
	done
	return 1
}
check "gctop's write to the unread terminal blocks" repaint_until_blocked
kill -TERM "$gpid"
wait_until 30 has_status
status=$(got_status)
check "SIGTERM ends gctop blocked on the terminal within 3 s, dying of it (got '$status')" [ "$status" = 143 ]
check "and its connections to the .NET process are closed after it ($ends)" wait_until 20 ends_closed "$DPID" "$ends"
kill -CONT "$TMUX_STOPPED"
TMUX_STOPPED=""
