#!/bin/sh
# The picker: the workload is listed with live figures; Enter opens it, q
# goes back, q quits.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
start_workload

FIRST=$JPID
start_gctop
if ! wait_screen "^ *$JPID .*TuiWorkload" 15; then
	fail "the picker does not list the workload: $(screen | head -5)"
	exit 0
fi
check "the picker names its columns" grep -q "ALLOC/s" "$(screen >"$WORK/p"; echo "$WORK/p")"
check "the workload's row gets a live allocation rate" wait_screen "^ *$JPID .* [0-9.]+ [KMG]iB/s .*TuiWorkload" 10

# A JVM that starts while the picker is open is listed, opened on a later
# refresh without stalling the screen, and gets live figures too.
classes=$(java_classes)
start_java "$WORK/late.log" -Xmx64m -XX:+UseSerialGC -cp "$classes" TuiWorkload 60
LATE=$JPID
JPID=$FIRST
check "a JVM started later is listed" wait_screen "^ *$LATE .*TuiWorkload" 15
check "the later JVM gets a live allocation rate" wait_screen "^ *$LATE .* [0-9.]+ [KMG]iB/s .*TuiWorkload" 15

tm send-keys s
check "s sorts by the next column" wait_screen "sorted by GC%" 5
tm send-keys s s s
check "s cycles to the PID order" wait_screen "sorted by PID" 5
# Other JVMs may run on this machine, more than the screen holds: the
# filter keeps the rows holding the workload's PID, the first of which in
# PID order is the workload's own (any other holds more digits).
tm send-keys /
check "/ asks for a filter" wait_screen "filter \\(PID, user" 5
tm send-keys -l "nomatch-$$"
check "a filter that matches nothing says so" wait_screen "no process matches \"nomatch-$$\"" 5
tm send-keys Escape
check "Esc clears the filter" wait_screen "pick a process \([0-9]+ found" 5
tm send-keys / && tm send-keys -l "$JPID" && tm send-keys Enter
check "the filter keeps the workload's row" wait_screen "of [0-9]+ found match \"$JPID\"" 5
check "the filtered list shows the workload" wait_screen "^ *$JPID .*TuiWorkload" 5
tm send-keys Home Enter
check "Enter opens the selected process" wait_screen "PID $JPID .*TuiWorkload" 10
check "its panes are shown" wait_screen " Allocation " 5
tm send-keys q
check "q goes back to the picker" wait_screen "pick a process" 5
tm send-keys Enter
check "Enter opens it again" wait_screen " Allocation " 10
tm send-keys Escape
check "Esc goes back to the picker too" wait_screen "pick a process" 5
tm send-keys q
status=$(wait_exit 5)
check "q in the picker exits with status 0 (got '$status')" test "$status" = 0
check "the alternate screen was left" test "$(tm display -p '#{alternate_on}')" = 0
