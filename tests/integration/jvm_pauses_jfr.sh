#!/bin/sh
# test-lane: measuring
# Every pause from the JVM's own flight recorder: with --allocators
# through JFR the pauses gctop counts (its recording's pause log, marked
# "pause_source": "jfr") are the JVM's, one by one: the run of them equals
# a run of the pauses -Xlog:gc printed, each within 1 ms, none missing or
# doubled, on G1 and Parallel (JDK 17) and G1 on JDK 25 where installed.
. tests/lib.sh
require_java
command -v jcmd >/dev/null 2>&1 || missing_runtime "jcmd (the JDK's tools)"
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
# outlasts gctop's samples on a loaded machine; the JVM is stopped after
BUSY=90

# run_one LABEL JAVA GC_FLAG
run_one() {
	label=$1 javabin=$2 flag=$3
	"$javabin" -Xmx128m "$flag" -Xlog:gc:file="$WORK/$label.gclog":utctime -cp "$CLASSES" \
		AllocWorkload small 200 $BUSY 1 >"$WORK/$label.log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$WORK/$label.log" 2>/dev/null
	"$GCTOP_BIN" -p "$pid" --allocators --json -d 1 -n 16 -w "$WORK/$label.rec" >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	check "$label: gctop --allocators ran (status $rc: $(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	comparator "$label against -Xlog:gc" python3 - "$WORK/$label.rec" "$WORK/$label.gclog" "$WORK/$label.json" "$label" <<'PY'
import json, re, sys
label = sys.argv[4]
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)
mine = []
for l in open(sys.argv[1]):
    r = json.loads(l) if l.strip() else {}
    if r.get("pause_source") == "jfr" and r.get("pause_log"):
        mine.extend(ns / 1e6 for ns in r["pause_log"]["new"])
log = [float(m.group(1)) for m in (re.search(r"\bPause .* ([0-9.]+)ms$", l.strip()) for l in open(sys.argv[2])) if m]
out(len(mine) >= 10, "%d pauses from JFR, %d in -Xlog:gc" % (len(mine), len(log)))
best = None
for o in range(0, len(log) - len(mine) + 1):
    worst = max(abs(a - b) for a, b in zip(mine, log[o:o + len(mine)])) if mine else 0
    if best is None or worst < best[0]:
        best = (worst, o)
out(best is not None and best[0] <= 1.0,
    "the run of %d pauses equals -Xlog:gc's from pause %s on, each within %.3f ms" %
    (len(mine), best[1] if best else None, best[0] if best else -1))
lines = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
out(all(l["pause"]["source"] == "jfr" for l in lines), "--json names the source: %s" %
    sorted(set(str(l["pause"]["source"]) for l in lines)))
p = lines[-1]["pause"]
out(p["count"] is not None and p["p50_ms"] is not None and p["max_ms"] is not None,
    "the last interval's %s pauses: p50 %s ms, p99 %s ms, max %s ms" % (p["count"], p["p50_ms"], p["p99_ms"], p["max_ms"]))
PY
}

run_one jdk17-G1 java -XX:+UseG1GC
run_one jdk17-Parallel java -XX:+UseParallelGC
if [ -x "$JDK25/java" ]; then
	run_one jdk25-G1 "$JDK25/java" -XX:+UseG1GC
else
	skip_unless_ci runtime "JDK 25 is not installed at $JDK25"
fi
