#!/bin/sh
# test-lane: timed
# sanitizer: yes
# The picker and the full-screen view stay responsive with a hostile
# diagnostics socket on the machine: a fake .NET process (as nobody) whose
# replies come a byte at a time. The picker shows its list within 5 s and q
# ends it within 1 s; Ctrl-C ends a full-screen gctop still waiting for the
# target within 1 s, with status 0, and q ends a session at once though its
# StopTracing answer dribbles. (Before: a blank screen that ignored q
# and Ctrl-C for as long as the reply took.)
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
. tests/integration/security_fake_dotnet.shlib
trap 'tm kill-server 2>/dev/null; fake_cleanup; cleanup' EXIT INT TERM

start_fake dribble 0.25 || exit 0

# exit_within SECONDS: gctop's exit status file appears within SECONDS.
exit_within() { wait_for_file "$WORK/status" "$1"; }

t0=$(now_ms)
start_gctop
if wait_screen "q quit" 5; then
	pass "the picker is drawn within 5 s ($(($(now_ms) - t0)) ms) beside a dribbling socket"
else
	fail "the picker was not drawn within 5 s: $(screen | head -3)"
fi
t0=$(now_ms)
tm send-keys q
if exit_within 1; then
	pass "q ends the picker within 1 s ($(($(now_ms) - t0)) ms), status $(wait_exit 1)"
else
	fail "q did not end the picker within 1 s"
fi

new_server
rm -f "$WORK/status"
start_gctop -p "$FAKE"
sleep 0.7
t0=$(now_ms)
tm send-keys C-c
if exit_within 1; then
	st=$(wait_exit 1)
	check "Ctrl-C ends the full-screen view within 1 s while the target dribbles ($(($(now_ms) - t0)) ms), status $st" \
		[ "$st" = 0 ]
else
	fail "Ctrl-C did not end the full-screen view within 1 s"
fi

# q in the full-screen view of a session whose StopTracing answer dribbles:
# gctop sends StopTracing on the way out but does not wait for the answer.
stop_fake
start_fake stop 0.45 || exit 0
new_server
rm -f "$WORK/status"
start_gctop -p "$FAKE"
if wait_screen "PID $FAKE" 10; then
	t0=$(now_ms)
	tm send-keys q
	if exit_within 1; then
		pass "q ends a .NET session within 1 s though StopTracing dribbles ($(($(now_ms) - t0)) ms), status $(wait_exit 1)"
	else
		fail "q did not end the .NET session within 1 s"
	fi
else
	fail "the dashboard of the fake .NET process did not come up: $(screen | head -3)"
fi
