"""2a-2b, what gctop costs the program it watches: the throughput of an
allocation-bound loop, Java (target-java) and C# (target-dotnet), alone and
watched by gctop, JFR, jstat, dotnet-trace or dotnet-counters, in rotated
rounds; and the table 2a-2c print."""
import os
import signal
import subprocess

from harness import (GCTOP, LOOP_JVM, RUN, log, spawn, kill, wait_line, proc_cpu_ns, java_target, hsperf_ready,
    dotnet_target, collect_lines, last_allocators)
from report import med, spread, fmt, table


def run_java_config(name, warm, secs, jfr_path):
    extra = []
    if name == "jfr profile":
        extra = ["-XX:StartFlightRecording=settings=profile", "-XX:FlightRecorderOptions=repository=%s" % jfr_path]
    t = java_target("AllocLoop", [warm + secs + 5], LOOP_JVM, extra)
    hsperf_ready(t.pid)
    watcher = None
    info = {}
    if name.startswith("gctop") or name == "jstat":
        argv = {"gctop hsperf": [GCTOP, "-p", str(t.pid), "--json", "-d", "1"],
                "gctop --allocators": [GCTOP, "-p", str(t.pid), "--allocators=agent", "--json", "-d", "1"],
                "jstat": ["jstat", "-gcutil", str(t.pid), "1000"]}[name]
        watcher = spawn(argv, stdout=open(os.path.join(RUN.tmpdir, "watch.out"), "w"))
    collect_lines(t, warm, r"ops_per_s (\d+)")
    c0 = proc_cpu_ns(watcher.pid) if watcher else 0
    v = collect_lines(t, secs, r"ops_per_s (\d+)")
    if watcher:
        info["watcher_cpu_share"] = (proc_cpu_ns(watcher.pid) - c0) / 1e9 / secs
        kill(watcher)
        if name == "gctop --allocators":
            info.update(last_allocators(os.path.join(RUN.tmpdir, "watch.out")))
    kill(t)
    return v, info


def target_table(title, out):
    rows = []
    for k, v in out.items():
        if v.get("unavailable"):
            rows.append([k, "n/a", "n/a", "n/a", v["unavailable"]])
            continue
        mops = v["median_ops_per_s"] / 1e6 if v["median_ops_per_s"] is not None else None
        rows.append([k, fmt(mops, " M"), fmt(v["ratio"], "", 4),
                     "%s-%s" % (fmt(v["ratio_spread"][0], "", 4), fmt(v["ratio_spread"][1], "", 4)), v.get("note", "")])
    table(title, ["config", "ops/s", "ratio to alone", "round ratios", "note"], rows)


def summarize_target(raw, infos):
    out = {}
    alone = [med(v) for v in raw["alone"]]
    for name, rounds in raw.items():
        meds = [med(v) for v in rounds]
        ratios = [m / a for m, a in zip(meds, alone) if m and a]
        o = {"median_ops_per_s": med(meds), "round_medians": meds, "ratio": med(ratios), "ratio_spread": spread(ratios),
             "per_second": rounds}
        if infos.get(name):
            o["watcher"] = infos[name]
            share = med([i.get("watcher_cpu_share") for i in infos[name]])
            o["watcher_cpu_share"] = share
            sps = med([i.get("samples_per_s") for i in infos[name]])
            notes = []
            if share is not None:
                notes.append("watcher CPU %s%%" % fmt(share * 100))
            if sps:
                notes.append("%s samples/s" % fmt(sps))
            o["note"] = ", ".join(notes)
        out[name] = o
    return out


def target_java(avail, res):
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    warm, secs = (3, 4) if RUN.quick else (6, 10)
    configs = ["alone", "gctop hsperf", "gctop --allocators", "jfr profile", "jstat"]
    raw, infos = {c: [] for c in configs}, {c: [] for c in configs}
    jfr = os.path.join(RUN.tmpdir, "jfr-repository")
    for r in range(rounds):
        # Rotate the order each round so no config always runs first.
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for c in order:
            log("target java: round %d/%d, %s" % (r + 1, rounds, c))
            v, info = run_java_config(c, warm, secs, jfr)
            raw[c].append(v)
            infos[c].append(info)
    out = summarize_target(raw, infos)
    target_table("2a. Java AllocLoop throughput (%d rounds of %d s after %d s warm-up; median of per-second ops)"
                 % (rounds, secs, warm), out)
    res["target_java"] = out


def target_dotnet(avail, res):
    if not avail["dotnet"]:
        print("\n2b. C# AllocLoop: skipped (%s)" % "; ".join(avail["notes"]))
        res["target_dotnet"] = {"skipped": avail["notes"]}
        return
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    warm, secs = (3, 4) if RUN.quick else (6, 10)
    configs = ["alone"]
    if avail["dotnet_collector"]:
        configs.append("gctop session")
    if avail["dotnet_trace"]:
        configs.append("dotnet-trace gc-verbose")
    if avail["dotnet_counters"]:
        configs.append("dotnet-counters")
    raw, infos = {c: [] for c in configs}, {c: [] for c in configs}
    for r in range(rounds):
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for c in order:
            log("target dotnet: round %d/%d, %s" % (r + 1, rounds, c))
            t = dotnet_target(["alloc", warm + secs + 5])
            wait_line(t, "ops_per_s", 20)
            watcher = None
            if c == "gctop session":
                watcher = spawn([GCTOP, "-p", str(t.pid), "--json", "-d", "1"])
            elif c == "dotnet-trace gc-verbose":
                watcher = spawn([avail["dotnet_trace"], "collect", "-p", str(t.pid), "--profile", "gc-verbose",
                                 "-o", os.path.join(RUN.tmpdir, "bench.nettrace")], stdin=subprocess.PIPE)
            elif c == "dotnet-counters":
                watcher = spawn([avail["dotnet_counters"], "monitor", "-p", str(t.pid), "--refresh-interval", "1"])
            collect_lines(t, warm, r"ops_per_s (\d+)")
            c0 = proc_cpu_ns(watcher.pid) if watcher else 0
            v = collect_lines(t, secs, r"ops_per_s (\d+)")
            info = {}
            if watcher:
                info["watcher_cpu_share"] = (proc_cpu_ns(watcher.pid) - c0) / 1e9 / secs
                kill(watcher, signal.SIGINT, 5)
            kill(t)
            raw[c].append(v)
            infos[c].append(info)
    out = summarize_target(raw, infos)
    if not avail["dotnet_collector"]:
        out["gctop session"] = {"unavailable": "the .NET collector is not in this build"}
    target_table("2b. C# AllocLoop throughput (%d rounds of %d s after %d s warm-up)" % (rounds, secs, warm), out)
    res["target_dotnet"] = out
