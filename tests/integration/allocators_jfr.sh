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
	"$jcmd_bin" "$JPID" JFR.dump name="$name" filename="$WORK/$label.jfr" >"$WORK/$label.dump" 2>&1
	# SIGINT, gctop's quit: it stops its recording on the way out
	kill -INT "$gpid"
	wait "$gpid"
	rc=$?
	check "$label: gctop --allocators ran and quit on SIGINT (status $rc: $(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	check "$label: the recording is gone once gctop quits" no_recording_of "$jcmd_bin" "$JPID" "$gpid"
	jfr print --json --stack-depth 64 --events jdk.ObjectAllocationSample "$WORK/$label.jfr" >"$WORK/$label.print.json" 2>"$WORK/$label.print.err"
	check "$label: jfr print read the dump ($(head -c 200 "$WORK/$label.print.err"); JFR.dump said: $(tr '\n' ' ' <"$WORK/$label.dump" | head -c 300))" [ -s "$WORK/$label.print.json" ]
	comparator "$label shares against jfr print" python3 - "$WORK/$label.json" "$WORK/$label.print.json" "$label" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
label = sys.argv[3]
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)
RUNTIME = ("java.", "javax.", "jdk.", "sun.", "com.sun.")
PRIM = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short", "Z": "boolean"}
def type_name(n):
    dims = len(n) - len(n.lstrip("["))
    base = n[dims:]
    if dims:
        base = PRIM.get(base, base[1:-1] if base.startswith("L") else base)
    return base.replace("/", ".") + "[]" * dims
def frame(f):
    return type_name(f["method"]["type"]["name"]) + "." + f["method"]["name"]
def site(st):
    names = [frame(f) for f in (st or {}).get("frames", [])]
    for n in names:
        if not n.startswith(RUNTIME):
            return n
    return names[0] if names else "(no Java frame)"
events = json.load(open(sys.argv[2]))["recording"]["events"]
by_frame, by_type, total = {}, {}, 0
for e in events:
    v = e["values"]
    w = v["weight"]
    total += w
    by_frame[site(v["stackTrace"])] = by_frame.get(site(v["stackTrace"]), 0) + w
    t = type_name(v["objectClass"]["name"])
    by_type[t] = by_type.get(t, 0) + w
out(len(events) > 300 and total > 0, "jfr print has %d allocation samples" % len(events))
ta = lines[-1]["top_allocators"]
out(ta["source"] == "jfr-sampled" and ta["state"] == "running", "source and state: %s %s" % (ta["source"], ta["state"]))
out(ta["samples"] and ta["samples"] > 300, "gctop's window holds %s samples over %s s" % (ta["samples"], ta["window_s"]))
frames = {f["frame"]: f["share"] for f in ta["by_frame"]}
types = {t["type"]: t["share"] for t in ta["by_type"]}
for name in ("AllocSites.siteA", "AllocSites.siteB", "AllocSites.siteC"):
    truth = by_frame.get(name, 0) / total if total else None
    got = frames.get(name)
    out(truth is not None and got is not None and abs(got - truth) <= 0.05,
        "%s share %s vs jfr print %.3f%s" % (name, got, truth or 0, "" if got is not None else " (gctop's frames: %s)" % sorted(frames)[:6]))
for name in ("byte[]", "long[]", "int[]"):
    truth = by_type.get(name, 0) / total if total else None
    got = types.get(name)
    out(truth is not None and got is not None and abs(got - truth) <= 0.05,
        "type %s share %s vs jfr print %.3f" % (name, got, truth or 0))
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
