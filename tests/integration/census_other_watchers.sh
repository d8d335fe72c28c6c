#!/bin/sh
# sanitizer: yes
# A census is no finding in any gctop (issue 35): while gctop -b --json, a
# --doctor and a --serve watch one G1 JVM, another gctop takes two censuses
# and jcmd one class histogram (three full collections the JVM names "Heap
# Inspection Initiated GC"); none of the watchers asked for them, and none
# raises g1-full-gc (before, only the gctop that asked left its own out).
# About 20 s.
. tests/lib.sh
require_java
command -v jcmd >/dev/null 2>&1 || missing_runtime "jcmd"
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }

# A heap with something live for the census, then idle.
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$CLASSES" SleepyHeap 16
wait_until 100 grep -q '^ready' "$WORK/java.log" || { fail "the JVM did not start: $(head -c 300 "$WORK/java.log")"; exit 0; }

"$GCTOP_BIN" -p "$JPID" --json -d 1 -n 14 >"$WORK/watch.json" 2>"$WORK/watch.err" &
WATCH=$!
CHILD_PIDS="$CHILD_PIDS $WATCH"
"$GCTOP_BIN" --doctor -p "$JPID" -d 12 >"$WORK/doctor" 2>"$WORK/doctor.err" &
DOCTOR=$!
CHILD_PIDS="$CHILD_PIDS $DOCTOR"
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$JPID" -d 1 2>"$WORK/serve.err" &
SERVE=$!
CHILD_PIDS="$CHILD_PIDS $SERVE"
serving() { grep -q 'serving http' "$WORK/serve.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/serve.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
served() { curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape" 2>/dev/null &&
	grep -q "^gctop_sample_timestamp_seconds{pid=\"$JPID\"" "$WORK/scrape"; }
wait_until 100 served || { fail "--serve never served the JVM"; exit 0; }
sleep 2

"$GCTOP_BIN" --census -p "$JPID" >"$WORK/census1" 2>&1
rc1=$?
sleep 1.5
"$GCTOP_BIN" --census -p "$JPID" >"$WORK/census2" 2>&1
rc2=$?
sleep 1.5
jcmd "$JPID" GC.class_histogram >"$WORK/histo" 2>&1
rc3=$?
check "two censuses and a class histogram ran (status $rc1, $rc2, $rc3)" [ "$rc1" -eq 0 -a "$rc2" -eq 0 -a "$rc3" -eq 0 ]
sleep 2.5
curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.after" 2>/dev/null
rc=$?
check "--serve answered after them (curl status $rc)" [ "$rc" -eq 0 ]
wait "$DOCTOR"
drc=$?
wait "$WATCH"
wrc=$?

comparator census_watchers python3 - "$WORK/watch.json" "$TEST_NAME" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
test = sys.argv[2]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)
def old(l):
    return [g["collections"] for g in l["generations"] if g["name"] == "old"][0] or 0
full = old(lines[-1]) - old(lines[0])
ids = sorted({f["id"] for l in lines for f in l.get("findings") or []})
check(full >= 3, "the watcher saw the three full collections (%d)" % full)
check("g1-full-gc" not in ids, "the watcher raised no g1-full-gc for them (findings: %s)" % ids)
PY
check "the watcher exited 0 (status $wrc: $(head -c 200 "$WORK/watch.err"))" [ "$wrc" -eq 0 ]
check "--doctor raised nothing for them (status $drc: $(grep -m3 -E '^  (info|warning|critical)' "$WORK/doctor"))" \
	sh -c '[ "$1" -eq 0 ] && ! grep -q g1-full-gc "$2"' _ "$drc" "$WORK/doctor"
check "--serve has no g1-full-gc finding ($(grep "^gctop_finding{pid=\"$JPID\"" "$WORK/scrape.after" | head -c 300))" \
	sh -c '! grep -q "^gctop_finding{pid=\"$1\".*g1-full-gc" "$2"' _ "$JPID" "$WORK/scrape.after"
