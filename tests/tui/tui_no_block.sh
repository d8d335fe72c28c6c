#!/bin/sh
# sanitizer: yes
# Nothing blocks the screen. While a target is still starting (a "JVM"
# whose perf data has not appeared yet) and while .NET allocation sampling
# starts (against a process stopped with SIGSTOP, so that it cannot answer
# for a while), the screen keeps redrawing (the wait counts its seconds)
# and answering keys (h opens the help); Esc cancels the wait, and a wait
# that fails ends gctop -p as it ends -b.
. tests/lib.sh
. tests/tui/tui_common.shlib
. tests/integration/security_fake_jvm.shlib
trap 'fake_jvm_cleanup; tui_cleanup' EXIT INT TERM
require_tmux
require_dotnet

# start_starting_jvm: a fake JVM (a program named java that maps a library
# named libjvm.so) whose perf data is taken away as soon as it is written,
# as if the JVM had not got that far yet; gctop waits for it up to 5 s.
start_starting_jvm() {
	stop_fake_jvm
	start_fake_jvm jdk17-G1.hsperfdata || exit 0
	mv "$FAKE_JVM_FILE" "$WORK/perfdata"
}

start_starting_jvm
start_gctop -p "$FAKE_JVM"
check "the screen says it waits for the starting JVM" wait_screen "waiting for PID $FAKE_JVM to start its runtime" 3
tm send-keys h
check "h opens the help while gctop waits" wait_screen "gctop help" 2
tm send-keys q
check "q closes the help, and the wait goes on" wait_screen "waiting for PID $FAKE_JVM to start" 2
mv "$WORK/perfdata" "$FAKE_JVM_FILE"
check "the dashboard comes up once the perf data is there" wait_screen " Memory " 5
check "and the wait has gone" wait_gone "waiting for PID" 2
tm send-keys q
status=$(wait_exit 5)
check "q then quits with status 0 (got $status)" [ "$status" = 0 ]

new_server
start_starting_jvm
rm -f "$WORK/status"
start_gctop -p "$FAKE_JVM"
wait_screen "waiting for PID $FAKE_JVM" 3
check "the wait counts its seconds: the screen redraws by itself" wait_screen "start its runtime \.\.\. [1-9]s" 3
tm send-keys Escape
status=$(wait_exit 2)
check "Esc cancels the wait at once, with status 0 (got '$status')" [ "$status" = 0 ]
check "a cancelled wait prints no error" wait_gone "gctop: " 1

# One that never gets there: once the wait is over gctop leaves the screen
# with the sentence and the status -b gives (6: no perf data).
new_server
start_starting_jvm
rm -f "$WORK/status"
start_gctop -p "$FAKE_JVM"
wait_screen "waiting for PID $FAKE_JVM" 3
status=$(wait_exit 10)
check "a JVM that never writes its perf data ends gctop with the status of -b (got '$status')" [ "$status" = 6 ]
check "and with the sentence, after the screen" wait_screen "gctop: process $FAKE_JVM is a JVM without a perf-data file" 2
stop_fake_jvm

# .NET: turning allocation sampling on restarts the EventPipe session after
# a rundown, which a stopped process does not answer.
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }
"$exe" 40 120 >"$WORK/sites.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"
new_server
rm -f "$WORK/status"
start_gctop -p "$DPID"
if ! wait_screen " Memory " 15; then
	fail "the .NET dashboard did not come up: $(screen | head -3)"
	exit 0
fi
kill -STOP "$DPID"
tm send-keys a
check "a says allocation sampling is starting" wait_screen "starting allocation sampling in PID $DPID" 2
check "and so does the allocators pane, not \"off\"" wait_screen "starting: waiting for a second reading" 2
tm send-keys h
check "h opens the help while sampling starts" wait_screen "gctop help" 2
tm send-keys q
check "the start goes on, counting its seconds" wait_screen "starting allocation sampling in PID $DPID \.\.\. [1-9]s" 3
kill -CONT "$DPID"
check "the start ends with a sentence on the footer" wait_screen "allocation sampling (on in PID $DPID|:)" 20
tm send-keys q
status=$(wait_exit 5)
check "q quits with status 0 (got '$status')" [ "$status" = 0 ]
