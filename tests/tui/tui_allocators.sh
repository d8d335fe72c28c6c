#!/bin/sh
# The top-allocators pane on a live JVM whose three methods allocate 60/30/10
# by bytes: key a asks first; n loads nothing; y loads gctop's agent and the
# pane ranks the three sites by first application frame and by type with
# shares within 5 points of the truth; a again stops sampling.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$classes" AllocSites 60 120
wait_for_hsperf "$JPID" 15 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 0; }

# segment_present: a gctop segment of this JVM exists (only this JVM's:
# other gctops may be running on the machine).
segment_present() {
	for f in /tmp/.gctop-*"$JPID"* /proc/"$JPID"/root/tmp/.gctop-*"$JPID"*; do
		[ -e "$f" ] && return 0
	done
	return 1
}
segment_absent() { ! segment_present; }

# wait_until SECONDS COMMAND...: COMMAND succeeds within SECONDS.
wait_until() {
	n=$(($1 * 10))
	shift
	i=0
	while [ "$i" -lt "$n" ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# allocators_focused: the pane's title is in reverse video (SGR 7 since the
# last reset), which is how the focused pane is shown.
allocators_focused() {
	tm capture-pane -p -e | python3 -c '
import re, sys
for line in sys.stdin:
    at = line.find("7 Top allocators")
    if at >= 0:
        before = re.split(r"\x1b\[0?m", line[:at])[-1]
        sys.exit(0 if re.search(r"\x1b\[([0-9;]*;)?7(;[0-9;]*)?m", before) else 1)
sys.exit(1)'
}
screen_has() { screen | grep -q -- "$1"; }
screen_lacks() { ! screen | grep -Eq -- "$1"; }
no_agent_output() { ! grep -Eqi 'agent|Full thread dump' "$WORK/java.log"; }
no_thread_dump() { ! grep -q 'Full thread dump' "$WORK/java.log"; }

# within TRUTH GOT: |GOT - TRUTH| <= 5 points.
within() {
	awk -v t="$1" -v g="$2" 'BEGIN { d = g - t; if (d < 0) d = -d; exit !(g != "" && d <= 5) }'
}

start_gctop -p "$JPID"
if ! wait_screen "LIVE +PID $JPID" 10; then
	fail "the dashboard did not come up: $(screen | head -3)"
	exit 0
fi
check "the pane says sampling is off and how to turn it on" wait_screen "allocation sampling is off" 5
check "the pane names the key" screen_has "key a loads"
check "the pane names the option" screen_has "--allocators"

# a, then n: a question first, and nothing is loaded. At 80 columns the
# question wraps rather than losing its y/N.
tm resize-window -x 80 -y 24
tm send-keys a
check "a asks before loading anything" wait_screen "load gctop's sampling agent into PID $JPID\? it stays" 5
check "the whole question is on screen at 80 columns (its end, y/N, too)" wait_screen "exits; y/N" 2
tm send-keys n
check "n answers no" wait_screen "nothing loaded into PID $JPID" 5
check "after n gctop goes on: two more samples drawn" wait_samples 2 10
check "after n no gctop segment appears" segment_absent
check "after n the JVM printed no agent message" no_agent_output
check "after n the pane still says sampling is off" wait_screen "allocation sampling is off" 2
tm resize-window -x 100 -y 30

# a, then y: the agent is loaded and the table fills in.
tm send-keys a
wait_screen "y/N" 5
tm send-keys y
check "the segment appears after y" wait_until 10 segment_present
# (a message goes after a few seconds: read it while it is there)
check "the footer confirms sampling is on" wait_screen "allocation sampling on in PID $JPID" 5
if ! wait_screen "AllocSites\.siteC" 10; then
	fail "the pane did not list the sites: $(screen | tail -14)"
	exit 0
fi
# Read the shares over a window of a few seconds, not the first second.
wait_screen "samples in ([5-9]|10)s" 12
screen >"$WORK/table"
# Before JDK 25 the JVM's sampler picks the wrong objects (JDK-8356372):
# the method says the shares are biased.
feature=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
method="JVMTI sampling"
[ "${feature:-0}" -lt 25 ] && method="JVMTI sampling \\(biased\\)"
check "the method (JDK $feature) and the sample count are shown" grep -Eq "$method +[0-9]+ samples in [0-9]+s" "$WORK/table"
check "the pane has the section by first application frame" grep -q "by first application frame" "$WORK/table"
check "the pane has the section by type" grep -q "by type" "$WORK/table"
order=$(grep -o "AllocSites\.site[ABC]" "$WORK/table" | tr '\n' ' ')
check "frames ranked siteA, siteB, siteC (got: $order)" test "$order" = "AllocSites.siteA AllocSites.siteB AllocSites.siteC "
types=$(grep -Eo " (byte|long|int)\[\] " "$WORK/table" | tr -d ' ' | tr '\n' ' ')
check "types ranked byte[], long[], int[] (got: $types)" test "$types" = "byte[] long[] int[] "
for row in "AllocSites.siteA 60" "AllocSites.siteB 30" "AllocSites.siteC 10" "byte[] 60" "long[] 30" "int[] 10"; do
	name=${row% *} truth=${row#* }
	got=$(grep -F -- " $name " "$WORK/table" | head -1 | awk '{ v = $NF; sub(/%$/, "", v); print v }')
	check "$name share $got% is within 5 points of $truth%" within "$truth" "$got"
done

# Tab to the pane and scroll: at 100x16 the table no longer fits.
tm resize-window -x 100 -y 16
tab_until allocators_focused
check "Tab reaches the allocators pane" allocators_focused
check "a short pane says which lines it shows" wait_screen "Top allocators +1-[0-9]+ of [0-9]+ lines" 5
tm send-keys NPage
check "PgDn scrolls the focused allocators pane" wait_screen "Top allocators +[2-9]-[0-9]+ of [0-9]+ lines" 5
tm send-keys PPage
check "PgUp scrolls back" wait_screen "Top allocators +1-[0-9]+ of [0-9]+ lines" 5
tm resize-window -x 100 -y 30

# An interval longer than the agent's 5 s watchdog: the poll tick keeps
# gctop's heartbeat going, so the agent samples on between two samples.
tm send-keys d 8 Enter
check "the interval becomes 8 s" wait_screen "every 8s" 5
sleep 11
check "with 8 s between samples the segment stays" segment_present
check "with 8 s between samples the agent is still sampling" wait_screen "$method +[0-9]+ samples in" 10
check "with 8 s between samples nothing says the agent left" screen_lacks "no segment|stopped"
tm send-keys d 1 Enter
check "the interval goes back to 1 s" wait_screen "every 1s" 5

# a again: offers to stop; y stops reading, the pane says off again.
tm send-keys a
check "a while sampling offers to stop" wait_screen "stop allocation sampling in PID $JPID\? .*y/N" 5
tm send-keys y
check "y stops sampling and the pane says it is off" wait_screen "allocation sampling is off" 5
check "the agent leaves its segment once nobody reads it" wait_until 15 segment_absent
check "the JVM is still running" kill -0 "$JPID"
check "no thread dump in the JVM's output" no_thread_dump

tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
