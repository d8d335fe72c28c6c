#!/bin/sh
# test-lane: measuring
# gctop --serve --ops NAME: every JVM that publishes the perf-data counter
# NAME is served with its operations as gctop_requests_total and
# gctop_bytes_per_request, as .NET is with ASP.NET Core's requests.
# OpsWorkload (two threads doing operations of 32 KiB each) counts in the
# counter and logs its own truth; over gctop's samples the counter's
# increase must be within 5% of the workload's operations between the same
# two sample times, and every interval's bytes per request within 5% of the
# workload's bytes per operation. A JVM that does not publish the counter
# is served without either series; --serve --ops-agent without an --ops
# jmx: counter for it to load the agent for is a usage error (2). About 20 s.
. tests/lib.sh
. tests/integration/jvm_ops.shlib
require_java
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
COUNTER=gctop.test.ops

ops_start ops.log 30 "$COUNTER" --add-exports java.base/jdk.internal.perf=ALL-UNNAMED
OPID=$JPID
java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/idle.log" 2>&1 &
IPID=$!
CHILD_PIDS="$CHILD_PIDS $IPID"
wait_for_hsperf "$IPID" 20 || { fail "the idle JVM published no perf data"; exit 0; }

"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$OPID,$IPID" --ops "$COUNTER" 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/gctop.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")

# scrape N: /metrics into scrape.N; true once both JVMs are served.
scrape() {
	curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.$1" 2>/dev/null &&
		grep -q "^gctop_requests_total{pid=\"$OPID\"" "$WORK/scrape.$1" &&
		grep -q "^gctop_target_info{pid=\"$IPID\"" "$WORK/scrape.$1"
}
check "both JVMs are served, the counting one with gctop_requests_total" wait_until 100 scrape 0
# Eight scrapes a second apart: each sees a new sample (-d 1).
i=1
while [ $i -le 8 ]; do
	sleep 1
	scrape $i || true
	i=$((i + 1))
done
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null

comparator "of the scrapes" python3 - "$WORK" "$OPID" "$IPID" "$TEST_NAME" <<'PY'
import re, sys
work, opid, ipid, test = sys.argv[1:5]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)
def series(text, name, pid):
    m = re.search(r'^%s\{pid="%s"[^}]*\} (\S+)' % (name, pid), text, re.M)
    return float(m.group(1)) if m else None
scrapes = []
for i in range(1, 9):
    try:
        t = open("%s/scrape.%d" % (work, i)).read()
    except OSError:
        continue
    at = series(t, "gctop_sample_timestamp_seconds", opid)
    if at is not None and (not scrapes or at > scrapes[-1][0]):
        scrapes.append((at, series(t, "gctop_requests_total", opid), series(t, "gctop_bytes_per_request", opid), t))
check(len(scrapes) >= 5, "scrapes saw at least 5 distinct samples (%d)" % len(scrapes))
if len(scrapes) < 5:
    sys.exit(0)
# "ops MONO_NS WALL_MS BYTES OPS" every 100 ms
own = [tuple(int(x) for x in l.split()[1:]) for l in open(work + "/ops.log") if l.startswith("ops ")]
def ops_at(wall_s):
    return min(own, key=lambda o: abs(o[1] - wall_s * 1000))
a, b = ops_at(scrapes[0][0]), ops_at(scrapes[-1][0])
check(abs(a[1] - scrapes[0][0] * 1000) <= 100 and abs(b[1] - scrapes[-1][0] * 1000) <= 100,
      "the workload logged both ends of gctop's span")
truth_ops = b[3] - a[3]
served = scrapes[-1][1] - scrapes[0][1]
check(truth_ops > 0 and abs(served - truth_ops) <= 0.05 * truth_ops,
      "gctop_requests_total rose by %.0f, the workload counted %d between the same samples (5%%)" % (served, truth_ops))
per_op = (b[2] - a[2]) / truth_ops if truth_ops else 0
per = [s[2] for s in scrapes[1:]]
bad = [p for p in per if p is None or abs(p - per_op) > 0.05 * per_op]
check(not bad, "gctop_bytes_per_request of every interval within 5%% of the workload's %.0f: %s"
      % (per_op, ", ".join("%.0f" % p if p is not None else "absent" for p in per)))
last = scrapes[-1][3]
check(series(last, "gctop_requests_total", ipid) is None and series(last, "gctop_bytes_per_request", ipid) is None
      and series(last, "gctop_target_info", ipid) is not None,
      "the JVM without the counter is served without gctop_requests_total or gctop_bytes_per_request")
PY

"$GCTOP_BIN" --serve 127.0.0.1:0 --ops-agent --ops "$COUNTER" >/dev/null 2>"$WORK/usage.err"
rc=$?
check "--serve --ops-agent without --ops jmx: is a usage error that says why (status $rc: $(head -c 200 "$WORK/usage.err"))" \
	sh -c '[ "$1" -eq 2 ] && grep -q "ops-agent loads gctop.s agent for --ops jmx:" "$2"' _ "$rc" "$WORK/usage.err"
kill "$OPID" "$IPID" 2>/dev/null
