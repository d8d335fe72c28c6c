#!/bin/sh
# test-lane: measuring
# gctop --census on a JVM that leaks one known type (tests/java/CensusLeak:
# 100 CensusLeak$LeakNode every 50 ms among churn of byte[] and String):
# two censuses 4 s apart, where the type that grew most is the leaking one;
# each census's count of it lies between the workload's own counts read just
# before and just after it (plus one tick of 100: the workload writes its
# count at the end of a tick, and the census's safepoint may fall inside
# one); and jmap -histo:live right after agrees: at least the census's
# count, at most the workload's count after jmap (plus one tick), with the
# same bytes per object. Each census's pause_ms agrees with the JVM's own
# safepoint log (-Xlog:safepoint): at least its GC_HeapInspection
# safepoint's Total, at most every safepoint logged over the exchange (the
# counter it reads, sun.rt.safepointTime, counts them all), each within
# 0.1 ms of rounding. Array names are in source form. Also the refusals:
# a process of no runtime (status 4), no -p (status 2).
. tests/lib.sh
require_java
command -v jmap >/dev/null 2>&1 || missing_runtime "jmap"
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
TICK=100

start_java "$WORK/java.log" -Xmx256m -XX:+UseG1GC -Xlog:safepoint=info:file="$WORK/safepoint.log" \
	-cp "$classes" CensusLeak $TICK "$WORK/state"
wait_for_hsperf "$JPID" 10 && wait_for_file "$WORK/state" 10 ||
	{ fail "the workload did not start: $(head -c 300 "$WORK/java.log")"; exit 1; }
leaked() { sed -n 's/^leaked //p' "$WORK/state"; }

# census N: a census into census.N.json, the workload's count before and after
census() {
	echo "$(leaked)" >"$WORK/before.$1"
	wc -l <"$WORK/safepoint.log" >"$WORK/log_before.$1"
	"$GCTOP_BIN" --census -p "$JPID" --json >"$WORK/census.$1.json" 2>"$WORK/census.$1.err"
	echo $? >"$WORK/rc.$1"
	echo "$(leaked)" >"$WORK/after.$1"
	wc -l <"$WORK/safepoint.log" >"$WORK/log_after.$1"
}
census 1
sleep 4
census 2
jmap -histo:live "$JPID" >"$WORK/jmap.txt" 2>&1
echo "$(leaked)" >"$WORK/after.jmap"
"$GCTOP_BIN" --census -p "$JPID" >"$WORK/census.txt" 2>&1
text_rc=$?

for n in 1 2; do
	rc=$(cat "$WORK/rc.$n")
	check "census $n ran (status $rc: $(cat "$WORK/census.$n.err"))" [ "$rc" -eq 0 ]
done
check "the text table ran (status $text_rc) and names the leaking type" \
	grep -q 'CensusLeak\$LeakNode' "$WORK/census.txt"

python3 - "$WORK" $TICK <<'PY'
import json, re, sys
work, tick = sys.argv[1], int(sys.argv[2])
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + "jvm_census: " + what)
def num(name):
    return int(open("%s/%s" % (work, name)).read().strip() or 0)
try:
    c = [json.load(open("%s/census.%d.json" % (work, n))) for n in (1, 2)]
except Exception as e:
    out(False, "the censuses are JSON: %s" % e)
    sys.exit(0)
LEAK = "CensusLeak$LeakNode"
types = [{t["name"]: t for t in x["types"]} for x in c]
for n in (0, 1):
    lo, hi = num("before.%d" % (n + 1)), num("after.%d" % (n + 1))
    got = types[n].get(LEAK, {}).get("count")
    out(got is not None and lo <= got <= hi + tick,
        "census %d counts %s %s, the workload held %d before and %d after (+ one tick %d)" % (n + 1, got, LEAK, lo, hi, tick))
    x = c[n]
    out(x["runtime"] == "hotspot" and x["pid"] > 0 and x["partial"] is None, "census %d: runtime %s, partial %s" % (n + 1, x["runtime"], x["partial"]))
    out(isinstance(x["pause_ms"], (int, float)) and x["pause_ms"] > 0 and x["took_ms"] > 0,
        "census %d: pause_ms %s, took_ms %s" % (n + 1, x["pause_ms"], x["took_ms"]))
    out(x["total_bytes"] >= sum(t["bytes"] for t in x["types"]) * 0.99, "census %d: total_bytes %d covers its types" % (n + 1, x["total_bytes"]))
    sizes = [t["bytes"] for t in x["types"]]
    out(sizes == sorted(sizes, reverse=True), "census %d: types by bytes, largest first" % (n + 1))
# pause_ms against the JVM's safepoint log over each exchange.
log = open("%s/safepoint.log" % work).read().splitlines()
for n in (0, 1):
    lines = log[num("log_before.%d" % (n + 1)):num("log_after.%d" % (n + 1))]
    totals = [(m.group(1), int(m.group(2)) / 1e6) for m in
              (re.search(r'Safepoint "(\w+)".*Total: (\d+) ns', l) for l in lines) if m]
    hi = sum(t for name, t in totals if name == "GC_HeapInspection")
    every = sum(t for name, t in totals)
    got = c[n]["pause_ms"]
    out(any(name == "GC_HeapInspection" for name, t in totals) and got is not None and hi - 0.1 <= got <= every + 0.1,
        "census %d: pause_ms %s, the log's heap inspection %.3f ms, every safepoint over it %.3f ms" % (n + 1, got, hi, every))
# What grew most between the two is the leak.
prev = types[0]
growth = sorted(((t["bytes"] - prev.get(name, {"bytes": 0})["bytes"], name) for name, t in types[1].items()), reverse=True)
out(growth[0][1] == LEAK, "the type that grew most is %s (+%d bytes); next %s" % (growth[0][1], growth[0][0], growth[1:3]))
# Source-form names: arrays, nested classes, no module suffix, no internal form.
names = set(types[1])
for want in ("byte[]", "long[]", "int[][]", "java.lang.String[][]", "java.lang.Object[]", LEAK):
    out(want in names, "source-form name %s present" % want)
out(not any(n.startswith("[") or " (" in n for n in names), "no internal-form name or module suffix: %s" %
    [n for n in names if n.startswith("[") or " (" in n][:3])
# jmap -histo:live right after census 2.
jm = None
for line in open("%s/jmap.txt" % work):
    m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
    if m and m.group(3) == LEAK:
        jm = (int(m.group(1)), int(m.group(2)))
mine = types[1].get(LEAK)
after = num("after.jmap")
if jm is None or mine is None:
    out(False, "jmap lists %s: %s" % (LEAK, open("%s/jmap.txt" % work).read()[:300]))
else:
    out(mine["count"] <= jm[0] <= after + tick,
        "jmap -histo:live counts %d, the census %d, the workload %d after jmap (+ one tick)" % (jm[0], mine["count"], after))
    out(jm[1] * mine["count"] == mine["bytes"] * jm[0],
        "bytes per object agree: jmap %d/%d, census %d/%d" % (jm[1], jm[0], mine["bytes"], mine["count"]))
PY

# Refusals: one sentence and the documented status.
sleep 30 &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"
"$GCTOP_BIN" --census -p "$SPID" >/dev/null 2>"$WORK/norun.err"
rc=$?
check "a process of no runtime: status 4 ($rc: $(cat "$WORK/norun.err"))" [ "$rc" -eq 4 ]
"$GCTOP_BIN" --census --json >/dev/null 2>"$WORK/nop.err"
rc=$?
check "no -p: status 2 ($rc: $(cat "$WORK/nop.err"))" [ "$rc" -eq 2 ]

# A JVM that refuses attach: one sentence saying so, status 1, no signal.
start_java "$WORK/noattach.log" -Xmx64m -XX:+DisableAttachMechanism -cp "$classes" CensusLeak 1 "$WORK/state2"
if wait_for_hsperf "$JPID" 10; then
	"$GCTOP_BIN" --census -p "$JPID" >/dev/null 2>"$WORK/noattach.err"
	rc=$?
	check "a JVM started with -XX:+DisableAttachMechanism: status 1 ($rc: $(cat "$WORK/noattach.err"))" \
		[ "$rc" -eq 1 ] && grep -q 'DisableAttachMechanism, so gctop cannot take a census' "$WORK/noattach.err"
	check "and it was not signalled (no thread dump)" [ -z "$(grep 'Full thread dump' "$WORK/noattach.log")" ]
else
	fail "the JVM without attach published no perf data: $(head -c 300 "$WORK/noattach.log")"
fi
