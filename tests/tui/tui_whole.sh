#!/bin/sh
# Words that fit (issue 35): at 80x24 and 120x40, on a live JVM and a live
# .NET target, every text on the dashboard is whole (no word cut at a
# pane's edge, no reason cut short with "..."): the memory pane wraps its
# reasons ("live set n/a  no collection has reached the old generation
# yet") onto the next rows and asks for them; the census's question ends
# with its keys y/N; the key hints say what Tab and 1-8 do within 79
# columns; the memory pane alone spans the screen; the picker names its
# sort whole. The screen checks are tests/tui/tui_whole.py.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

whole() { python3 tests/tui/tui_whole.py "$@"; }

# at SIZE TAG: resizes to SIZE (COLSxROWS), waits two refreshes and for
# the key hints (a note after a question fades first), and captures the
# screen into $WORK/TAG.
at() {
	tm resize-window -x "${1%x*}" -y "${1#*x}"
	sleep 2.5
	wait_screen "Memory" 5
	wait_screen "^q quit" 10
	screen >"$WORK/$2"
}

# dashboard_checks WHO: both sizes, the question at each, the memory pane alone.
dashboard_checks() {
	for size in 80x24 120x40; do
		w=${size%x*}
		at "$size" "$1.$size"
		check "$1 $size: every word on the dashboard is whole" whole whole-words "$WORK/$1.$size" "$w"
		check "$1 $size: the key hints fit and say what Tab and 1-8 do" whole hints "$WORK/$1.$size" "$w"
		tm send-keys c
		if wait_screen "take a census" 5; then
			sleep 0.3
			screen >"$WORK/$1.$size.question"
			check "$1 $size: the census question shows its keys" whole question "$WORK/$1.$size.question"
			tm send-keys n
			wait_gone "take a census" 5
		else
			fail "$1 $size: c asked nothing: $(screen | tail -3)"
		fi
	done
	# every pane but the memory pane (and the header, 1) hidden
	for k in 2 3 4 5 7 8; do tm send-keys "$k"; done
	at 80x24 "$1.alone"
	check "$1 80x24: the memory pane alone spans the screen" whole full-width "$WORK/$1.alone" 80 Memory
	check "$1 80x24: alone, its words are whole" whole whole-words "$WORK/$1.alone" 80
	for k in 2 3 4 5 7 8; do tm send-keys "$k"; done
}

start_workload

# ---- the picker, its list filtered to the JVM: the longest title ----
tm new-session -d -x 80 -y 24 "$GCTOP_BIN; $(status_to gctop-exit "$WORK/status"); sleep 120"
if wait_screen "pick a process" 15; then
	tm send-keys / && tm send-keys -l "TuiWorkload" && tm send-keys Enter
	wait_screen "^ *$JPID .*TuiWorkload" 10
	sleep 1
	screen >"$WORK/picker80"
	check "picker 80x24: the title names its sort whole" whole picker-title "$WORK/picker80" 80
else
	fail "the picker did not come up: $(screen | head -3)"
fi
tm send-keys q
wait_exit 5 >/dev/null
new_server
rm -f "$WORK/status"

# ---- a JVM: young collections only, so the live set is n/a and says why ----
tm new-session -d -x 80 -y 24 "$GCTOP_BIN -p $JPID; $(status_to gctop-exit "$WORK/status"); sleep 120"
if ! wait_screen "LIVE +PID $JPID" 15; then
	fail "the JVM dashboard did not come up: $(screen | head -3)"
	exit 0
fi
check "jvm: the live set says why it is n/a" wait_screen "live set n/a" 10
dashboard_checks jvm
tm send-keys q
status=$(wait_exit 5)
check "q exits the JVM's dashboard with status 0 (got '$status')" test "$status" = 0
kill "$JPID" 2>/dev/null
new_server
rm -f "$WORK/status"

# ---- .NET ----
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }
"$exe" 40 120 >"$WORK/sites.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID" || { fail "the .NET workload opened no diagnostics socket"; exit 0; }
tm new-session -d -x 80 -y 24 "$GCTOP_BIN -p $DPID; $(status_to gctop-exit "$WORK/status"); sleep 120"
if ! wait_screen "LIVE +PID $DPID" 20; then
	fail "the .NET dashboard did not come up: $(screen | head -3)"
	exit 0
fi
wait_screen "live set" 10
dashboard_checks net
tm send-keys q
status=$(wait_exit 5)
check "q exits the .NET dashboard with status 0 (got '$status')" test "$status" = 0
