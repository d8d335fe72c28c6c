#!/bin/sh
# Key c on a live JVM that leaks one type (tests/java/CensusLeak): c asks
# first, naming what a census costs the JVM, its pause and its memory
# against the JVM's headroom (the figures --census refuses by, issue 36,
# joined across the status line's wrapped rows); n asks nothing of the JVM (its
# attach listener is not started: no socket, no trigger, no thread dump);
# y takes the census and the overlay shows the top types by bytes; a second
# census (c y, and c at once while it runs, which says it is under way)
# shows what grew since the first, the leaking type first.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }
# 48 MiB of ballast: a census then takes tens of milliseconds or more (a
# full collection and a walk of 1.5 million objects), far longer than gctop
# takes to read the key after y (both come in one write from tmux).
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$classes" CensusLeak 100 "$WORK/state" 48
wait_for_hsperf "$JPID" 15 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 0; }

# The attach listener's socket and trigger of this JVM (its pid is its
# namespace pid: the test runs in one namespace).
attach_untouched() {
	[ ! -e "/proc/$JPID/root/tmp/.java_pid$JPID" ] && [ ! -e "/proc/$JPID/root/tmp/.attach_pid$JPID" ] &&
		[ ! -e "/proc/$JPID/cwd/.attach_pid$JPID" ] && ! grep -q 'Full thread dump' "$WORK/java.log"
}
screen_has() { screen | grep -q -- "$1"; }
# first_grown NAME: the first row under the growth table's header is NAME's.
first_grown() { screen | grep -A1 ' GROWN ' | tail -1 | grep -q -- "$1"; }
# this JVM's agent copy only: other gctops on the machine load theirs into /tmp
no_agent() { [ ! -e "/proc/$JPID/root/tmp/.gctop-agent-$JPID.so" ] && ! grep -qi 'agent' "$WORK/java.log"; }

check "before any key, the JVM's attach listener is not running" attach_untouched

start_gctop -p "$JPID"
if ! wait_screen "LIVE +PID $JPID" 10; then
	fail "the dashboard did not come up: $(screen | head -3)"
	exit 0
fi
check "the footer names the key" wait_screen "c census" 3

tm send-keys c
check "c asks first, naming the cost" \
	wait_screen "take a census of the live objects of PID $JPID\? it stops the JVM for a full collection" 5
# the status line's rows joined again where it wrapped them at a space
question_says() { screen | tail -8 | tr '\n' ' ' | grep -q -- "$1"; }
check "it states the census's memory cost and the headroom" \
	question_says "it costs about [0-9]* MiB of its memory against [0-9]* MiB of headroom ("
check "the question ends in y/N" screen_has "y/N"
tm send-keys n
check "n answers no" wait_screen "no census taken; nothing asked of PID $JPID" 5
check "after n gctop goes on: two more samples drawn" wait_samples 2 10
check "after n the JVM's attach listener was not started (no socket, no trigger, no thread dump)" attach_untouched

tm send-keys c
wait_screen "y/N" 5
tm send-keys y
check "y takes the census: the overlay shows" wait_screen "census of the live objects +c, q or Esc" 15
check "it says which census and of which PID" wait_screen "Census 1 of PID $JPID" 2
check "the top types by bytes, in source form" screen_has "CensusLeak\$LeakNode"
check "array names in source form" screen_has "byte\[\]"
check "the first census says growth comes with the second" screen_has "what grew shows from the second census on"
check "no agent was loaded" no_agent
tm send-keys c
check "c closes the census" wait_gone "census of the live objects +c, q or Esc" 5

sleep 3
# c y, then c at once: the census runs on its worker, so the third key
# finds it under way and says so.
tm send-keys c
wait_screen "y/N" 5
tm send-keys y c
check "c while a census runs says it is under way" wait_screen "a census of PID $JPID is under way" 5
check "the second census shows what grew" wait_screen "Grown since the census before" 15
check "the type that grew most is the leaking one" first_grown "CensusLeak\$LeakNode"
check "it names when the one before was taken" screen_has "the one before: 20"
tm send-keys Escape
check "Esc closes it and the dashboard is live" wait_screen "LIVE +PID $JPID" 5
tm send-keys q
status=$(wait_exit 10)
check "q quits with status 0 (got '$status')" [ "$status" = "0" ]
