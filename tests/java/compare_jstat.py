#!/usr/bin/env python3
"""Compares one gctop --json sample with `jstat -gc` read just before and
just after it (jstat takes a JVM start, so collectors that keep running,
such as ZGC's, may move in between: gctop must lie between the two reads).

usage: compare_jstat.py GCTOP_NDJSON JSTAT_BEFORE JSTAT_AFTER XMX_BYTES [LABEL [JSTAT_GCCAPACITY]]
Prints a PASS:/FAIL: line per comparison as it is decided (the test harness
counts them) and exits 0 once all are: any other status is a comparator that
died (tests/lib.sh comparator).
Tolerances, all here:
  - collections per collector: between the two jstat reads, give or take
    one (a collection may start while a read is under way);
  - total pause time: between the two reads, give or take 5 ms (jstat
    prints milliseconds);
  - heap used and committed (where jstat shows every space): within 2 MiB
    (jstat prints KiB with rounding, and JDK 17's G1 pads capacities);
  - heap max: equal to -Xmx for the collectors that give each generation the
    whole heap; for Serial and Parallel, no more than -Xmx;
  - old generation (live_set.old: jstat's OU, OC, and OGCMX of -gccapacity):
    between the two reads (the workload holds still; ZGC's cycles may move
    OU), give or take 64 KiB (jstat prints KiB with one decimal, and JDK
    17's G1 pads capacities by 8 bytes, which gctop drops).
"""
import json
import sys

MiB = 1024 * 1024


def main():
    name = sys.argv[5] if len(sys.argv) > 5 else "jstat"
    lines = [l for l in open(sys.argv[1]) if l.strip()]
    d = json.loads(lines[-1])

    def read_jstat(path):
        rows = [l.split() for l in open(path) if l.strip()]
        return dict(zip(rows[0], rows[1]))

    before, js = read_jstat(sys.argv[2]), read_jstat(sys.argv[3])
    xmx = int(sys.argv[4])

    def check(what, ok, detail):
        print("%s: %s: %s (%s)" % ("PASS" if ok else "FAIL", name, what, detail), flush=True)

    def num(col, table=None):
        v = (table or js).get(col, "-")
        return None if v == "-" else float(v)

    # Collector counts in index order: jstat YGC, FGC, CGC are collectors
    # 0, 1 and 2, "-" where a collector does not exist; gctop lists the
    # existing ones in the same order.
    cols = [c for c in ("YGC", "FGC", "CGC") if num(c) is not None]
    low = [int(num(c, before)) for c in cols]
    high = [int(num(c)) for c in cols]
    got = [c["collections"] for c in d["collectors"]]
    check("collector counts", len(high) == len(got) and
          all(lo - 1 <= g <= hi + 1 for lo, g, hi in zip(low, got, high)),
          "gctop %s, jstat before %s after %s" % (got, low, high))

    gct, gct_before = num("GCT"), num("GCT", before)

    def within(v):
        return gct is not None and gct_before - 0.005 <= v <= gct + 0.005

    time_sum = sum(c["time_s"] for c in d["collectors"])
    check("collector time = GCT", within(time_sum),
          "gctop %.4f s, jstat before %s after %s s" % (time_sum, gct_before, gct))
    if d["gc"] != "Shenandoah":
        check("pause total = GCT", within(d["pause"]["total_s"]),
              "gctop %.4f s, jstat before %s after %s s" % (d["pause"]["total_s"], gct_before, gct))
    else:
        # Its collector time includes concurrent cycles; pauses are safepoints.
        check("pause total below collector time", d["pause"]["total_s"] <= time_sum,
              "pause %.4f s, collector time %.4f s" % (d["pause"]["total_s"], time_sum))

    # Per-generation collections follow the collector mapping.
    gens = {g["name"]: g for g in d["generations"]}
    if d["gc"] in ("G1", "Parallel", "Serial"):
        check("young/old collections",
              abs(gens["young"]["collections"] - num("YGC")) <= 1 and abs(gens["old"]["collections"] - num("FGC")) <= 1,
              "young %s old %s, jstat YGC %s FGC %s" % (gens["young"]["collections"], gens["old"]["collections"],
                                                       num("YGC"), num("FGC")))

    m = d["memory"]
    cols = ("S0U", "S1U", "EU", "OU", "S0C", "S1C", "EC", "OC")
    if all(num(c) is not None for c in cols):
        used = (num("S0U") + num("S1U") + num("EU") + num("OU")) * 1024
        committed = (num("S0C") + num("S1C") + num("EC") + num("OC")) * 1024
        check("heap used", abs(m["heap_used_bytes"] - used) <= 2 * MiB,
              "gctop %d, jstat %d" % (m["heap_used_bytes"], used))
        check("heap committed", abs(m["heap_committed_bytes"] - committed) <= 2 * MiB,
              "gctop %d, jstat %d" % (m["heap_committed_bytes"], committed))
    else:
        check("heap used within max", 0 < m["heap_used_bytes"] <= m["heap_max_bytes"],
              "used %d, max %d" % (m["heap_used_bytes"], m["heap_max_bytes"]))
    if d["gc"] in ("Parallel", "Serial"):
        check("heap max", 0.8 * xmx <= m["heap_max_bytes"] <= xmx, "gctop %d, -Xmx %d" % (m["heap_max_bytes"], xmx))
    else:
        check("heap max", m["heap_max_bytes"] == xmx, "gctop %d, -Xmx %d" % (m["heap_max_bytes"], xmx))
    check("metaspace", num("MU") is not None and abs(m["metaspace_used_bytes"] - num("MU") * 1024) <= MiB,
          "gctop %s, jstat MU %s KiB" % (m["metaspace_used_bytes"], num("MU")))
    old = d["live_set"]["old"]
    slack = 64 * 1024

    def between(what, got, col, table_after=None):
        lo, hi = num(col, before), num(col, table_after)
        ok = got is not None and lo is not None and hi is not None and \
            min(lo, hi) * 1024 - slack <= got <= max(lo, hi) * 1024 + slack
        check(what, ok, "gctop %s, jstat %s before %s after %s KiB" % (got, col, lo, hi))

    between("old used = OU", old["used_bytes"], "OU")
    between("old committed = OC", old["committed_bytes"], "OC")
    if len(sys.argv) > 6:
        cap = read_jstat(sys.argv[6])
        mx = num("OGCMX", cap)
        check("old max = OGCMX", mx is not None and old["max_bytes"] is not None and
              abs(old["max_bytes"] - mx * 1024) <= slack, "gctop %s, jstat OGCMX %s KiB" % (old["max_bytes"], mx))
    return 0


sys.exit(main())
