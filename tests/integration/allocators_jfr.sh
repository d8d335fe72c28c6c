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

# compare LABEL JCMD: one run against the JVM $JPID, recorded (-w); its
# flight recording dumped while gctop reads it (gctop then told to quit).
# gctop reads the chunks in the order jfr print gives their events, so its
# last recorded reading before the dump, which has taken N samples, holds
# the first N events' bytes: each site's and type's bytes must be equal,
# not near. Its window's shares (--json) are held within 5 points of the
# same events in the window's span.
compare() {
	label=$1 jcmd_bin=$2
	"$GCTOP_BIN" -p "$JPID" --allocators --json -n 60 -w "$WORK/$label.rec" >"$WORK/$label.json" 2>"$WORK/$label.err" &
	gpid=$!
	CHILD_PIDS="$CHILD_PIDS $gpid"
	wait_until 300 lines_at_least "$WORK/$label.json" 14
	name=$(gctop_recordings "$jcmd_bin" "$JPID" "$gpid" | head -1)
	check "$label: gctop's recording runs while it reads (name '$name')" [ -n "$name" ]
	"$jcmd_bin" "$JPID" JFR.dump name="$name" filename="$WORK/$label.jfr" >"$WORK/$label.dump" 2>&1
	# SIGINT, gctop's quit: it stops its recording on the way out
	kill -INT "$gpid"
	wait "$gpid"
	rc=$?
	check "$label: gctop --allocators ran and quit on SIGINT (status $rc: $(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	check "$label: the recording is gone once gctop quits" no_recording_of "$jcmd_bin" "$JPID" "$gpid"
	jfr print --json --stack-depth 64 --events jdk.ObjectAllocationSample "$WORK/$label.jfr" >"$WORK/$label.print.json" 2>"$WORK/$label.print.err"
	check "$label: jfr print read the dump ($(head -c 200 "$WORK/$label.print.err"); JFR.dump said: $(tr '\n' ' ' <"$WORK/$label.dump" | head -c 300))" [ -s "$WORK/$label.print.json" ]
	comparator "$label against jfr print" python3 - "$WORK/$label.rec" "$WORK/$label.json" "$WORK/$label.print.json" "$label" <<'PY'
import json, subprocess, sys
label = sys.argv[4]
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)
def truth(first, last):
    t = {}
    for l in subprocess.run(["python3", "tests/java/jfr_shares.py", sys.argv[3], str(first), str(last)],
                            capture_output=True, text=True, check=True).stdout.splitlines():
        name, pct, b = l.rsplit(" ", 2)
        t[name] = (float(pct) / 100, int(b))
    return t
n_events = len(json.load(open(sys.argv[3]))["recording"]["events"])
readings = [r["allocators"] for r in (json.loads(l) for l in open(sys.argv[1]) if l.strip())
            if r.get("allocators") and r["allocators"]["samples"] <= n_events]
out(len(readings) >= 5 and readings[-1]["source"] == "jfr-sampled",
    "%d recorded readings before the dump (%d events in it)" % (len(readings), n_events))
last = readings[-1]
t = truth(0, last["samples"])
out(last["est_bytes"] == t["(total)"][1],
    "the reading's %d samples weigh %d bytes; jfr print's first %d events %d" %
    (last["samples"], last["est_bytes"], last["samples"], t["(total)"][1]))
tables = {s["name"]: s["bytes"] for tab in ("by_frame", "by_type") for s in last[tab]["sites"]}
for name in ("AllocSites.siteA", "AllocSites.siteB", "AllocSites.siteC", "byte[]", "long[]", "int[]"):
    want = t.get(name, (0, 0))[1]
    out(tables.get(name) == want and want > 0, "%s: %s bytes, jfr print %d" % (name, tables.get(name), want))
# the window (--json): the shares between two readings are the events between them
lines = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
ta = [l["top_allocators"] for l in lines if l.get("top_allocators") and l["top_allocators"]["samples"]]
out(ta and ta[-1]["source"] == "jfr-sampled" and ta[-1]["state"] == "running",
    "--json names the source: %s" % (ta[-1]["source"] if ta else None))
out(ta and ta[-1]["samples"] > 300, "the window holds %s samples over %s s" %
    (ta[-1]["samples"] if ta else None, ta[-1]["window_s"] if ta else None))
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
