#!/bin/sh
# The dashboard on a live JVM: every pane shows live figures that change,
# resizing to 20x5 and back, the keys (the findings overlay among them), and
# a clean exit.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
start_workload

start_gctop -p "$JPID"
if ! wait_screen "LIVE +PID $JPID" 10; then
	fail "the dashboard did not come up: $(screen | head -3)"
	exit 0
fi
wait_screen "per min" 5
sleep 2.5
screen >"$WORK/s1"
sleep 2.2
screen >"$WORK/s2"

for pane in "Allocation" "Collections, per collector" "Pauses" "Large objects" "Memory" "Top allocators"; do
	check "pane $pane is shown" grep -q " $pane " "$WORK/s1"
done
check "header names the program and the collector" grep -Eq "TuiWorkload .*GC G1" "$WORK/s1"
# G1's estimate is an upper bound where allocations went outside TLABs
# (whole regions' tails): "rate <=N", "(estimate, at most)"
check "allocation rate is a figure" grep -Eq "rate (≤|<=)?[0-9.]+ [KMG]iB/s" "$WORK/s2"
check "allocation total is labelled as an estimate" grep -Eq "since attach \(estimate(, at most)?\)" "$WORK/s2"
check "young collections have a total" grep -Eq "young +[0-9]+ +[0-9]+ +[0-9.]+" "$WORK/s2"
check "pause share is a figure" grep -Eq "share [0-9.]+%" "$WORK/s2"
check "memory shows heap and working set" grep -Eq " used [0-9.]+ [KMG]iB .*committed" "$WORK/s2"
check "large objects: the G1 humongous estimate" grep -q "g1-humongous-estimate" "$WORK/s2"
check "top allocators says how to turn sampling on" grep -q "allocation sampling is off" "$WORK/s2"
total1=$(grep -o "total [0-9.]* [KMG]*i*B since" "$WORK/s1")
total2=$(grep -o "total [0-9.]* [KMG]*i*B since" "$WORK/s2")
young1=$(grep -Eo "young +[0-9]+" "$WORK/s1")
young2=$(grep -Eo "young +[0-9]+" "$WORK/s2")
check "allocation total changes between refreshes ($total1 / $total2)" test "$total1" != "$total2"
check "young collections change between refreshes ($young1 / $young2)" test "$young1" != "$young2"
check "the uptime moves" test "$(sed -n 2p "$WORK/s1")" != "$(sed -n 2p "$WORK/s2")"

# Resize to tiny: one line saying so, nothing else; then back.
tm resize-window -x 20 -y 5
check "20x5 shows the too-small message" wait_screen "^too small: need [0-9]+x[0-9]+" 5
check "20x5 shows nothing but that line" test "$(screen | grep -c .)" -eq 1
tm resize-window -x 60 -y 12
check "60x12 shows the most important panes" wait_screen " Allocation " 5
tm resize-window -x 100 -y 30
check "back at 100x30 every pane returns" wait_screen " Top allocators " 5

# Keys: help, freeze, interval.
tm send-keys h
check "h opens the help" wait_screen "gctop help" 5
check "help lists the keys from the table" grep -q "freeze the display" "$(screen >"$WORK/h"; echo "$WORK/h")"
tm send-keys q
check "q closes the help, not gctop" wait_screen " Allocation " 5
# Findings: the worst on the line under the header, all of them under f.
check "the findings line is under the header" grep -Eq "^ 8 Findings +(none so far|info|warning|critical) " "$WORK/s2"
tm send-keys f
check "f opens the findings" wait_screen "gctop findings +q, Esc or f: close" 5
check "the findings give their evidence and next step, or say there is none" \
	grep -Eq "No findings|evidence: " "$(screen >"$WORK/fi"; echo "$WORK/fi")"
tm send-keys Escape
check "Esc closes the findings, not gctop" wait_screen " Allocation " 5
tm send-keys f
wait_screen "gctop findings" 5
tm send-keys f
check "f again closes them" wait_screen " Allocation " 5
tm send-keys p
check "p freezes the display" wait_screen "^ FROZEN " 5
screen | grep -o "total [0-9.]* [KMG]*i*B since" >"$WORK/f1"
screen | grep -o " up [0-9:]*" >"$WORK/u1"
sleep 2.2
screen | grep -o "total [0-9.]* [KMG]*i*B since" >"$WORK/f2"
screen | grep -o " up [0-9:]*" >"$WORK/u2"
# (both captures hold the figure, or two empty captures would be equal)
same_figure() { [ -s "$1" ] && cmp -s "$1" "$2"; }
check "a frozen display does not change ($(cat "$WORK/f1") then $(cat "$WORK/f2"))" same_figure "$WORK/f1" "$WORK/f2"
check "a frozen display's uptime stops ($(cat "$WORK/u1") then $(cat "$WORK/u2"))" same_figure "$WORK/u1" "$WORK/u2"
tm send-keys p
check "p again thaws it" wait_screen "^ LIVE " 5
tm send-keys d
check "d prompts for the interval" wait_screen "interval in seconds" 5
tm send-keys 2 Enter
check "the interval becomes 2 s" wait_screen "every 2s" 5
tm send-keys +
check "+ lengthens the interval" wait_screen "every 3s" 5
tm send-keys -
check "- shortens it again" wait_screen "every 2s" 5
check "the message says so" wait_screen "^interval 2s" 2
check "the message goes by itself and the key hints come back" wait_screen "^q quit  h help" 8
tm send-keys d a b c Enter
check "a wrong interval is refused with what was typed" wait_screen 'interval "abc" ignored' 5
tm send-keys d 0 . 0 5 m Enter
check "the d prompt takes a unit as -d does: 0.05m is 3 s" wait_screen "every 3s" 5
tm send-keys Tab 7
check "7 hides the allocators pane" wait_gone " Top allocators " 5
tm send-keys 7
check "7 shows it again" wait_screen " Top allocators " 5

check "gctop is on the alternate screen while running" test "$(tm display -p '#{alternate_on}')" = 1
tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
check "the alternate screen was left" test "$(tm display -p '#{alternate_on}')" = 0
check "nothing of the dashboard is left on the screen" wait_gone "Allocation" 2
