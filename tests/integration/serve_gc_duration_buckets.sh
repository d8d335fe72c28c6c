#!/bin/sh
# test-lane: measuring
# gctop --serve --gc-duration-buckets: jvm_gc_duration_seconds with bounds
# fine enough for a young pause's percentile, held against the JVM's own GC
# log. A G1 JVM (a 64 MiB heap, 1 KiB arrays at 300 MB/s for 6 s, then
# quiet) makes some fifty young pauses of about 0.5-5 ms and no other
# kind; once it is quiet, one scrape's G1 Young Generation histogram holds
# every pause since gctop began watching, which are the GC log's last
# _count "Pause Young" lines. For each bound: the pauses the log puts under
# it (the log's span is outside perf data's, so they are under it for
# gctop too) are counted at or under it, give or take the pauses merged at
# their mean (gctop_gc_duration_merged_total); the bounds written are those
# asked, +Inf last; the p99 that Prometheus' histogram_quantile reads from
# the buckets lies in the log's p99 bucket or a lower one (with
# OpenTelemetry's default buckets it reads just under 0.01 s whatever the
# pauses); gctop_gc_pause_seconds, counted one by one from the pause log,
# agrees at every bound but for the merged ones. A bound off gctop's grid
# is a usage error naming the grid. About 15 s.
. tests/lib.sh
require_java
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
BOUNDS=0.0005,0.001,0.0025,0.005,0.01,0.025,0.1,1

"$GCTOP_BIN" --serve 127.0.0.1:0 --gc-duration-buckets 0.003,0.01 >/dev/null 2>"$WORK/usage.err"
rc=$?
check "a bound off the grid is a usage error naming the grid (status $rc: $(head -c 200 "$WORK/usage.err"))" \
	sh -c '[ "$1" -eq 2 ] && grep -q "0.00025, 0.0005" "$2"' _ "$rc" "$WORK/usage.err"

start_java "$WORK/java.out" -Xms64m -Xmx64m -XX:+UseG1GC -Xlog:gc:file="$WORK/gc.log" -cp "$CLASSES" \
	AllocWorkload small 300 6 30
wait_for_hsperf "$JPID" 20 || { fail "the JVM published no perf data"; exit 0; }
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$JPID" -d 0.5 --gc-duration-buckets "$BOUNDS" 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/gctop.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
quiet() { grep -q '^phase quiet' "$WORK/java.out"; }
wait_until 300 quiet || { fail "the workload never went quiet: $(tail -c 300 "$WORK/java.out")"; exit 0; }
# Two samples (-d 0.5) after the last pause: the scrape holds all of them.
sleep 1.5
curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.txt"
rc=$?
check "the scrape answered (curl status $rc)" [ "$rc" -eq 0 ]

comparator gc_duration_buckets python3 - "$WORK/scrape.txt" "$WORK/gc.log" "$JPID" "$BOUNDS" "$TEST_NAME" <<'PY'
import re, sys
scrape, log, pid, bounds, test = sys.argv[1:6]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)
text = open(scrape).read()
young = 'pid="%s"[^}]*jvm_gc_name="G1 Young Generation",jvm_gc_action="[^"]*"' % pid
def series(suffix):
    return [float(m.group(1)) for m in
            re.finditer(r'^jvm_gc_duration_seconds%s\{%s\} (\S+)$' % (suffix, young), text, re.M)]
buckets = [(m.group(1), float(m.group(2))) for m in
           re.finditer(r'^jvm_gc_duration_seconds_bucket\{%s,le="([^"]+)"\} (\S+)$' % young, text, re.M)]
asked = bounds.split(",")
check([le for le, _ in buckets] == asked + ["+Inf"],
      "the buckets written are those asked, +Inf last: %s" % [le for le, _ in buckets])
count = series("_count")
merged = [float(m.group(1)) for m in re.finditer(
    r'^gctop_gc_duration_merged_total\{pid="%s"[^}]*jvm_gc_name="G1 Young Generation"[^}]*\} (\S+)$' % pid, text, re.M)]
ok = len(count) == 1 and len(merged) == 1 and len(buckets) == len(asked) + 1
check(ok, "one G1 young histogram with its _count and merged count (%s, %s)" % (count, merged))
if not ok:
    sys.exit(0)
n, merged = int(count[0]), int(merged[0])
pauses = [float(m.group(2)) for m in re.finditer(r"\] GC\(\d+\) (Pause Young.*) ([0-9.]+)ms$", open(log).read(), re.M)]
others = len(re.findall(r"\] GC\(\d+\) Pause (?!Young)", open(log).read()))
check(n >= 30 and len(pauses) >= n and others == 0,
      "gctop counted %d young pauses, the log has %d (and %d of other kinds, none wanted)" % (n, len(pauses), others))
if n == 0 or len(pauses) < n:
    sys.exit(0)
mine = pauses[-n:]
cum = [v for _, v in buckets]
check(cum[-1] == n and all(a <= b for a, b in zip(cum, cum[1:])), "buckets grow to _count: %s" % cum)
under = []
for le, c in zip(asked, cum):
    lo = sum(1 for ms in mine if ms + 0.001 <= float(le) * 1000)
    under.append((le, c, lo))
check(all(c >= lo - merged for _, c, lo in under),
      "each bound holds at least the pauses the GC log puts under it, %d merged aside: %s"
      % (merged, ["le %s: %d >= %d" % u for u in under]))
# Prometheus' histogram_quantile: the bucket where the rank falls, read
# linearly inside it; the log's p99 and its bucket. The log's pauses are
# the longer (its span is outside perf data's), so gctop's p99 is in the
# same bucket or a lower one, never a higher.
rank = 0.99 * n
k = next(i for i, c in enumerate(cum) if c >= rank)
lo_b = 0.0 if k == 0 else float(asked[k - 1])
hi_b = float(asked[k]) if k < len(asked) else float(asked[-1])
below = 0 if k == 0 else cum[k - 1]
q = lo_b + (hi_b - lo_b) * (rank - below) / (cum[k] - below) if k < len(asked) else hi_b
p99 = sorted(mine)[int(rank + 0.999999) - 1] / 1000
kt = next((i for i, b in enumerate(asked) if p99 <= float(b)), len(asked))
check(k <= kt, "histogram_quantile(0.99) reads %.4f s (bucket %d), the GC log's p99 is %.4f s (bucket %d)"
      % (q, k, p99, kt))
# gctop_gc_pause_seconds counts the same pauses one by one from the
# sample's pause log, on the same grid: equal at every bound asked but for
# the pauses merged at their mean here.
pause = dict((m.group(1), float(m.group(2))) for m in re.finditer(
    r'^gctop_gc_pause_seconds_bucket\{pid="%s"[^}]*,le="([^"]+)"\} (\S+)$' % pid, text, re.M))
pairs = [(le, c, pause.get(le)) for le, c in zip(asked, cum)]
check(all(p is not None and abs(c - p) <= merged for _, c, p in pairs),
      "at each bound, gctop_gc_pause_seconds within %d (merged) of it: %s"
      % (merged, ["le %s: %d/%s" % x for x in pairs]))
PY
