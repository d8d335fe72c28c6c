#!/bin/sh
# test-lane: measuring
# test-lane: measuring
# Bytes per operation on a JVM (--ops NAME): OpsWorkload publishes its
# operations as a perf-data counter of its own (jdk.internal.perf.PerfCounter)
# while two threads do operations of 32 KiB each, and logs its own truth
# (ThreadMXBean's bytes over the operations it counted). gctop --json
# --ops must give bytes per operation within 5% of that in every interval,
# the same through a recording, its replay and --compare; a counter the JVM
# does not publish is n/a with why, never 0; --doctor --ops exits with the
# status its report calls for, with the alloc-per-op warning where each
# operation starts collections of its own; JDK 25 as JDK 17. About 35 s.
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
COUNTER=gctop.test.ops
EXPORTS="--add-exports java.base/jdk.internal.perf=ALL-UNNAMED"

# start LOG SECONDS: OpsWorkload (2 threads, 2000 operations/s of 32 KiB)
# on G1 with the java first on PATH; sets JPID once it has counted some.
start() {
	# shellcheck disable=SC2086 # EXPORTS is two words
	start_java "$WORK/$1" $EXPORTS -XX:+UseG1GC -Xmx256m -cp "$CLASSES" OpsWorkload "$COUNTER" 2 2000 32768 "$2"
	wait_until 100 grep -q '^ops ' "$WORK/$1"
}

# judge NAME JSON LOG: every interval's bytes per operation (and the run's
# operations per second) within 5% of the workload's own over gctop's span.
# Intervals of 2 s (128 MiB): G1 publishes eden's use by whole regions
# (1 MiB here), so the estimate of one interval can be a region or two off
# at either end, up to 4% of a 1 s interval's 64 MiB in runs seen.
judge() {
	python3 - "$1" "$2" "$3" "$COUNTER" <<'PY'
import json, sys
name, js, log, counter = sys.argv[1:5]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": jvm_ops: %s: %s" % (name, what))
samples = [json.loads(l) for l in open(js) if l.strip()]
# "ops MONO_NS WALL_MS BYTES OPS" every 100 ms
own = [tuple(int(x) for x in l.split()[1:]) for l in open(log) if l.startswith("ops ")]
check(len(samples) >= 3, "gctop printed its samples (%d)" % len(samples))
if len(samples) < 3:
    sys.exit(0)
def wall(s):
    # "2026-12-01T03:22:20.026Z": ms since the epoch
    import datetime
    return int(datetime.datetime.strptime(s["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
               .replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
t0, t1 = wall(samples[0]), wall(samples[-1])
span = [o for o in own if t0 - 100 <= o[1] <= t1 + 100]
check(len(span) >= 10, "the workload logged gctop's span (%d lines)" % len(span))
if len(span) < 10:
    sys.exit(0)
truth = (span[-1][2] - span[0][2]) / (span[-1][3] - span[0][3])
truth_rate = (span[-1][3] - span[0][3]) / ((span[-1][0] - span[0][0]) / 1e9)
ops = [s["ops"] for s in samples]
check(all(o and o["name"] == "operations" and o["counter"] == counter for o in ops),
      "every sample counts operations from %s (%s)" % (counter, ops[-1]))
check(all(s.get("ops_unavailable") is None for s in samples), "no sample says the counter is missing")
per = [o["bytes_per_op"] for o in ops[1:] if o]
bad = [p for p in per if p is None or abs(p - truth) > 0.05 * truth]
check(per and not bad, "bytes per operation of every interval within 5%% of the workload's %.0f: %s"
      % (truth, ", ".join("%.0f" % p if p is not None else "null" for p in per)))
n = ops[-1]["total"] - ops[0]["total"] if ops[0] and ops[-1] else 0
rate = n / ((t1 - t0) / 1000.0)
check(abs(rate - truth_rate) <= 0.05 * truth_rate,
      "operations per second over the run %.0f within 5%% of the workload's %.0f" % (rate, truth_rate))
with open(js + ".truth", "w") as f:
    f.write("%f\n" % truth)
PY
}

start ops17.log 18
"$GCTOP_BIN" --json -p "$JPID" --ops "$COUNTER" -d 2 -n 4 -w "$WORK/rec.ndjson" >"$WORK/ops.json" 2>"$WORK/ops.err"
check "gctop --json --ops exits 0 ($(head -c 300 "$WORK/ops.err"))" [ $? -eq 0 ]
judge "JDK 17" "$WORK/ops.json" "$WORK/ops17.log"

# A counter the JVM does not publish: n/a with the name and why, never 0.
"$GCTOP_BIN" --json -p "$JPID" --ops no.such.counter -d 0.5 -n 2 >"$WORK/none.json" 2>"$WORK/none.err"
rc=$?
check "a missing counter is no error (status $rc: $(head -c 300 "$WORK/none.err"))" [ "$rc" -eq 0 -a -s "$WORK/none.json" ]
check "a missing counter: ops null, ops_unavailable names it and says why ($(json_get "$WORK/none.json" -1 "d['ops_unavailable']"))" \
	[ "$(json_get "$WORK/none.json" -1 "d['ops'] is None and d['ops_unavailable']['counter'] == 'no.such.counter' and 'no perf-data counter of this name' in d['ops_unavailable']['reason']")" = True ]
"$GCTOP_BIN" -b -p "$JPID" --ops no.such.counter -d 0.5 -n 1 >"$WORK/none.txt" 2>&1
check "a missing counter in -b: operations n/a with the name and why" \
	grep -q '^Alloc: .*   operations n/a (no.such.counter: the JVM publishes no perf-data counter of this name' "$WORK/none.txt"
"$GCTOP_BIN" -b -p "$JPID" --ops "$COUNTER" -d 0.5 -n 1 >"$WORK/ops.txt" 2>&1
check "-b shows operations per second and bytes per op ($(grep '^Alloc' "$WORK/ops.txt"))" \
	grep -Eq '^Alloc: .*   operations/s [0-9.]+, [0-9.]+ KiB per op$' "$WORK/ops.txt"

"$GCTOP_BIN" --doctor -p "$JPID" -d 2 --ops "$COUNTER" >"$WORK/doctor" 2>"$WORK/doctor.err"
rc=$?
check "--doctor --ops exits with its report's status ($rc; report says $(doctor_status "$WORK/doctor"): $(head -c 200 "$WORK/doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor")" ]
check "32 KiB operations with eden in the tens of MiB: no alloc-per-op finding ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor" | tr '\n' ' '))" \
	sh -c "! grep -q alloc-per-op '$WORK/doctor'"

# The recording keeps the counter: its replay gives the same figures, and
# --compare its median.
"$GCTOP_BIN" -r "$WORK/rec.ndjson" --json >"$WORK/replay.json" 2>"$WORK/replay.err"
check "the replay's operations are the live ones ($(head -c 300 "$WORK/replay.err"))" python3 -c '
import json, sys
a = [json.loads(l)["ops"] for l in open(sys.argv[1])]
b = [json.loads(l)["ops"] for l in open(sys.argv[2])]
sys.exit(0 if len(a) == len(b) and all(x == y or (x and y and x["total"] == y["total"] and x["counter"] == y["counter"]
         and (x["bytes_per_op"] is None) == (y["bytes_per_op"] is None)
         and (x["bytes_per_op"] is None or abs(x["bytes_per_op"] - y["bytes_per_op"]) < 1)) for x, y in zip(a, b)) else 1)
' "$WORK/ops.json" "$WORK/replay.json"
"$GCTOP_BIN" --compare "$WORK/rec.ndjson" "$WORK/rec.ndjson" --json >"$WORK/cmp.json" 2>"$WORK/cmp.err"
truth=$(cat "$WORK/ops.json.truth" 2>/dev/null || echo 0)
check "--compare: bytes per operation median within 5% of the workload's $truth, named operations ($(head -c 300 "$WORK/cmp.json"))" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["alloc"]
t = float(sys.argv[2])
sys.exit(0 if r["ops_name"] == "operations" and r["bytes_per_op_median"] and abs(r["bytes_per_op_median"] - t) <= 0.05 * t else 1)
' "$WORK/cmp.json" "$truth"
kill "$JPID" 2>/dev/null

# 16 MiB operations with an 8 MiB young generation: each operation starts
# collections of its own, the alloc-per-op warning, and --doctor exits 13
# (or 14 with a worse finding), as its report says.
# shellcheck disable=SC2086 # EXPORTS is two words
start_java "$WORK/big.log" $EXPORTS -XX:+UseG1GC -Xmx128m -Xmn8m -cp "$CLASSES" OpsWorkload "$COUNTER" 2 3 16777216 8
BIG=$JPID
wait_until 100 grep -q '^ops ' "$WORK/big.log"
"$GCTOP_BIN" --doctor -p "$BIG" -d 4 --ops "$COUNTER" >"$WORK/doctor-big" 2>"$WORK/doctor-big.err"
rc=$?
check "16 MiB operations: --doctor warns alloc-per-op with the collections per operation ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor-big" | tr '\n' ' ' | head -c 400))" \
	grep -Eq '^  warning +alloc-per-op: each operation allocates (at least )?[0-9.]+ MiB: [1-9][0-9]*\.[0-9]{2} collections per operation$' "$WORK/doctor-big"
check "16 MiB operations: --doctor exits with its report's status ($rc; report says $(doctor_status "$WORK/doctor-big"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor-big")" ]
check "16 MiB operations: a warning at worst gives 13 or 14 ($rc)" test "$rc" -ge 13 -a "$rc" -le 14
kill "$BIG" 2>/dev/null

"$GCTOP_BIN" --serve 0 --ops "$COUNTER" >/dev/null 2>&1
check "--ops with --serve is a usage error (2)" [ $? -eq 2 ]
"$GCTOP_BIN" -p "$$" --json --ops 'bad name' >/dev/null 2>&1
check "--ops with a name that is no counter's is a usage error (2)" [ $? -eq 2 ]

j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ -x "$j25/java" ]; then
	PATH="$j25:$PATH" start ops25.log 9
	"$GCTOP_BIN" --json -p "$JPID" --ops "$COUNTER" -d 2 -n 3 >"$WORK/ops25.json" 2>"$WORK/ops25.err"
	check "JDK 25: gctop --json --ops exits 0 ($(head -c 300 "$WORK/ops25.err"))" [ $? -eq 0 ]
	judge "JDK 25" "$WORK/ops25.json" "$WORK/ops25.log"
else
	skip "JDK 25 is not installed at $j25"
fi
