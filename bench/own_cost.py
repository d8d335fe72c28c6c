"""1a-1d, what gctop costs itself beside the tools it stands in for: its
CPU and peak RSS against jstat, top and dotnet-counters (own), its start to
first output and first frame (startup), the bytes its full screen writes a
refresh (tui), and the picker and gctop -l beside idle JVMs (picker)."""
import subprocess
import time

from harness import (GCTOP, LOOP_JVM, RUN, log, spawn, kill, kill_many, measured, wait_line, proc_cpu_ns, proc_status,
    java_target, hsperf_ready, idle_jvm, dotnet_target, grow_idle_jvms)
from report import med, spread, fmt, table
from tmux_pane import tmux, Pane


def own_cost(avail, res):
    """CPU and peak RSS of gctop, jstat, top (JVM target) and gctop,
    dotnet-counters, top (.NET target) for N samples at 0.25 s and 1 s,
    interleaved, with a 1-sample run for each to split off start-up."""
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    plans = [(0.25, 8 if RUN.quick else 40), (1.0, 4 if RUN.quick else 10)]

    def tools_jvm(pid, d, n):
        ms = int(d * 1000)
        return {
            "gctop": [GCTOP, "-p", str(pid), "--json", "-d", str(d), "-n", str(n)],
            "jstat": ["jstat", "-gcutil", str(pid), str(ms), str(n)],
            "top": ["top", "-b", "-p", str(pid), "-d", str(d), "-n", str(n)],
        }

    def tools_dotnet(pid, d, n):
        t = {"top": ["top", "-b", "-p", str(pid), "-d", str(d), "-n", str(n)]}
        if avail["dotnet_collector"]:
            t["gctop"] = [GCTOP, "-p", str(pid), "--json", "-d", str(d), "-n", str(n)]
        if avail["dotnet_counters"] and d == int(d):
            # No sample count: it runs for a duration (whole seconds).
            t["dotnet-counters"] = [avail["dotnet_counters"], "monitor", "-p", str(pid), "--refresh-interval",
                                    str(int(d)), "--duration", "00:00:00:%02d" % (n * int(d))]
        return t

    targets = [("jvm", lambda: java_target("AllocLoop", [3600, 50], LOOP_JVM), tools_jvm)]
    if avail["dotnet"]:
        targets.append(("dotnet", lambda: dotnet_target(["gc", 20, 3600]), tools_dotnet))
    out = {}
    for tname, start, tools in targets:
        log("own cost: %s target" % tname)
        t = start()
        if tname == "jvm":
            hsperf_ready(t.pid)
        time.sleep(3)
        raw = {}
        for r in range(rounds):
            for d, n in plans:
                for nn in (1, n):
                    for name, argv in tools(t.pid, d, nn).items():
                        cpu, rss, wall, rc = measured(argv)
                        raw.setdefault((name, d, nn), []).append({"cpu_s": cpu, "maxrss_kib": rss, "wall_s": wall, "rc": rc})
        kill(t)
        rows = []
        for d, n in plans:
            names = sorted({k[0] for k in raw if k[1] == d}, key=lambda x: ["gctop", "jstat", "dotnet-counters", "top"].index(x))
            for name in names:
                full = raw.get((name, d, n), [])
                one = raw.get((name, d, 1), [])
                cpu_n = med([x["cpu_s"] for x in full])
                cpu_1 = med([x["cpu_s"] for x in one])
                rss = med([x["maxrss_kib"] for x in full])
                per = (cpu_n - cpu_1) / (n - 1) if cpu_n is not None and cpu_1 is not None else None
                rcs = sorted({x["rc"] for x in full})
                rows.append({"tool": name, "interval_s": d, "samples": n, "cpu_s": cpu_n, "cpu_s_spread": spread([x["cpu_s"] for x in full]),
                             "cpu_start_s": cpu_1, "cpu_per_refresh_ms": per * 1000 if per is not None else None,
                             "maxrss_kib": rss, "rc": rcs})
        if tname == "jvm":
            for d, n in plans:
                g = next((x for x in rows if x["tool"] == "gctop" and x["interval_s"] == d), None)
                j = next((x for x in rows if x["tool"] == "jstat" and x["interval_s"] == d), None)
                if g and j and g["cpu_s"] and g["maxrss_kib"]:
                    g["jstat_cpu_ratio"] = j["cpu_s"] / g["cpu_s"]
                    g["jstat_rss_ratio"] = j["maxrss_kib"] / g["maxrss_kib"]
        out[tname] = {"rows": rows, "raw": {"%s@%g/n=%d" % k: v for k, v in raw.items()}}
        table("1a. Own cost, %s target (median of %d rounds, interleaved)" % (tname, rounds),
              ["tool", "interval", "samples", "CPU total", "CPU start", "CPU/refresh", "peak RSS", "vs jstat CPU", "vs jstat RSS"],
              [[x["tool"], fmt(x["interval_s"], " s"), x["samples"], fmt(x["cpu_s"] * 1000 if x["cpu_s"] is not None else None, " ms"),
                fmt(x["cpu_start_s"] * 1000 if x["cpu_start_s"] is not None else None, " ms"),
                fmt(x["cpu_per_refresh_ms"], " ms"), fmt(x["maxrss_kib"] / 1024 if x["maxrss_kib"] else None, " MiB"),
                fmt(x.get("jstat_cpu_ratio"), "x"), fmt(x.get("jstat_rss_ratio"), "x")] for x in rows])
        if tname == "dotnet" and avail["dotnet_counters"]:
            print("  (dotnet-counters takes whole seconds only: no 0.25 s row; it runs for a duration, not a count)")
    res["own_cost"] = out


def startup(avail, res):
    """Start to first output (batch/JSON) and to first frame (TUI in tmux)."""
    reps = 3 if RUN.quick else 10
    t = java_target("AllocLoop", [3600, 50], LOOP_JVM)
    hsperf_ready(t.pid)
    time.sleep(2)
    pid = str(t.pid)
    first_out = {
        "gctop --json -n 1": ([GCTOP, "-p", pid, "--json", "-n", "1"], None),
        "jstat -gcutil": (["jstat", "-gcutil", pid, "1000", "1"], r"^\s*[0-9.-]+\s"),
        "top -b -n 1": (["top", "-b", "-p", pid, "-n", "1"], r"^\s*%s\s" % pid),
    }
    raw = {}
    for r in range(reps):
        for name, (argv, pattern) in first_out.items():
            t0 = time.monotonic()
            p = spawn(argv, stdout=subprocess.PIPE, text=True, bufsize=1)
            line = wait_line(p, pattern, 20)
            dt = time.monotonic() - t0 if line else None
            kill(p)
            raw.setdefault(name, []).append(dt)
        for name, argv in (("gctop (TUI)", [GCTOP, "-p", pid]), ("top (TUI)", ["top", "-p", pid])):
            pane = Pane(argv)
            fb, ff = pane.go()
            pane.close()
            raw.setdefault(name + " first byte", []).append(fb)
            raw.setdefault(name + " first frame", []).append(ff)
    kill(t)
    rows = [[k, fmt(med(v) * 1000 if med(v) is not None else None, " ms"),
             "%s-%s" % tuple(fmt(x * 1000 if x is not None else None) for x in spread(v))] for k, v in raw.items()]
    table("1b. Start to first output / frame (median of %d, ms; min-max)" % reps, ["what", "median", "spread"], rows)
    print("  (first frame: the first tmux capture-pane with content; polling it costs ~1-3 ms per try)")
    res["startup"] = {k: {"median_s": med(v), "spread_s": spread(v), "raw_s": v} for k, v in raw.items()}


def tui_bytes(avail, res):
    """Bytes the TUI writes to the terminal per refresh with an idle JVM, and
    its CPU per refresh and peak RSS meanwhile."""
    secs = 8 if RUN.quick else 30
    t = idle_jvm()
    out = {}
    for name, argv, d in (("gctop -d 1", [GCTOP, "-p", str(t.pid), "-d", "1"], 1.0),
                          ("gctop -d 0.25", [GCTOP, "-p", str(t.pid), "-d", "0.25"], 0.25),
                          ("top -d 1", ["top", "-p", str(t.pid), "-d", "1"], 1.0)):
        pane = Pane(argv)
        pane.go()
        time.sleep(3)
        b0, c0 = pane.bytes(), proc_cpu_ns(pane.pid)
        time.sleep(secs)
        b1, c1 = pane.bytes(), proc_cpu_ns(pane.pid)
        hwm = proc_status(pane.pid, "VmHWM")
        pane.close()
        refreshes = secs / d
        out[name] = {"seconds": secs, "interval_s": d, "bytes": b1 - b0, "bytes_per_refresh": (b1 - b0) / refreshes,
                     "cpu_ms_per_refresh": (c1 - c0) / 1e6 / refreshes, "cpu_share": (c1 - c0) / 1e9 / secs,
                     "peak_rss_kib": hwm}
    kill(t)
    table("1c. TUI in tmux (160x48), idle JVM, over %d s" % secs,
          ["program", "bytes/refresh", "CPU/refresh", "CPU share", "peak RSS"],
          [[k, fmt(v["bytes_per_refresh"], " B"), fmt(v["cpu_ms_per_refresh"], " ms"), fmt(v["cpu_share"] * 100, " %"),
            fmt(v["peak_rss_kib"] / 1024 if v["peak_rss_kib"] else None, " MiB")] for k, v in out.items()])
    res["tui"] = out


def picker(avail, res):
    """CPU of the picker (gctop without -p) and of gctop -l with 50 and 200
    small idle JVMs. The JVMs are started 10 at a time and all killed at the
    end (also on interrupt)."""
    counts = [10, 50] if RUN.quick else [50, 200]
    secs = 8 if RUN.quick else 20
    jvms = []
    out = {}
    try:
        for count in counts:
            log("picker: starting idle JVMs up to %d" % count)
            grow_idle_jvms(jvms, count)
            time.sleep(3)
            rss = med([proc_status(p.pid, "VmRSS") for p in jvms[:20]])
            pane = Pane([GCTOP, "-d", "1"])
            fb, ff = pane.go()
            time.sleep(3)
            c0 = proc_cpu_ns(pane.pid)
            time.sleep(secs)
            c1 = proc_cpu_ns(pane.pid)
            hwm = proc_status(pane.pid, "VmHWM")
            screen = tmux("capture-pane", "-p", "-t", pane.name, check=False)
            pane.close()
            lst = [measured([GCTOP, "-l", "--json"]) for _ in range(1 if RUN.quick else 3)]
            jps = [measured(["jps", "-l"]) for _ in range(1 if RUN.quick else 3)]
            out[count] = {"jvms": count, "jvm_rss_kib_median": rss, "first_byte_s": fb, "first_frame_s": ff,
                          "cpu_ms_per_s": (c1 - c0) / 1e6 / secs, "peak_rss_kib": hwm,
                          "list_cpu_s": med([x[0] for x in lst]), "list_rss_kib": med([x[1] for x in lst]),
                          "list_wall_s": med([x[2] for x in lst]),
                          "jps_cpu_s": med([x[0] for x in jps]), "jps_rss_kib": med([x[1] for x in jps]),
                          "screen_head": screen.splitlines()[:6]}
    finally:
        log("picker: stopping %d idle JVMs" % len(jvms))
        kill_many(jvms)
    table("1d. Picker (gctop without -p, -d 1, in tmux) and gctop -l, with N idle JVMs",
          ["JVMs", "picker CPU/s", "picker peak RSS", "first frame", "gctop -l CPU", "gctop -l wall", "jps -l CPU"],
          [[k, fmt(v["cpu_ms_per_s"], " ms"), fmt(v["peak_rss_kib"] / 1024 if v["peak_rss_kib"] else None, " MiB"),
            fmt(v["first_frame_s"] * 1000 if v["first_frame_s"] else None, " ms"), fmt(v["list_cpu_s"] * 1000, " ms"),
            fmt(v["list_wall_s"] * 1000, " ms"), fmt(v["jps_cpu_s"] * 1000, " ms")] for k, v in out.items()])
    res["picker"] = out
