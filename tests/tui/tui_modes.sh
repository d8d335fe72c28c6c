#!/bin/sh
# sanitizer: yes
# The screen's modes when a dashboard closes under them (tui/mode.c):
# a process opened from the picker that never starts its runtime (a fake
# JVM whose perf data is taken away once it is listed) goes back to the
# picker after its 5 s wait. What was open over the waiting dashboard
# follows the table: the help stays over the picker, the interval's prompt
# stays and still answers, and the findings, which are the dashboard's
# figures, close with it (they once stayed, drawing the closed dashboard,
# and gctop crashed).
. tests/lib.sh
. tests/tui/tui_common.shlib
. tests/integration/security_fake_jvm.shlib
trap 'fake_jvm_cleanup; tui_cleanup' EXIT INT TERM
require_tmux

# open_starting KEY: a fresh picker filtered to a fresh fake JVM, which is
# then opened with its perf data gone, and KEY pressed while gctop waits.
open_starting() {
	new_server
	stop_fake_jvm
	start_fake_jvm jdk17-G1.hsperfdata || exit 0
	rm -f "$WORK/status"
	start_gctop
	if ! wait_screen "^ *$FAKE_JVM " 15; then
		fail "the picker does not list the fake JVM: $(screen | head -3)"
		exit 0
	fi
	tm send-keys /
	tm send-keys -l "$FAKE_JVM"
	tm send-keys Enter
	wait_gone "filter \\(PID" 5
	mv "$FAKE_JVM_FILE" "$WORK/perfdata"
	tm send-keys Enter
	if ! wait_screen "waiting for PID $FAKE_JVM to start its runtime" 5; then
		fail "Enter does not open the fake JVM: $(screen | tail -2)"
		exit 0
	fi
	tm send-keys "$1"
}

# back_in_picker: the wait failed, gctop went on, the picker says why.
back_in_picker() {
	wait_screen "is a JVM without a perf-data file" 15 && wait_gone "waiting for PID" 2 && [ ! -e "$WORK/status" ]
}

# quits_ok: q in the picker ends gctop with status 0.
quits_ok() {
	tm send-keys q
	status=$(wait_exit 5)
	check "q then quits with status 0 (got '$status')" [ "$status" = 0 ]
}

open_starting f
check "f opens the findings while gctop waits" wait_screen "gctop findings   q, Esc or f: close" 3
check "the failed wait goes back to the picker, and gctop runs on" back_in_picker
check "the findings closed with the dashboard" wait_screen "pick a process" 2
check "the picker's keys are back" wait_screen "Enter open  s sort" 8
quits_ok

open_starting h
check "h opens the help while gctop waits" wait_screen "gctop help" 3
check "the failed wait goes back to the picker under the help, and gctop runs on" back_in_picker
check "the help stays open" wait_screen "gctop help" 1
tm send-keys q
check "q closes the help over the picker" wait_screen "pick a process" 3
quits_ok

open_starting d
check "d asks for the interval while gctop waits" wait_screen "interval in seconds" 3
# the prompt holds the footer, so the picker's heading says the wait ended
check "the failed wait goes back to the picker, and gctop runs on" \
	eval 'wait_screen "pick a process" 15 && [ ! -e "$WORK/status" ]'
check "the prompt stays" wait_screen "interval in seconds" 1
tm send-keys -l 2
tm send-keys Enter
check "and sets the picker's interval" wait_screen "every 2s" 5
quits_ok
