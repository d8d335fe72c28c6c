#!/bin/sh
# test-lane: measuring
# --allocators through JFR gives the JVM's exact allocation total
# (jdk.ThreadAllocationStatistics summed over its threads): labelled exact,
# and its increase between two of JFR's periods within 1 % of the
# workload's own ThreadMXBean total (getTotalThreadAllocatedBytes) over the
# same wall-clock window, on G1, Parallel and ZGC (n/a from perf data)
# on JDK 17 and G1 on JDK 25. A total is as of JFR's period, age_s before the
# sample, so the window's ends are those moments.
. tests/lib.sh
require_java
command -v jcmd >/dev/null 2>&1 || missing_runtime "jcmd (the JDK's tools)"
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
TOLERANCE=0.01
# outlasts gctop's samples on a loaded machine; the JVM is stopped after
BUSY=90

# run_one LABEL JAVA GC_FLAG
run_one() {
	label=$1 javabin=$2 flag=$3
	log="$WORK/$label.log"
	"$javabin" -Xmx128m "$flag" -cp "$CLASSES" AllocWorkload small 120 $BUSY 1 >"$log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$log" 2>/dev/null
	"$GCTOP_BIN" -p "$pid" --allocators --json -d 1 -n 16 >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	# the comparison interpolates the workload's reports (every 100 ms)
	wait_for_more "$log" '^alloc ' 2 50
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	check "$label: gctop --allocators ran (status $rc: $(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	comparator "$label against ThreadMXBean" python3 - "$WORK/$label.json" "$log" "$TOLERANCE" "$label" <<'PY'
import datetime, json, sys
label, tol = sys.argv[4], float(sys.argv[3])
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)
def wall_ms(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return t.timestamp() * 1000.0
points, quiet = [], None
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) == 4 and f[0] == "alloc":
        points.append((float(f[2]), float(f[3])))
    elif len(f) == 3 and f[:2] == ["phase", "quiet"]:
        quiet = float(f[2])
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
exact = [l for l in lines if l["alloc"] and l["alloc"]["source"] == "exact"]
out(len(exact) >= 8 and lines[-1]["alloc"]["source"] == "exact" and lines[-1]["alloc"]["since"] == "process_start",
    "%d of %d samples have JFR's exact total (last: %s)" % (len(exact), len(lines), lines[-1]["alloc"]))
# each total at its period's moment, in the workload's busy phase
at = [(wall_ms(l["time"]) - 1000.0 * l["alloc"]["age_s"], l["alloc"]["bytes_total"]) for l in exact
      if l["alloc"]["age_s"] is not None and l["alloc"]["bytes_total"] is not None]
end = quiet if quiet is not None else (points[-1][0] if points else 0)
at = [a for a in at if points and points[0][0] <= a[0] <= end]
def truth(t):
    for (t0, b0), (t1, b1) in zip(points, points[1:]):
        if t0 <= t <= t1:
            return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else b0
    return None
if len(at) < 2 or at[-1][0] - at[0][0] < 5000:
    out(False, "no window of 5 s of JFR periods in the busy phase (%d periods)" % len(at))
else:
    (ta, ga), (tb, gb) = at[0], at[-1]
    xa, xb = truth(ta), truth(tb)
    err = ((gb - ga) - (xb - xa)) / (xb - xa)
    out(abs(err) <= tol, "over %.1f s JFR counted %d bytes, ThreadMXBean %d: %+.3f%%" %
        ((tb - ta) / 1000, gb - ga, xb - xa, err * 100))
    # each interval's rate is over JFR's periods, not the samples': the
    # growth of the total between the two periods over their distance
    # (the workload may pause and catch up, so no rate is compared with
    # the window's mean)
    worst, n = 0.0, 0
    for a, b in zip(exact, exact[1:]):
        (t0, g0), (t1, g1) = [(wall_ms(l["time"]) - 1000.0 * l["alloc"]["age_s"], l["alloc"]["bytes_total"]) for l in (a, b)]
        r = b["alloc"]["rate_bps"]
        if t1 - t0 < 500 or r is None or g1 <= g0:
            continue
        worst = max(worst, abs(r - (g1 - g0) / ((t1 - t0) / 1000)) / r)
        n += 1
    out(n >= 5 and worst <= 0.01, "%d intervals' rates are the totals' growth over JFR's periods, within %.3f%%" %
        (n, worst * 100))
PY
}

run_one jdk17-G1 java -XX:+UseG1GC
run_one jdk17-Parallel java -XX:+UseParallelGC
# ZGC has no allocation figure from perf data: JFR gives it one
run_one jdk17-Z java -XX:+UseZGC
if [ -x "$JDK25/java" ]; then
	run_one jdk25-G1 "$JDK25/java" -XX:+UseG1GC
else
	skip_unless_ci runtime "JDK 25 is not installed at $JDK25"
fi
