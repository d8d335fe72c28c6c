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
# Other JVMs may run on this machine: walk down to the workload's row, in
# PID order, which (unlike GC%) does not change between refreshes.
tm send-keys s s s
check "s cycles to the PID order" wait_screen "sorted by PID" 5
row=$(screen | awk -v pid="$JPID" 'NR > 2 && $1 == pid { print NR - 3; exit }')
# The selection stays on its process across sorts: walk from the top.
tm send-keys Home
i=0
while [ "$i" -lt "${row:-0}" ]; do tm send-keys Down; i=$((i + 1)); done
tm send-keys Enter
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
