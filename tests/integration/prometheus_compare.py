#!/usr/bin/env python3
"""Reads what Prometheus stored from gctop --serve and holds it against the
workloads' truth (prometheus_exporter.sh).

usage: prometheus_compare.py jvm PROM_PORT PID OUT_NDJSON
    writes gctop's stored allocation counter, one line per scrape, as the
    --json lines tests/java/compare_alloc.py reads ({"time", "alloc"}), the
    time being gctop_sample_timestamp_seconds of the same scrape
usage: prometheus_compare.py dotnet PROM_PORT PID TRUTH NAME
    prints PASS/FAIL lines: allocation, collections and pause time over a
    window with quiet edges, with dotnet_gc.sh's tolerances
usage: prometheus_compare.py absent PROM_PORT PID
    exit 0 when no gctop series of PID is current in Prometheus
"""
import datetime
import json
import sys
import time
import urllib.parse
import urllib.request


def query(port, q, at=None):
    args = {"query": q}
    if at is not None:
        args["time"] = "%.3f" % at
    url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode(args))
    with urllib.request.urlopen(url, timeout=10) as r:
        d = json.load(r)
    if d.get("status") != "success":
        raise RuntimeError("query %s: %s" % (q, d))
    return d["data"]["result"]


def raw(port, selector):
    """{scrape timestamp: value} of the one series selector names, over the last 10 minutes."""
    res = query(port, selector + "[10m]", time.time())
    if len(res) != 1:
        raise RuntimeError("%s: %d series" % (selector, len(res)))
    return {round(float(ts), 3): float(v) for ts, v in res[0]["values"]}


def sampled(port, pid, selector):
    """[(gctop's sample wall ms, value)] for each scrape, oldest first."""
    vals = raw(port, selector)
    at = raw(port, 'gctop_sample_timestamp_seconds{pid="%s"}' % pid)
    return sorted((at[ts] * 1000.0, v) for ts, v in vals.items() if ts in at)


def iso(ms):
    return datetime.datetime.fromtimestamp(ms / 1000.0, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def jvm(port, pid, out):
    with open(out, "w") as f:
        for ms, v in sampled(port, pid, 'gctop_allocated_bytes_total{pid="%s"}' % pid):
            f.write(json.dumps({"time": iso(ms), "alloc": {"bytes_total": int(v)}}) + "\n")
    return 0


def dotnet(port, pid, truth, name):

    def check(ok, what):
        print(("PASS" if ok else "FAIL") + ": prometheus_exporter: %s: %s" % (name, what), flush=True)

    lines = [json.loads(l) for l in open(truth) if l.strip().startswith("{")]
    t = [x for x in lines if "t_ns" in x]
    phase = {x["phase"]: x["wall_ms"] for x in lines if "phase" in x}
    sel = lambda m, extra="": '%s{pid="%s"%s}' % (m, pid, extra)
    alloc = sampled(port, pid, sel("dotnet_gc_heap_total_allocated_bytes_total"))
    pause = dict(sampled(port, pid, sel("dotnet_gc_pause_time_seconds_total")))
    gens = [dict(sampled(port, pid, sel("gctop_gc_collections_total", ',generation="gen%d"' % k))) for k in range(3)]
    excl = [dict(sampled(port, pid, sel("dotnet_gc_collections_total", ',dotnet_gc_heap_generation="gen%d"' % k)))
            for k in range(3)]
    # the window: gctop's last sample before the allocating starts and its
    # first 4 s after it ends (the runtime polls its counters each second;
    # gctop's pause total is the runtime's as of 2.5 s before the sample)
    before = [a for a in alloc if a[0] < phase.get("busy_start", 0) - 100 and a[0] in pause]
    after = [a for a in alloc if a[0] > phase.get("busy_end", 1e18) + 4000 and a[0] in pause]
    if not before or not after or len(t) < 4:
        check(False, "no stored sample in the quiet before (%d) or after (%d) the allocating phase, %d reports; "
              "stored from %.1f s to %.1f s of the allocating phase's start"
              % (len(before), len(after), len(t), (alloc[0][0] - phase.get("busy_start", 0)) / 1000 if alloc else 0,
                 (alloc[-1][0] - phase.get("busy_start", 0)) / 1000 if alloc else 0))
        return 0
    (ma, aa), (mb, ab) = before[-1], after[0]
    t0, t1 = t[0], t[-1]
    ta = t1["alloc"] - t0["alloc"]
    check(abs((ab - aa) - ta) <= 0.05 * ta,
          "dotnet_gc_heap_total_allocated_bytes_total grew %d vs GC.GetTotalAllocatedBytes %d (+-5%%)" % (ab - aa, ta))
    # each GC once, by the oldest generation collected (exclusive):
    # GC.CollectionCount(k) - GC.CollectionCount(k + 1)
    def ex(r, k):
        return r["gc%d" % k] - (r["gc%d" % (k + 1)] if k < 2 else 0)
    for k in range(3):
        d = gens[k][mb] - gens[k][ma]
        td = ex(t1, k) - ex(t0, k)
        check(abs(d - td) <= 1, "gctop_gc_collections_total gen%d grew %d vs GC.CollectionCount's exclusive %d (+-1)" % (k, d, td))
    check([e[mb] for e in excl] == [g[mb] for g in gens],
          "dotnet_gc_collections_total and gctop_gc_collections_total count alike (%s, %s)" % (
              [e[mb] for e in excl], [g[mb] for g in gens]))
    gp = pause[mb] - pause[ma]
    tp = (t1["pause_ns"] - t0["pause_ns"]) / 1e9
    p1 = sum(x["p1_ns"] for x in lines if "bgc" in x) / 1e9
    check(tp > 0 and -0.15 * tp - p1 <= gp - tp <= 0.15 * tp,
          "dotnet_gc_pause_time_seconds_total grew %.4f s vs GC.GetTotalPauseDuration %.4f s (+-15%%, background "
          "GCs' final marks by the runtime's clock %.4f s)" % (gp, tp, p1))
    return 0


def absent(port, pid):
    return 0 if not query(port, '{pid="%s"}' % pid, time.time()) else 1


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "jvm":
        sys.exit(jvm(*sys.argv[2:5]))
    if mode == "dotnet":
        sys.exit(dotnet(*sys.argv[2:6]))
    sys.exit(absent(*sys.argv[2:4]))
