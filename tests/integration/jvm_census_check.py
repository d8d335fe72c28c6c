#!/usr/bin/env python3
"""The verdict of tests/integration/jvm_census.sh on one JVM (not a test
itself): usage jvm_census_check.py DIR TICK LABEL, where DIR holds the two
censuses (census.N.json), the workload's counts around them (before.N,
after.N, after.jmap), the safepoint log's line counts around them
(log_before.N, log_after.N) and safepoint.log, and jmap.txt. Prints PASS:/FAIL:
lines."""
import json, re, sys
work, tick, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def out(ok, what):
    print(("PASS: " if ok else "FAIL: ") + "jvm_census: " + label + ": " + what, flush=True)
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
