#!/bin/sh
# At 80x24, the size of a default SSH terminal, every pane keeps its
# essential rows: every generation, the pause share with the last and the
# longest pause, what lives on the large object heap, the memory figures,
# and the allocation sites; on a JVM and on .NET with allocation sampling.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
require_dotnet
start_workload
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }

# start_small ARGS...: gctop in an 80x24 pane
start_small() {
	new_server
	rm -f "$WORK/status"
	tm new-session -d -x 80 -y 24 "$GCTOP_BIN $*; $(status_to gctop-exit "$WORK/status"); sleep 60"
}

# shows WHAT REGEX: the screen shows REGEX within 10 s
shows() {
	check "80x24, $1: shows $2" wait_screen "$2" 10
}

# the picker keeps PROGRAM, which tells two services apart
start_small
check "80x24, picker: the PROGRAM column is shown" wait_screen "PID .*ALLOC/s .*PROGRAM" 10
check "80x24, picker: the workload's row names its program" wait_screen "^ *$JPID .*TuiWorkload" 15
tm send-keys q
wait_exit 5 >/dev/null

start_small -p "$JPID"
wait_screen " Memory " 10
sleep 2.5
shows JVM "─ 2 Allocation"
shows JVM "^ rate [0-9.]+ [KMG]?i?B/s"
shows JVM " young +[0-9]+ +[0-9]+ +[0-9.]+"
shows JVM " old +[0-9]+ +[0-9]+ +[0-9.]+"
shows JVM "last cause "
shows JVM " share [0-9.]+%"
shows JVM " last [0-9.]+ [mµu]?s +longest in"
shows JVM "─ 5 Large objects"
shows JVM " used [0-9.]+ [KMG]iB +. committed"
shows JVM " working set [0-9.]+ [KMG]iB"
shows JVM " heap max [0-9.]+ [KMG]iB"
shows JVM "key a starts a flight recording"
tm send-keys q
wait_exit 5 >/dev/null

"$exe" 40 120 >"$WORK/sites.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"
start_small -p "$DPID" --allocators
wait_screen " Memory " 15
shows .NET " gen0 +[0-9]+"
shows .NET " gen1 +[0-9]+"
shows .NET " gen2 +[0-9]+"
shows .NET "watched"
shows .NET " share [0-9.]+%"
shows .NET " live [0-9.]+ [KMG]?i?B"
shows .NET " used [0-9.]+ [KMG]iB"
shows .NET " working set "
shows .NET "by (app|first application) frame"
shows .NET "Lines\.Small"
shows .NET "Lines\.Large"
shows .NET "Lines\.Text"
tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
