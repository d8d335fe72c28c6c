"""1e, gctop's CPU against a JVM collecting tens of times a second (tick):
what the HotSpot collector's poll tick, which follows the collection rate,
costs, beside a loop that only wakes at the same rate."""
import json
import os
import time

from harness import GCTOP, WAKELOOP, RUN, log, kill, measured, read_wakeups, loadavg, java_target, hsperf_ready
from report import med, spread, fmt, table


TICK_TARGETS = [
    # (name, JVM options, main class and arguments): G1 with a small fixed
    # young generation, AllocLoop paced so that it collects about that often
    # a second; and the humongous shape (MixWorkload from tests/java:
    # 4 threads, half the bytes in 4-region arrays), which G1 collects some
    # 10-40 times a second and gctop reads every millisecond.
    ("~35 GC/s", ["-Xmx128m", "-Xmn8m", "-XX:+UseG1GC"], ["AllocLoop", 3600, 400]),
    ("~100 GC/s", ["-Xmx128m", "-Xmn4m", "-XX:+UseG1GC"], ["AllocLoop", 3600, 450]),
    ("G1 humongous", ["-Xmx256m", "-XX:+UseG1GC"], ["MixWorkload", 4, 0, 0.5, 4194240, 3600, 0]),
]


def tick_round(binary, pid, secs):
    """One round of one gctop binary against pid: its CPU share of a core
    (the long run less a one-sample run), the collections a second and the
    intervals it marked a lower bound."""
    cpu1 = measured([binary, "-p", str(pid), "--json", "-n", "1"])[0]
    wake1 = read_wakeups(os.path.join(RUN.tmpdir, "rusage.txt"))
    path = os.path.join(RUN.tmpdir, "tick.json")
    with open(path, "w") as f:
        cpun, rss, wall, rc = measured([binary, "-p", str(pid), "--json", "-d", "1", "-n", str(secs + 1)], stdout=f)
    waken = read_wakeups(os.path.join(RUN.tmpdir, "rusage.txt"))
    lines = [json.loads(l) for l in open(path) if l.strip()]
    gcs = bounds = None
    if len(lines) >= 2:
        gcs = (sum(g["collections"] or 0 for g in lines[-1]["generations"]) -
               sum(g["collections"] or 0 for g in lines[0]["generations"])) / secs
        bounds = sum(1 for l in lines[1:] if (l["alloc"] or {}).get("lower_bound"))
    share = (cpun - cpu1) / secs if cpun is not None and cpu1 is not None else None
    wakes = (waken - wake1) / secs if waken is not None and wake1 is not None else None
    return {"cpu_share": share, "wakeups_per_s": wakes, "gc_per_s": gcs, "lower_bound_intervals": bounds,
            "intervals": len(lines) - 1, "maxrss_kib": rss, "rc": rc}


def anchor_round(rate, secs):
    """The wake-ups alone: bench/wakeloop sleeping and waking rate times a
    second for secs, less a run of no time (its start-up); its CPU share."""
    if not rate or rate <= 0:
        return {"cpu_share": None, "wakeups_per_s": None}
    cpu0 = measured([WAKELOOP, "%.1f" % rate, "0"])[0]
    wake0 = read_wakeups(os.path.join(RUN.tmpdir, "rusage.txt"))
    cpun = measured([WAKELOOP, "%.1f" % rate, str(secs)])[0]
    waken = read_wakeups(os.path.join(RUN.tmpdir, "rusage.txt"))
    share = (cpun - cpu0) / secs if cpun is not None and cpu0 is not None else None
    wakes = (waken - wake0) / secs if waken is not None and wake0 is not None else None
    return {"cpu_share": share, "wakeups_per_s": wakes, "gc_per_s": None, "lower_bound_intervals": None,
            "intervals": None}


def tick_cost(avail, res):
    """gctop's own CPU per second against a JVM collecting about 35 and 100
    times a second: the HotSpot collector's poll tick follows the collection
    rate (down to 1 ms), so this is what seeing every collection costs.
    GCTOP_TICK_BASE=PATH also measures another gctop binary (an earlier
    build) against the same JVMs, its rounds interleaved with this one's, so
    that both see the same load. After each round of each binary, the
    anchor: a loop that only sleeps and wakes (bench/wakeloop) at the rate
    that round woke up, which is what the wake-ups alone cost here."""
    secs = 6 if RUN.quick else 20
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    binaries = [("gctop", GCTOP)]
    if os.environ.get("GCTOP_TICK_BASE"):
        binaries.append(("base", os.environ["GCTOP_TICK_BASE"]))
    out = {}
    for name, jvm, main in TICK_TARGETS:
        log("tick: %s" % name)
        t = java_target(main[0], main[1:], jvm)
        hsperf_ready(t.pid)
        time.sleep(3)
        runs = {b: [] for b, _ in binaries}
        runs.update({"anchor " + b: [] for b, _ in binaries})
        load = [loadavg()[0]]
        for r in range(rounds):
            # alternate which binary goes first
            for b, path in (binaries if r % 2 == 0 else binaries[::-1]):
                runs[b].append(tick_round(path, t.pid, secs))
                runs["anchor " + b].append(anchor_round(runs[b][-1]["wakeups_per_s"], secs))
        load.append(loadavg()[0])
        kill(t)
        for b in runs:
            key = name if b == "gctop" else "%s (%s)" % (name, b)
            out[key] = {"cpu_share_median": med([x["cpu_share"] for x in runs[b]]),
                        "cpu_share_spread": spread([x["cpu_share"] for x in runs[b]]),
                        "gc_per_s_median": med([x["gc_per_s"] for x in runs[b]]),
                        "wakeups_per_s_median": med([x["wakeups_per_s"] for x in runs[b]]), "raw": runs[b],
                        "load_1min": load}
    rows = []
    for name, o in out.items():
        lo, hi = o["cpu_share_spread"]
        last = o["raw"][-1]
        rows.append([name, fmt(o["gc_per_s_median"]), fmt(o["cpu_share_median"] and o["cpu_share_median"] * 100, "%"),
                     "%s-%s" % (fmt(lo and lo * 100, "%"), fmt(hi and hi * 100, "%")),
                     fmt(o["wakeups_per_s_median"]),
                     "%s/%s" % (last["lower_bound_intervals"], last["intervals"]) if last["intervals"] else "-",
                     "%.1f-%.1f" % tuple(o["load_1min"])])
    table("1e. gctop CPU against a collecting JVM (gctop -p PID --json -d 1, %d s, start-up excluded); "
          "anchor: a loop that only wakes at the rate that binary woke" % secs,
          ["target", "GC/s", "CPU of a core", "rounds", "wake-ups/s", "lower-bound intervals", "load"], rows)
    res["tick"] = out
