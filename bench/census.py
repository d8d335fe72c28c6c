#!/usr/bin/env python3
"""The census's cost to the target (issue 28): the pause of gctop --census
beside the runtime's own tools, on heaps of 256 MiB and 2 GiB, in the same
run. Not part of make check, nor of make bench's default sections (a 2 GiB
heap, a few minutes): run it on its own.

  python3 bench/census.py [--rounds N] [--heaps 256,2048] [--only jvm,dotnet]

Each runtime is one function of RUNTIMES that returns its rows for a heap
size; the JVM's row is measured from the JVM's own log (-Xlog:safepoint,gc):
the GC_HeapInspection safepoint's Total and the "Pause Full (Heap Inspection
Initiated GC)" inside it, for gctop --census (also its own pause_ms),
jmap -histo:live and jcmd GC.class_histogram, one after the other, two
seconds apart, each round. The .NET rows (bench/census_dotnet.py: gctop
--census and dotnet-gcdump collect on the same process) give as pause the
program's own longest stall and as GC the induced collection's pause that
the runtime reports. Every row also has the target's resident set's peak
rise over the census (census_dotnet.RssPeak), the cost to its memory that
gctop compares with its headroom before a census (issue 36). Prints a table per heap and writes
every figure to bench/results/census-<time>.json."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as B  # noqa: E402  (the shared helpers: the paths, spawn, kill, the targets, the machine)
import report as R  # noqa: E402  (table, med, spread, fmt)
from census_dotnet import RssPeak, dotnet_rows  # noqa: E402

# The live set each heap holds: 70 %, as a service with full caches.
LIVE_SHARE = 0.7
SETTLE_S = 2.0
READY_TIMEOUT_S = 600


def compile_java():
    os.makedirs(B.JCLS, exist_ok=True)
    subprocess.run(["javac", "-d", B.JCLS, os.path.join(B.ROOT, "bench", "java", "CensusFill.java")], check=True)


def log_lines(path):
    with open(path, errors="replace") as f:
        return f.read().splitlines()


def inspection_in(lines):
    """The heap inspection's safepoint Total and its full GC, in ms, from
    the JVM's log lines of one exchange (None where not logged)."""
    pause = gc = None
    for line in lines:
        m = re.search(r'Safepoint "GC_HeapInspection".*Total: (\d+) ns', line)
        if m:
            pause = (pause or 0) + int(m.group(1)) / 1e6
        m = re.search(r"Pause Full \(Heap Inspection Initiated GC\).* ([\d.]+)ms", line)
        if m:
            gc = (gc or 0) + float(m.group(1))
    return pause, gc


def jvm_tool(name, pid):
    if name == "gctop --census":  # the bench measures the cost: the headroom rule stays out
        return [B.GCTOP, "--census", "--census-anyway", "-p", str(pid), "--json"]
    if name == "jmap -histo:live":
        return ["jmap", "-histo:live", str(pid)]
    return ["jcmd", str(pid), "GC.class_histogram"]


def jvm_exchange(name, pid, logpath):
    before = len(log_lines(logpath))
    rss = RssPeak(pid)
    t0 = time.monotonic()
    r = subprocess.run(jvm_tool(name, pid), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    wall = time.monotonic() - t0
    time.sleep(0.5)  # the log line of the safepoint's end
    pause, gc = inspection_in(log_lines(logpath)[before:])
    row = dict(rss.figures(), wall_s=wall, pause_ms=pause, gc_ms=gc, status=r.returncode)
    if name == "gctop --census" and r.returncode == 0:
        doc = json.loads(r.stdout)
        row.update(reported_pause_ms=doc["pause_ms"], live_bytes=doc["total_bytes"], objects=doc["total_count"])
    return row


def jvm_rows(heap_mb, rounds, tmp):
    logpath = os.path.join(tmp, "jvm-%d.log" % heap_mb)
    live_mb = int(heap_mb * LIVE_SHARE)
    p = B.java_target("CensusFill", [live_mb], ["-Xms%dm" % heap_mb, "-Xmx%dm" % heap_mb, "-XX:+UseG1GC",
                                                "-Xlog:safepoint=info,gc=info:file=%s" % logpath])
    try:
        B.wait_line(p, "ready", READY_TIMEOUT_S)
        B.hsperf_ready(p.pid)
        time.sleep(SETTLE_S)
        tools = ["gctop --census", "jmap -histo:live", "jcmd GC.class_histogram"]
        raw = {t: [] for t in tools}
        for _ in range(rounds):
            for t in tools:
                raw[t].append(jvm_exchange(t, p.pid, logpath))
                time.sleep(SETTLE_S)
    finally:
        B.kill(p)
    return [{"runtime": "JVM (JDK 17, G1)", "heap_mib": heap_mb, "tool": t, "runs": raw[t]} for t in tools]


RUNTIMES = [("jvm", jvm_rows), ("dotnet", dotnet_rows)]


def row_cells(r):
    runs = r["runs"]
    def col(key, unit, scale=1.0):
        v = [x.get(key) * scale for x in runs if x.get(key) is not None]
        lo, hi = R.spread(v)
        return "%s (%s-%s)" % (R.fmt(R.med(v), unit), R.fmt(lo), R.fmt(hi)) if v else "n/a"
    live = [x.get("live_bytes") for x in runs if x.get("live_bytes")]
    return [r["runtime"], "%d MiB" % r["heap_mib"], r["tool"], R.fmt(R.med(live) / 2**20, " MiB") if live else "",
            col("wall_s", " s"), col("pause_ms", " ms"), col("gc_ms", " ms"), col("reported_pause_ms", " ms"),
            col("rss_rise_mib", " MiB"), per_object(r)]


def per_object(r):
    """The resident set's peak rise per object the census counted (gctop's
    rows): the figure gctop's expected cost is made from."""
    v = [x["rss_rise_mib"] * 2**20 / x["objects"] for x in r["runs"] if x.get("objects") and "rss_rise_mib" in x]
    return R.fmt(R.med(v), " B") if v else ""


def main():
    args = sys.argv[1:]
    rounds, heaps, only = 2, [256, 2048], None
    while args:
        a = args.pop(0)
        if a == "--rounds" and args:
            rounds = int(args.pop(0))
        elif a == "--heaps" and args:
            heaps = [int(x) for x in args.pop(0).split(",")]
        elif a == "--only" and args:
            only = args.pop(0).split(",")
        else:
            print(__doc__)
            return 2
    compile_java()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, B.on_signal)
    tmp = B.RUN.tmpdir = tempfile.mkdtemp(prefix="gctop-census-bench.")
    res = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "machine": B.machine(), "load_before": B.loadavg(),
           "rounds": rounds, "rows": []}
    try:
        for name, fn in RUNTIMES:
            if only and name not in only:
                continue
            for heap in heaps:
                res["rows"] += fn(heap, rounds, tmp)
    finally:
        B.cleanup()
    res["load_after"] = B.loadavg()
    R.table("Census pause, median of %d (min-max); pause and GC from the runtime's own log" % rounds,
            ["runtime", "heap", "tool", "live", "wall", "pause", "of which full GC", "gctop's pause_ms",
             "RSS peak rise", "per object"],
            [row_cells(r) for r in res["rows"]])
    print("load average before %s, after %s" % (res["load_before"], res["load_after"]))
    os.makedirs(B.RESULTS, exist_ok=True)
    path = os.path.join(B.RESULTS, "census-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
    with open(path, "w") as f:
        json.dump(res, f, indent=1)
    print("raw figures: %s" % os.path.relpath(path, B.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
