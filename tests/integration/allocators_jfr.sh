#!/bin/sh
# test-lane: measuring
# --allocators through the JVM's own flight recorder (the default from JDK
# 17): gctop starts a recording named for itself, reads its chunks as the
# JVM flushes them, and shows top allocators by first application frame
# and by type within 5 points of what the JDK's own `jfr print` makes of
# the same recording (dumped while gctop reads it). Nothing is loaded: no
# segment, no agent. The recording is gone when gctop exits; one a
# SIGKILLed gctop left carries its lease (a duration) and the next gctop
# stops it. A JVM with its flight recorder disabled gives one sentence
# naming the agent. On JDK 25 too, where installed.
. tests/lib.sh
require_java
command -v jcmd >/dev/null 2>&1 && command -v jfr >/dev/null 2>&1 || missing_runtime "jcmd and jfr (the JDK's tools)"
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

# gctop_recordings JCMD PID GCTOP_PID: the names of gctop GCTOP_PID's
# running recordings in JVM PID, one a line.
gctop_recordings() {
	"$1" "$2" JFR.check 2>/dev/null | sed -n "s/^Recording [0-9]*: name=\(gctop-$3-[0-9]*\) .*(running).*/\1/p"
}
no_recording_of() { [ -z "$(gctop_recordings "$1" "$2" "$3")" ]; }

# compare LABEL JCMD: one run against the JVM $JPID; its recording dumped
# while gctop reads it (gctop then told to quit), and the shares of gctop's
# last window and of the whole dump compared.
compare() {
	label=$1 jcmd_bin=$2
	"$GCTOP_BIN" -p "$JPID" --allocators --json -n 60 >"$WORK/$label.json" 2>"$WORK/$label.err" &
	gpid=$!
	CHILD_PIDS="$CHILD_PIDS $gpid"
	wait_until 300 lines_at_least "$WORK/$label.json" 8
	name=$(gctop_recordings "$jcmd_bin" "$JPID" "$gpid" | head -1)
	check "$label: gctop's recording runs while it reads (name '$name')" [ -n "$name" ]
	dump_at=$(date +%s.%N)
	"$jcmd_bin" "$JPID" JFR.dump name="$name" filename="$WORK/$label.jfr" >"$WORK/$label.dump" 2>&1
	# SIGINT, gctop's quit: it stops its recording on the way out
	kill -INT "$gpid"
	wait "$gpid"
	rc=$?
	check "$label: gctop --allocators ran and quit on SIGINT (status $rc: $(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	check "$label: the recording is gone once gctop quits" no_recording_of "$jcmd_bin" "$JPID" "$gpid"
	jfr print --json --stack-depth 64 --events jdk.ObjectAllocationSample "$WORK/$label.jfr" >"$WORK/$label.print.json" 2>"$WORK/$label.print.err"
	check "$label: jfr print read the dump ($(head -c 200 "$WORK/$label.print.err"); JFR.dump said: $(tr '\n' ' ' <"$WORK/$label.dump" | head -c 300))" [ -s "$WORK/$label.print.json" ]
	# JFR's weights swing from second to second, so the truth is the dump's
	# events in gctop's own window, of its last sample before the dump: that
	# sample's time less the window, both a second earlier, as gctop reads
	# each flush (once a second) about a second after the JVM wrote it.
	python3 -c '
import datetime, json, sys
def at(d):
    return datetime.datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
d = [d for d in (json.loads(l) for l in open(sys.argv[1]) if l.strip()) if at(d) <= float(sys.argv[2])][-1]
w = (d.get("top_allocators") or {}).get("window_s") or 0
json.dump(d, open(sys.argv[3], "w"))
print("%.3f %.3f" % (at(d) - w - 1, at(d) - 1))' "$WORK/$label.json" "$dump_at" "$WORK/$label.last.json" >"$WORK/$label.span"
	span=$(cat "$WORK/$label.span")
	# shellcheck disable=SC2086
	python3 tests/java/jfr_shares.py "$WORK/$label.print.json" $span >"$WORK/$label.truth" 2>"$WORK/$label.truth.err"
	check "$label: jfr_shares.py read jfr print's events ($(head -c 200 "$WORK/$label.truth.err"))" [ -s "$WORK/$label.truth" ]
	comparator "$label shares against jfr print" python3 - "$WORK/$label.last.json" "$WORK/$label.truth" "$label" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
truth = {}
for l in open(sys.argv[2]):
    name, pct = l.rsplit(" ", 1)
    truth[name] = float(pct) / 100
label = sys.argv[3]
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)
ta = lines[-1]["top_allocators"]
out(ta["source"] == "jfr-sampled" and ta["state"] == "running", "source and state: %s %s" % (ta["source"], ta["state"]))
out(ta["samples"] and ta["samples"] > 300, "gctop's window holds %s samples over %s s" % (ta["samples"], ta["window_s"]))
frames = {f["frame"]: f["share"] for f in ta["by_frame"]}
types = {t["type"]: t["share"] for t in ta["by_type"]}
for name, got in [(n, frames.get(n)) for n in ("AllocSites.siteA", "AllocSites.siteB", "AllocSites.siteC")] + \
                 [(n, types.get(n)) for n in ("byte[]", "long[]", "int[]")]:
    want = truth.get(name)
    out(want is not None and got is not None and abs(got - want) <= 0.05,
        "%s share %s vs jfr print %s in the same window%s" % (name, got, want,
        "" if got is not None else " (gctop's: %s)" % sorted(frames)[:6]))
PY
}

# JDK 17 (or whatever java is first on PATH, from 17 on)
start_java "$WORK/java.log" -Xmx256m -XX:+UseParallelGC -cp "$classes" AllocSites 150 120
wait_for_hsperf "$JPID" 10 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 1; }
compare jdk17 jcmd
check "jdk17: no gctop segment: nothing was loaded" sh -c "! ls /proc/$JPID/root/tmp/.gctop-seg-$JPID 2>/dev/null"
check "jdk17: no file left in the JVM's working directory" sh -c "! ls /proc/$JPID/cwd/*.jfr 2>/dev/null"

# A SIGKILLed gctop: its recording ends by its lease, or the next stops it.
"$GCTOP_BIN" -p "$JPID" --allocators --json >"$WORK/killed.json" 2>&1 &
kpid=$!
CHILD_PIDS="$CHILD_PIDS $kpid"
wait_until 300 lines_at_least "$WORK/killed.json" 2
kill -9 "$kpid"
wait "$kpid" 2>/dev/null
left=$(jcmd "$JPID" JFR.check 2>/dev/null | grep "name=gctop-$kpid-")
check "a SIGKILLed gctop's recording has its lease (got: $left)" sh -c 'echo "$1" | grep -q "duration=2m"' _ "$left"
"$GCTOP_BIN" -p "$JPID" --allocators --json -n 2 >"$WORK/next.json" 2>"$WORK/next.err"
rc=$?
check "the next gctop samples (status $rc: $(head -c 200 "$WORK/next.err"))" [ "$rc" -eq 0 ]
check "the next gctop stopped the recording the killed one left" no_recording_of jcmd "$JPID" "$kpid"

# A JVM with its flight recorder off: one sentence, naming the agent.
java -XX:-FlightRecorder -Xmx64m -cp "$classes" AllocSites 10 60 >"$WORK/off.log" 2>&1 &
OPID=$!
CHILD_PIDS="$CHILD_PIDS $OPID"
wait_for_hsperf "$OPID" 10 || { fail "the JVM without JFR published no perf data"; exit 1; }
"$GCTOP_BIN" -p "$OPID" --allocators --json -n 1 >"$WORK/off.json" 2>"$WORK/off.err"
rc=$?
check "a JVM with -XX:-FlightRecorder: status 1 (got $rc)" [ "$rc" -eq 1 ]
check "its sentence names the flag and the agent ($(head -c 300 "$WORK/off.err"))" \
	sh -c 'grep -q "flight recorder disabled (-XX:-FlightRecorder)" "$1" && grep -q -- "--allocators=agent" "$1"' _ "$WORK/off.err"

# JDK 25, where installed: the same comparison, and no agent warning.
j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ -x "$j25/java" ]; then
	PATH="$j25:$PATH" start_java "$WORK/java25.log" -Xmx256m -XX:+UseG1GC -cp "$classes" AllocSites 150 120
	wait_for_hsperf "$JPID" 10 || { fail "the JDK 25 JVM published no perf data"; exit 1; }
	compare jdk25 "$j25/jcmd"
	check "jdk25: the JVM printed no agent warning" sh -c "! grep -q 'agent has been loaded' '$WORK/java25.log'"
	check "jdk25: no file left in the JVM's working directory" sh -c "! ls /proc/$JPID/cwd/*.jfr 2>/dev/null"
else
	skip_unless_ci runtime "JDK 25 is not installed at $j25"
fi
