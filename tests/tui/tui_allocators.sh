#!/bin/sh
# The top-allocators pane on a live JVM whose three methods allocate 60/30/10
# by bytes: key a asks first; n starts nothing; y starts gctop's flight
# recording (the default source from JDK 17: nothing loaded) and the pane
# shows the three sites by first application frame and by type with the
# shares the JDK's jfr print gives the same samples of the same recording;
# a again stops sampling and the recording.
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
# recording_present: a gctop flight recording runs in this JVM.
recording_present() { jcmd "$JPID" JFR.check 2>/dev/null | grep -q "name=gctop-[0-9]*-[0-9]* .*(running)"; }
recording_absent() { ! recording_present; }

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

start_gctop -p "$JPID" -w "$WORK/rec.ndjson"
if ! wait_screen "LIVE +PID $JPID" 10; then
	fail "the dashboard did not come up: $(screen | head -3)"
	exit 0
fi
check "the pane says sampling is off and how to turn it on" wait_screen "allocation sampling is off" 5
check "the pane names the key" screen_has "key a starts a flight recording"
check "the pane names the option" screen_has "--allocators"

# a, then n: a question first, and nothing is started. At 80 columns the
# question wraps rather than losing its y/N.
tm resize-window -x 80 -y 24
tm send-keys a
check "a asks before starting anything" wait_screen "start a flight recording of allocation samples in PID $JPID" 5
check "the whole question is on screen at 80 columns (its end, y/N, too)" wait_screen "exits\)\? y/N" 2
tm send-keys n
check "n answers no" wait_screen "nothing started in PID $JPID" 5
check "after n gctop goes on: two more samples drawn" wait_samples 2 10
check "after n no gctop segment appears" segment_absent
check "after n no gctop recording runs" recording_absent
check "after n the JVM printed no agent message" no_agent_output
check "after n the pane still says sampling is off" wait_screen "allocation sampling is off" 2
tm resize-window -x 100 -y 30

# a, then y: the recording starts and the table fills in; nothing loaded.
tm send-keys a
wait_screen "y/N" 5
tm send-keys y
check "the recording runs after y" wait_until 20 recording_present
check "no segment: nothing loaded" segment_absent
# (a message goes after a few seconds: read it while it is there)
check "the footer confirms sampling is on" wait_screen "allocation sampling on in PID $JPID" 5
if ! wait_screen "AllocSites\.siteC" 10; then
	fail "the pane did not list the sites: $(screen | tail -14)"
	exit 0
fi
# Read the shares over a window of a few seconds, not the first second.
wait_screen "samples in ([5-9]|10)s" 12
screen >"$WORK/table"
method="JFR allocation samples"
check "the method and the sample count are shown" grep -Eq "$method +[0-9]+ samples in [0-9]+s" "$WORK/table"
check "the pane has the section by first application frame" grep -q "by first application frame" "$WORK/table"
check "the pane has the section by type" grep -q "by type" "$WORK/table"
# The truth for JFR's samples is JFR's own reading of the same recording:
# the recording dumped now, read by the JDK's jfr print (tests/java/
# jfr_shares.py). gctop reads the chunks in the order jfr print gives
# their events, so the pane's window, between two of gctop's readings
# (recorded with -w) whose sample counts differ by the pane's count, is
# jfr print's events between those counts: its shares must be the pane's
# but for the pane's rounding to three digits.
name=$(jcmd "$JPID" JFR.check 2>/dev/null | sed -n 's/^Recording [0-9]*: name=\(gctop-[0-9]*-[0-9]*\) .*(running).*/\1/p' | head -1)
jcmd "$JPID" JFR.dump name="$name" filename="$WORK/rec.jfr" >/dev/null 2>&1
jfr print --json --stack-depth 64 --events jdk.ObjectAllocationSample "$WORK/rec.jfr" >"$WORK/print.json" 2>"$WORK/print.err"
check "jfr print read gctop's recording $name ($(head -c 200 "$WORK/print.err"))" [ -s "$WORK/print.json" ]
shown=$(grep -Eo "[0-9]+ samples in [0-9]+s" "$WORK/table" | head -1 | cut -d' ' -f1)
comparator "the pane against jfr print" python3 - "$WORK/rec.ndjson" "$WORK/print.json" "${shown:-0}" "$WORK/table" <<'PY'
import json, re, subprocess, sys
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + "tui_allocators: " + what, flush=True)
n_events = len(json.load(open(sys.argv[2]))["recording"]["events"])
readings = []
for l in open(sys.argv[1]):
    try:
        r = json.loads(l)
    except ValueError:
        continue  # a line gctop is still writing
    a = r.get("allocators")
    if a and a["samples"] <= n_events:
        readings.append(a["samples"])
shown = int(sys.argv[3])
pair = None
for j in range(len(readings) - 1, 0, -1):
    for i in range(j):
        if readings[j] - readings[i] == shown:
            pair = (readings[i], readings[j])
            break
    if pair:
        break
out(pair is not None, "two recorded readings %d samples apart, as the pane says (%s)" % (shown, pair))
truth = {}
if pair:
    for l in subprocess.run(["python3", "tests/java/jfr_shares.py", sys.argv[2], str(pair[0]), str(pair[1])],
                            capture_output=True, text=True, check=True).stdout.splitlines():
        name, pct, _ = l.rsplit(" ", 2)
        truth[name] = float(pct)
table = open(sys.argv[4]).read()
for name in ("AllocSites.siteA", "AllocSites.siteB", "AllocSites.siteC", "byte[]", "long[]", "int[]"):
    m = re.search(r" %s .*?([0-9.]+)%%\s*$" % re.escape(name), table, re.M)
    got = float(m.group(1)) if m else None
    want = truth.get(name)
    # three digits shown: 80.3%, 4.45%
    out(got is not None and want is not None and abs(got - want) <= max(0.06, want * 0.0006),
        "%s: the pane shows %s%%, jfr print's events in its window %s%%" % (name, got, want))
PY

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

# An interval longer than a flush: the recording's reader runs on its own
# thread, so the samples go on between two of gctop's.
tm send-keys d 8 Enter
check "the interval becomes 8 s" wait_screen "every 8s" 5
sleep 11
check "with 8 s between samples the recording runs on" recording_present
check "with 8 s between samples the recording is still read" wait_screen "$method +[0-9]+ samples in" 10
check "with 8 s between samples nothing says sampling stopped" screen_lacks "no segment|stopped"
tm send-keys d 1 Enter
check "the interval goes back to 1 s" wait_screen "every 1s" 5

# a again: offers to stop; y stops reading, the pane says off again.
tm send-keys a
check "a while sampling offers to stop" wait_screen "stop allocation sampling in PID $JPID\? .*y/N" 5
tm send-keys y
check "y stops sampling and the pane says it is off" wait_screen "allocation sampling is off" 5
check "the recording is stopped with it" wait_until 15 recording_absent
check "the JVM is still running" kill -0 "$JPID"
check "no thread dump in the JVM's output" no_thread_dump

tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
