#!/bin/sh
# Read at a glance (issue 26) at 80x24 and at 200x60, on a live JVM and on
# a live .NET target with allocation sampling: the worst finding, the
# pause distribution and the per-operation line are whole (cut at a word or
# left out, never inside one), every graph says its top, no pane with
# content has a blank row, .NET shows no row it never has (loh/poh
# collections, safepoints, GC CPU, metaspace) and the process CPU instead;
# the sites have names that differ, and the stacks overlay's explanation is
# whole at 80 columns. The screen checks are tests/tui/tui_glance.py.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

# glance CHECK SCREEN [ARG...]: tests/tui/tui_glance.py's check; when it
# fails, the screen it read goes to the test's log.
glance() {
	python3 tests/tui/tui_glance.py "$@" && return 0
	sed 's/^/  | /' "$2"
	return 1
}

# screen_checks TAG: the checks every dashboard passes, on $WORK/TAG.
screen_checks() {
	check "$1: no pane with content has a blank row" glance no-blank-row "$WORK/$1"
	check "$1: the pause distribution is whole" glance pause-line "$WORK/$1"
	check "$1: the per-operation line is whole" glance per-op-line "$WORK/$1"
	check "$1: each graph says its top" glance graph-labels "$WORK/$1"
	# The findings overlay holds the titles whole: the line under the
	# header shows one of them whole or up to a word.
	tm send-keys f
	if wait_screen "gctop findings" 5; then
		sleep 0.3
		screen >"$WORK/$1.findings"
		tm send-keys f
		wait_gone "gctop findings" 5
		check "$1: the worst finding is cut at a word, if at all" glance finding-line "$WORK/$1" "$WORK/$1.findings"
	else
		fail "$1: f did not open the findings"
	fi
}

# at SIZE TAG: resizes to SIZE (COLSxROWS), waits two refreshes and
# captures the dashboard into $WORK/TAG.
at() {
	tm resize-window -x "${1%x*}" -y "${1#*x}"
	sleep 2.5
	wait_screen "Collections" 5
	screen >"$WORK/$2"
}

# ---- a JVM ----
start_workload
tm new-session -d -x 80 -y 24 "$GCTOP_BIN -p $JPID; $(status_to gctop-exit "$WORK/status"); sleep 120"
if ! wait_screen "LIVE +PID $JPID" 15; then
	fail "the JVM dashboard did not come up: $(screen | head -3)"
	exit 0
fi
wait_screen "per min" 10
sleep 4
at 80x24 jvm80
screen_checks jvm80
check "jvm80: the process CPU is on the screen" grep -Eq "process CPU [0-9.]+%" "$WORK/jvm80"
check "jvm80: a JVM keeps its metaspace" grep -q "metaspace" "$WORK/jvm80"
at 200x60 jvm200
screen_checks jvm200
# the graphs are at most 10 rows: their figures follow within 12 rows of the title
alloc_rows=$(awk '/ 2 Allocation /{t=NR} / total [0-9.]+ [KMG]?i?B since/{if (t) {print NR - t; exit}}' "$WORK/jvm200")
check "jvm200: the allocation graph is 10 rows at most (the total is $alloc_rows rows below its title)" \
	test "${alloc_rows:-99}" -le 12
tm send-keys q
status=$(wait_exit 5)
check "q exits the JVM's dashboard with status 0 (got '$status')" test "$status" = 0
kill "$JPID" 2>/dev/null
new_server
rm -f "$WORK/status"

# ---- .NET, allocation sampling on ----
start_dotnet JsonText 1 100 90
tm new-session -d -x 80 -y 24 "$GCTOP_BIN -p $DPID --allocators; $(status_to gctop-exit "$WORK/status"); sleep 120"
if ! wait_screen "Serialize +[0-9.]+ [KMG]iB/s" 20; then
	fail "the .NET dashboard listed no site: $(screen | tail -12)"
	exit 0
fi
sleep 3
at 80x24 net80
screen_checks net80
check "net80: the sites' names differ" glance names-distinct "$WORK/net80"
check "net80: the process CPU is on the screen" grep -Eq "process CPU [0-9.]+%" "$WORK/net80"
check "net80: no loh or poh row of n/a" sh -c "! grep -Eq ' (loh|poh) +n/a' '$WORK/net80'"
check "net80: no safepoints, GC CPU or metaspace row" sh -c "! grep -Eq 'safepoints|GC CPU|metaspace' '$WORK/net80'"

# The stacks overlay at 80 columns: its explanation whole, wrapped at words.
# Tab moves the focus one pane on; the marked site shows once the focus is
# on the top-allocators pane. Each Tab waits for its redraw (a loaded
# machine may take longer than tab_until's 0.2 s, and a Tab too many
# passes the pane).
tabs=0   # not i: wait_screen counts with it
while [ "$tabs" -lt 8 ]; do
	tm send-keys Tab
	wait_screen '(^| )>[^ ]*Serialize ' 1 && break
	tabs=$((tabs + 1))
done
tm send-keys Enter
if wait_screen "gctop stacks behind a site" 5; then
	sleep 0.3
	screen >"$WORK/stacks80"
	check "stacks80: the explanation is whole at 80 columns" glance sentence "$WORK/stacks80" \
		"shares of the site's sampled bytes since sampling started; innermost frame first, up to the first application frame and a few callers; [native]: code no method covers"
	tm send-keys Escape
	wait_gone "gctop stacks behind a site" 5
else
	fail "Enter did not open the stacks overlay: $(screen | tail -12)"
fi

at 200x60 net200
screen_checks net200
check "net200: the sites' names differ" glance names-distinct "$WORK/net200"
check "net200: no loh or poh row of n/a" sh -c "! grep -Eq ' (loh|poh) +n/a' '$WORK/net200'"
tm send-keys q
status=$(wait_exit 5)
check "q exits the .NET dashboard with status 0 (got '$status')" test "$status" = 0
