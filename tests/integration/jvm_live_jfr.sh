#!/bin/sh
# test-lane: measuring
# The live set through the flight recorder where perf data has none: on
# JDK 17's ZGC (n/a read-only) gctop --allocators gives a point per cycle,
# each the heap used its jdk.GCHeapSummary "After GC" states, equal to the
# byte and at the same moment (within 10 ms) as jfr print shows the
# summary in the same recording, dumped while gctop reads it; and every
# cycle the dump holds between gctop's first and last point is one of
# gctop's points, once.
. tests/lib.sh
require_java
command -v jcmd >/dev/null 2>&1 && command -v jfr >/dev/null 2>&1 || missing_runtime "jcmd and jfr (the JDK's tools)"
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

# LEAK_KB_PER_S SECONDS THREADS BASE_MB TURNOVER_MB TURNOVER_S WARM_S
start_java "$WORK/java.log" -Xmx256m -Xms256m -XX:+UseZGC -cp "$CLASSES" LeakWorkload 1024 120 2 40 0 8 2
wait_for_hsperf "$JPID" 10 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 1; }
"$GCTOP_BIN" -p "$JPID" --json -n 1 >"$WORK/ro.json" 2>"$WORK/ro.err"
why=$(json_get "$WORK/ro.json" -1 'd["live_set"]["why"]')
check "read-only, JDK 17's ZGC has no live set, with the reason ($why)" sh -c 'echo "$1" | grep -q "ZGC"' _ "$why"

"$GCTOP_BIN" -p "$JPID" --allocators --json -d 1 -n 60 -w "$WORK/z.rec" >"$WORK/z.json" 2>"$WORK/z.err" &
gpid=$!
CHILD_PIDS="$CHILD_PIDS $gpid"
wait_until 400 lines_at_least "$WORK/z.json" 25
name=$(jcmd "$JPID" JFR.check 2>/dev/null | sed -n "s/^Recording [0-9]*: name=\(gctop-$gpid-[0-9]*\) .*(running).*/\1/p" | head -1)
check "gctop's recording runs while it reads (name '$name')" [ -n "$name" ]
jcmd "$JPID" JFR.dump name="$name" filename="$WORK/z.jfr" >"$WORK/z.dump" 2>&1
kill -INT "$gpid"
wait "$gpid"
rc=$?
check "gctop --allocators ran and quit on SIGINT (status $rc: $(head -c 300 "$WORK/z.err"))" [ "$rc" -eq 0 ]
jfr print --json --events jdk.GarbageCollection,jdk.GCHeapSummary "$WORK/z.jfr" >"$WORK/z.print.json" 2>"$WORK/z.print.err"
check "jfr print read the dump ($(head -c 200 "$WORK/z.print.err"))" [ -s "$WORK/z.print.json" ]
comparator "live points against jfr print" python3 - "$WORK/z.rec" "$WORK/z.print.json" "$WORK/z.json" <<'PY'
import datetime, json, sys
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
def wall_ns(iso):
    d, frac = iso.rstrip("Z").split(".")
    t = datetime.datetime.strptime(d, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp()) * 10**9 + int(frac.ljust(9, "0")[:9])
# gctop's points, each at its wall time (the line's wall_ms less its age)
mine = []
for l in open(sys.argv[1]):
    r = json.loads(l) if l.strip() else {}
    log = r.get("live_log")
    if not log:
        continue
    for p in log["new"]:
        mine.append((p["at_ns"] - r["mono_ns"] + r["wall_ms"] * 10**6, p["bytes"], p["kind"]))
ev = json.load(open(sys.argv[2]))["recording"]["events"]
names = {e["values"]["gcId"]: e["values"]["name"] for e in ev if e["type"] == "jdk.GarbageCollection"}
truth = sorted((wall_ns(e["values"]["startTime"]), e["values"]["heapUsed"]) for e in ev
               if e["type"] == "jdk.GCHeapSummary" and e["values"]["when"] == "After GC"
               and names.get(e["values"]["gcId"]) == "Z")
out(len(mine) >= 5 and all("JFR" in k for _, _, k in mine),
    "%d points from JFR (kinds %s)" % (len(mine), sorted(set(k for _, _, k in mine))))
dumped = [m for m in mine if truth and m[0] <= truth[-1][0] + 10**7]
out(len(dumped) >= 5, "%d of them in the dump's span (%d cycles in it)" % (len(dumped), len(truth)))
worst = 0
for t, b, _ in dumped:
    near = [x for x in truth if abs(x[0] - t) <= 10**7]
    ok = len(near) == 1 and near[0][1] == b
    worst = max(worst, abs(near[0][0] - t) if near else 10**9)
    if not ok:
        out(False, "point %d bytes at %d: jfr print has %s within 10 ms" % (b, t, near))
out(all(len([x for x in truth if abs(x[0] - t) <= 10**7 and x[1] == b]) == 1 for t, b, _ in dumped),
    "each point equals a summary's heapUsed, at most %.3f ms apart" % (worst / 1e6))
inside = [x for x in truth if dumped and dumped[0][0] - 10**7 <= x[0] <= dumped[-1][0] + 10**7]
out(len(inside) == len(dumped), "the dump holds %d cycles in gctop's span, gctop %d points" % (len(inside), len(dumped)))
last = [json.loads(l) for l in open(sys.argv[3]) if l.strip()][-1]["live_set"]
out(last["bytes"] is not None and last["points"] >= 5, "the live set is no longer n/a: %s bytes, %s points, why %s" %
    (last["bytes"], last["points"], last["why"]))
PY
