#!/usr/bin/env python3
"""Holds the jvm_* label values and pause buckets Prometheus stored from
gctop --serve against what the JVM's own management beans said in the same
JVM (tests/java/MxNames.java; prometheus_mx_names.sh).

usage: prometheus_mx_names.py PROM_PORT LABEL PID LOG [LABEL PID LOG ...]
prints one PASS/FAIL line per check and JVM.

For each JVM:
  - the heap pools gctop names are the JVM's heap pools (all of them); its
    non-heap ones are among the JVM's, with the same jvm_memory_type;
    Parallel's old pool's used after the last GC is getCollectionUsage();
    heap pools' committed and max are getUsage()'s (Serial, Parallel, G1);
  - every jvm_gc_name is one of the JVM's GarbageCollectorMXBeans, and with
    a collection counted, its jvm_gc_action is one the JVM notified for it;
    every bean that counts pauses (not ZGC's "Cycles", not Shenandoah's,
    which no perf counter counts) has a series;
  - each histogram's buckets grow with le, +Inf is _count, and no bucket
    ever went down in what Prometheus stored (resets() is 0);
  - _count is the bean's collections between "before" and "after" (the JVM
    is idle before and after, and gctop watched it from before; ZGC cycles
    while idle, so there it is at least that);
  - each bucket holds the pauses between two bounds the JVM gives: perf
    data stamps a pause's start and end (TraceCollectorStats) inside the
    span GcInfo times (TraceMemoryManagerStats, constructed after and
    destroyed before it) and inside the span the GC log prints ("Pause
    Young ... 3.456ms": GCTraceTime, constructed before and destroyed after
    it), so a pause the log puts under a bound is under it for gctop, and
    one whose GcInfo duration is over it is over it for gctop, whatever the
    machine's load puts between those places (seen: a full pause of under
    8 ms by GcInfo, over 10 ms by perf data, as its thread was preempted
    between the two); give or take the pauses gctop says it counted at
    their mean (gctop_gc_duration_merged_total: several between two polls,
    man/gctop.1). The log's pauses are matched to a bean by kind and to
    GcInfo by its id (the bean's count with it), and the log must hold as
    many as the bean counted. ZGC, which goes on collecting while idle
    (other pauses than the notified ones), by the share of pauses within
    0.10 of GcInfo's (within 2 ms and 2% of a bound taken either way)."""
import re
import sys

from prometheus_compare import query

SHARE_TOL = 0.10
BOUNDS = ["0.01", "0.1", "1", "10"]
BOUNDS_MS = [10, 100, 1000, 10000]
# The GC log's pause lines each bean counts ("Pause Young (Mixed)" too).
BEAN_PAUSES = {
    "Copy": ("Pause Young",), "PS Scavenge": ("Pause Young",), "G1 Young Generation": ("Pause Young",),
    "MarkSweepCompact": ("Pause Full",), "PS MarkSweep": ("Pause Full",), "G1 Old Generation": ("Pause Full",),
    "G1 Concurrent GC": ("Pause Remark", "Pause Cleanup"),
}
LOG_PAUSE = re.compile(r"\] GC\(\d+\) (Pause [A-Z][a-z]+).* ([0-9.]+)ms$")


def parse_log(path):
    j = {"beans": set(), "pools": {}, "before": {}, "after": {}, "actions": set(), "pauses": {}, "collected": {},
         "usage": {}}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        word, _, rest = line.partition(" ")
        if word == "bean":
            j["beans"].add(rest)
        elif word == "pool":
            kind, _, name = rest.partition(" ")
            j["pools"][name] = kind
        elif word in ("before", "after"):
            name, _, n = rest.rpartition("\t")
            j[word][name] = int(n)
        elif word == "usage":
            name, _, n = rest.rpartition("\t")
            j["usage"][name] = [int(x) for x in n.split()]
        elif word == "collected":
            name, _, n = rest.rpartition("\t")
            j["collected"][name] = int(n)
        elif word == "action":
            j["actions"].add(tuple(rest.split("\t", 1)))
        elif word == "pauses":
            name, _, pauses = rest.rpartition("\t")
            j["pauses"][name] = {int(i): int(ms) for i, ms in (p.split(":") for p in pauses.split())}
    return j


def parse_gc_log(path):
    """[(kind, ms), ...]: the log's pauses in order ("Pause Young", 3.456)."""
    pauses = []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LOG_PAUSE.search(line.rstrip("\n"))
        if m:
            pauses.append((m.group(1), float(m.group(2))))
    return pauses


def series(port, metric, pid):
    return query(port, '%s{pid="%s"}' % (metric, pid))


def check(label, ok, what):
    print("%s: prometheus_mx_names: %s: %s" % ("PASS" if ok else "FAIL", label, what), flush=True)


def check_pools(label, pid, port, j):
    got = {(s["metric"]["jvm_memory_pool_name"], s["metric"]["jvm_memory_type"])
           for s in series(port, "jvm_memory_used_bytes", pid)}
    heap = {n for n, k in got if k == "heap"}
    want_heap = {n for n, k in j["pools"].items() if k == "heap"}
    check(label, heap == want_heap, "heap pools %s, the JVM's %s" % (sorted(heap), sorted(want_heap)))
    wrong = [(n, k) for n, k in got if k != "heap" and j["pools"].get(n) != k]
    check(label, not wrong and got, "non-heap pools %s are the JVM's (wrong: %s)"
          % (sorted(n for n, k in got if k != "heap"), wrong))


def check_sizes(label, pid, port, j):
    """Committed and max of each heap pool as its MemoryPoolMXBean's
    getUsage() gave them once the JVM was idle, and no max where the bean
    has none (-1): exactly, for the collectors whose perf counters are set
    at each pause (Serial, Parallel, G1: nothing moves while the JVM idles).
    Not ZGC and Shenandoah, which go on collecting while idle and update
    their counters at other moments than the beans read theirs, nor Metaspace
    and Compressed Class Space, which grow as classes load (the printing
    loads some)."""
    if any(b.startswith(("ZGC", "Shenandoah")) for b in j["beans"]):
        return
    for metric, k in (("jvm_memory_committed_bytes", 1), ("jvm_memory_limit_bytes", 2)):
        got = {s["metric"]["jvm_memory_pool_name"]: int(float(s["value"][1])) for s in series(port, metric, pid)
               if s["metric"]["jvm_memory_type"] == "heap"}
        want = {n: u[k] for n, u in j["usage"].items()
                if j["pools"].get(n) == "heap" and (n in got or (k == 2 and u[k] >= 0))}
        bad = {n: (got.get(n), want.get(n)) for n in set(got) | set(want) if got.get(n) != want.get(n)}
        check(label, not bad, "%s as the beans give it (differ, gctop vs bean: %s)" % (metric, bad))


def check_after_gc(label, pid, port, j):
    """Where gctop writes a pool's used after its last collection (Parallel's
    old pool, from perf data's liveAtLastFullGc), it is the pool's
    getCollectionUsage() exactly (no collection of it since: the JVM idles)."""
    got = {s["metric"]["jvm_memory_pool_name"]: float(s["value"][1])
           for s in series(port, "jvm_memory_used_after_last_gc_bytes", pid)}
    want = ["PS Old Gen"] if "PS MarkSweep" in j["beans"] else []
    check(label, sorted(got) == want, "used after the last GC written for %s (expected %s)" % (sorted(got), want))
    for name, v in got.items():
        check(label, v == j["collected"].get(name), "%s used after the last GC %d, getCollectionUsage() %s"
              % (name, v, j["collected"].get(name)))


def histograms(port, pid):
    """{(name, action): {"count", "buckets": {le: v}}}"""
    h = {}
    for s in series(port, "jvm_gc_duration_seconds_count", pid):
        m = s["metric"]
        h[(m["jvm_gc_name"], m["jvm_gc_action"])] = {"count": float(s["value"][1]), "buckets": {}, "merged": None}
    for s in series(port, "gctop_gc_duration_merged_total", pid):
        m = s["metric"]
        key = (m.get("jvm_gc_name"), m.get("jvm_gc_action"))
        if key in h:
            h[key]["merged"] = float(s["value"][1])
    for s in series(port, "jvm_gc_duration_seconds_bucket", pid):
        m = s["metric"]
        key = (m["jvm_gc_name"], m["jvm_gc_action"])
        if key in h:
            h[key]["buckets"][m["le"]] = float(s["value"][1])
    return h


def check_names(label, j, h):
    names = {n for n, _ in h}
    check(label, names <= j["beans"], "jvm_gc_name %s are the JVM's beans %s" % (sorted(names), sorted(j["beans"])))
    pausing = {b for b in j["beans"] if not b.endswith("Cycles") and not b.startswith("Shenandoah")}
    check(label, pausing <= names, "every pausing bean %s has a series" % sorted(pausing))
    acts = [(n, a) for (n, a), v in h.items() if v["count"] > 0]
    check(label, set(acts) <= j["actions"], "jvm_gc_action %s as notified %s" % (sorted(acts), sorted(j["actions"])))


def check_shares(label, name, count, cum, pauses):
    """ZGC: each bucket's share of the pauses is within SHARE_TOL of the
    share GcInfo's durations put under its bound, those within 2 ms and 2%
    of it taken either way."""
    n = len(pauses)
    shares = []
    for c, bound in zip(cum[:4], BOUNDS_MS):
        margin = 2 + bound // 50
        lo = sum(1 for ms in pauses.values() if ms <= bound - margin)
        hi = sum(1 for ms in pauses.values() if ms <= bound + margin)
        shares.append((c / count, lo / n, hi / n))
    ok = all(lo - SHARE_TOL <= a <= hi + SHARE_TOL for a, lo, hi in shares)
    check(label, ok, "%s share of pauses at or under %s s: gctop %s, GcInfo %s (within %.2f)"
          % (name, "/".join(BOUNDS), ["%.2f" % a for a, _, _ in shares],
             ["%.2f-%.2f" % (lo, hi) for _, lo, hi in shares], SHARE_TOL))


def check_buckets(label, name, v, cum, pauses, log, seen, total):
    """Each bucket between the pauses the GC log puts under its bound and
    those GcInfo does not put over it, give or take the merged ones."""
    kinds = BEAN_PAUSES.get(name)
    mine = [ms for kind, ms in log if kind in kinds] if kinds else []
    ok = bool(kinds) and len(mine) == total and max(pauses) <= total
    check(label, ok, "the GC log's pauses %s are %s's %d collections (%d)" % (kinds, name, total, len(mine)))
    if not ok:
        return
    # GcInfo's span is inside the log's (whole ms, each end cut: within 1 ms)
    outside = ["#%d %d ms, log %.3f ms" % (i, ms, mine[i - 1]) for i, ms in sorted(pauses.items())
               if ms > mine[i - 1] + 1]
    check(label, not outside, "%s: GcInfo's pauses within the log's (not: %s)" % (name, outside[:3]))
    merged = v["merged"]
    bounds = []
    for c, bound in zip(cum[:4], BOUNDS_MS):
        # printed to 3 decimals: under the bound by more than the rounding
        lo = sum(1 for i in pauses if mine[i - 1] + 0.001 <= bound)
        hi = sum(1 for ms in pauses.values() if ms <= bound)
        bounds.append((lo, hi))
    ok = len(pauses) == v["count"] == seen and all(lo - merged <= c <= hi + merged
                                                    for c, (lo, hi) in zip(cum[:4], bounds))
    check(label, ok, "%s pauses at or under %s s: gctop %s, GC log-GcInfo %s of %d, %d merged at their mean"
          % (name, "/".join(BOUNDS), cum[:4], ["%d-%d" % b for b in bounds], len(pauses), merged))


def check_counts(label, j, h, port, pid, log):
    for (name, action), v in sorted(h.items()):
        b = v["buckets"]
        cum = [b.get(le) for le in BOUNDS + ["+Inf"]]
        shape = None not in cum and all(x <= y for x, y in zip(cum, cum[1:])) and cum[-1] == v["count"]
        check(label, shape, "%s buckets %s grow to _count %g" % (name, cum, v["count"]))
        seen = j["after"].get(name, 0) - j["before"].get(name, 0)
        z = name.startswith("ZGC")
        ok = v["count"] >= seen if z else v["count"] == seen
        check(label, ok, "%s _count %g, the bean's collections meanwhile %d%s"
              % (name, v["count"], seen, " (at least: ZGC cycles while idle)" if z else ""))
        pauses = j["pauses"].get(name)
        if not pauses or not v["count"] or None in cum:
            continue
        if v["merged"] is None:
            check(label, False, "%s has no gctop_gc_duration_merged_total" % name)
            continue
        if z:
            check_shares(label, name, v["count"], cum, pauses)
        else:
            check_buckets(label, name, v, cum, pauses, log, seen, j["after"].get(name, 0))
    resets = [s for s in query(port, 'resets(jvm_gc_duration_seconds_bucket{pid="%s"}[10m]) > 0' % pid)]
    check(label, not resets, "no bucket ever went down (%d series reset)" % len(resets))


def main(argv):
    port = argv[1]
    rest = argv[2:]
    for i in range(0, len(rest) - 2, 3):
        label, pid, log = rest[i:i + 3]
        j = parse_log(log)
        check_pools(label, pid, port, j)
        check_after_gc(label, pid, port, j)
        check_sizes(label, pid, port, j)
        h = histograms(port, pid)
        check_names(label, j, h)
        check_counts(label, j, h, port, pid, parse_gc_log(log[:-len(".log")] + ".gc"))
        if label.endswith("G1") and "G1 Concurrent GC" not in j["beans"]:
            own = series(port, "gctop_gc_collector_duration_seconds_count", pid)
            names = [s["metric"].get("collector") for s in own]
            check(label, names == ["G1 concurrent cycle pauses"],
                  "the remark and cleanup pauses no bean names are in gctop's family (%s)" % names)


if __name__ == "__main__":
    main(sys.argv)
