#!/bin/sh
# test-lane: measuring
# Before and after on a JVM: AllocWorkload recorded with gctop -w at 120
# MB/s (before an allocation fix) and at 12 MB/s (after, at the same work),
# then gctop --compare: each run's median allocation rate within 10% (the
# tolerance of jvm_alloc_rate) of the workload's own rate (ThreadMXBean's
# exact bytes over its busy phase), the rate falling about 10x, the ratio
# column after/before, and --fail-if judging the fix and its reversal.
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
TOLERANCE=0.10

# record NAME RATE_MB_S: the run, recorded to $WORK/NAME.ndjson; the
# workload's own log in $WORK/NAME.log.
record() {
	java -Xmx128m -XX:+UseG1GC -cp "$CLASSES" AllocWorkload small "$2" 7 1 >"$WORK/$1.log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$WORK/$1.log" 2>/dev/null
	"$GCTOP_BIN" -p "$pid" -b -d 0.5 -n 12 -w "$WORK/$1.ndjson" >/dev/null 2>"$WORK/$1.err"
	rc=$?
	check "$1: gctop -b -w exits 0 ($(head -c 300 "$WORK/$1.err"))" [ "$rc" -eq 0 ]
	wait "$pid" 2>/dev/null
}

record before 120
record after 12
"$GCTOP_BIN" --compare "$WORK/before.ndjson" "$WORK/after.ndjson" --json >"$WORK/cmp.json" 2>"$WORK/cmp.err"
rc=$?
check "--compare --json exits 0 ($(head -c 300 "$WORK/cmp.err"))" [ "$rc" -eq 0 ]
comparator "of the runs" python3 - "$WORK/cmp.json" "$WORK/before.log" "$WORK/after.log" "$TOLERANCE" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
tol = float(sys.argv[4])
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": record_compare_jvm: " + what, flush=True)
def exact_rate(log):
    # "alloc MONO_NS WALL_MS BYTES" every 100 ms; the busy phase ends at "phase quiet"
    pts = []
    for line in open(log):
        f = line.split()
        if f and f[0] == "phase":
            break
        if f and f[0] == "alloc":
            pts.append((int(f[1]), int(f[3])))
    (t0, b0), (t1, b1) = pts[0], pts[-1]
    return (b1 - b0) / ((t1 - t0) / 1e9)
rates = []
for run, log in zip(runs, sys.argv[2:4]):
    exact = exact_rate(log)
    m = run["alloc"]["rate_bps_median"]
    rates.append(m)
    check(m is not None and abs(m - exact) <= tol * exact,
          "%s: median allocation rate %.0f B/s vs the workload's %.0f B/s (%d%%)" % (run["file"].rsplit("/", 1)[-1], m or 0, exact, tol * 100))
    check(run["target"]["runtime"] == "hotspot" and run["gc"]["name"] == "G1", "the target and its GC (%s)" % run["gc"])
    check(run["alloc"]["bytes_per_op_median"] is None, "no operations counted: bytes per operation n/a, not 0")
if len(rates) == 2 and all(rates):
    check(abs(runs[1]["ratio_to_first"]["alloc.rate_bps_median"] - rates[1] / rates[0]) < 1e-9, "the ratio column is after/before")
    check(rates[0] >= 8 * rates[1], "the allocation rate fell 10x (at least 8x): %.0f -> %.0f" % (rates[0], rates[1]))
PY
"$GCTOP_BIN" --compare "$WORK/before.ndjson" "$WORK/after.ndjson" --fail-if 'alloc.rate_bps_median>+10%' >/dev/null 2>"$WORK/g1.err"
rc=$?
check "--fail-if passes the fix ($(cat "$WORK/g1.err"))" [ "$rc" -eq 0 ]
"$GCTOP_BIN" --compare "$WORK/after.ndjson" "$WORK/before.ndjson" --fail-if 'alloc.rate_bps_median>+10%' >/dev/null 2>"$WORK/g2.err"
rc=$?
check "--fail-if fails the reversal with status 11 ($(cat "$WORK/g2.err"))" [ "$rc" -eq 11 ]
