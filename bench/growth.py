"""3a-3c, how gctop's cost grows: with the distinct allocation sites of a
crafted segment (sites), and with a .NET target's GC event rate, replayed
from a recorded stream and live (events)."""
import json
import os
import re
import subprocess

from harness import (GCTOP, SEGPUB, REPLAY, RUSAGE, NETTRACE, RUN, children, log, spawn, kill, measured, read_rusage,
    wait_line, idle_jvm, dotnet_target, last_allocators)
from report import med, fmt, table


def sites(avail, res):
    """gctop --allocators against N distinct sites in a crafted segment, with
    tables the size of the agent's (1024 frames, 512 types: the rest is
    counted as dropped) and with tables sized to hold them (up to 65536)."""
    counts = [10, 1000, 100000] if RUN.quick else [10, 100, 1000, 10000, 50000, 100000]
    reps = 1 if RUN.quick else 2
    n = 11 if RUN.quick else 21
    d = 0.25
    t = idle_jvm()
    out = {}
    for series, slots_args in (("agent tables", ["1024", "512"]), ("large tables", [])):
        for count in counts:
            pub = spawn([SEGPUB, str(t.pid), str(count), "20000", "600"] + slots_args, stdout=subprocess.PIPE,
                        text=True, bufsize=1)
            ready = wait_line(pub, "^ready", 120)
            if not ready:
                log("sites: segpub did not start for %d sites" % count)
                kill(pub)
                continue
            fslots, tslots, stored_f, stored_t = [int(x) for x in ready.split()[1:5]]
            full, one = [], []
            jpath = os.path.join(RUN.tmpdir, "sites.json")
            for _ in range(reps):
                one.append(measured([GCTOP, "-p", str(t.pid), "--allocators", "--json", "-n", "1"]))
                with open(jpath, "w") as f:
                    full.append(measured([GCTOP, "-p", str(t.pid), "--allocators", "--json", "-d", str(d), "-n", str(n)],
                                         stdout=f))
            state = last_allocators(jpath).get("sampler_state")
            kill(pub)
            cpu_n, cpu_1 = med([x[0] for x in full]), med([x[0] for x in one])
            out["%s/%d" % (series, count)] = {
                "series": series, "sites": count, "frame_slots": fslots, "type_slots": tslots,
                "stored_frames": stored_f, "stored_types": stored_t,
                "segment_bytes": 1024 + (fslots + tslots) * 256, "samples": n, "interval_s": d,
                "cpu_s": cpu_n, "cpu_start_s": cpu_1,
                "cpu_per_refresh_ms": (cpu_n - cpu_1) / (n - 1) * 1000 if cpu_n is not None and cpu_1 is not None else None,
                "peak_rss_kib": max(x[1] or 0 for x in full), "sampler_state": state, "rc": sorted({x[3] for x in full})}
    kill(t)
    table("3a. gctop --allocators --json -d %g -n %d against distinct sites (crafted segment, median of %d)" % (d, n, reps),
          ["tables", "sites", "slots (frame+type)", "stored", "segment", "CPU/refresh", "CPU start", "peak RSS", "state"],
          [[v["series"], v["sites"], v["frame_slots"] + v["type_slots"], v["stored_frames"] + v["stored_types"],
            fmt(v["segment_bytes"] / 1048576, " MiB"), fmt(v["cpu_per_refresh_ms"], " ms"),
            fmt(v["cpu_start_s"] * 1000 if v["cpu_start_s"] is not None else None, " ms"),
            fmt(v["peak_rss_kib"] / 1024, " MiB"), v["sampler_state"]] for v in out.values()])
    print("  (sites that find no slot are counted as dropped; peak RSS includes the segment's pages gctop maps)")
    res["sites"] = out


def events(avail, res):
    out = {"replay": None, "live": {}}
    if os.path.exists(REPLAY) and os.path.exists(NETTRACE):
        r = subprocess.run([REPLAY, NETTRACE, "1" if RUN.quick else "3"], stdout=subprocess.PIPE, text=True)
        try:
            out["replay"] = json.loads(r.stdout)
        except ValueError:
            pass
    if out["replay"]:
        ns = out["replay"]["ns_per_event"]
        table("3b. gctop's EventPipe path replaying a recorded stream (no runtime): parser + GC-event handlers",
              ["ns/event", "events per CPU second", "CPU share at 200k events/s"],
              [[fmt(ns), fmt(out["replay"]["events_per_cpu_s"]), fmt(ns * 200000 / 1e9 * 100, " %")]])
    if not (avail["dotnet"] and avail["dotnet_collector"]):
        print("\n3c. gctop against a .NET target's event rate: not available (%s)" % "; ".join(avail["notes"]))
        res["events"] = out
        return
    # Events per induced GC: counted in-process at a low rate.
    t = dotnet_target(["gc", 300, 8, "count"])
    pairs = []
    for line in iter(t.stdout.readline, ""):
        m = re.search(r"gcs_per_s (\d+) events_per_s (\d+)", line)
        if m and int(m.group(1)):
            pairs.append(int(m.group(2)) / int(m.group(1)))
    kill(t)
    epg = med(pairs[1:-1] or pairs) or 7.0
    out["events_per_gc"] = epg
    rates = [1000, 10000, 50000] if RUN.quick else [1000, 5000, 10000, 20000, 50000, 200000]
    n = 6 if RUN.quick else 16
    for rate in rates:
        gcs = rate / epg
        t = dotnet_target(["gc", "%.1f" % gcs, 3600])
        wait_line(t, "gcs_per_s", 20)
        jpath = os.path.join(RUN.tmpdir, "events.json")
        achieved = []
        ru_path = os.path.join(RUN.tmpdir, "events.rusage")
        with open(jpath, "w") as f:
            g = spawn([RUSAGE, ru_path, GCTOP, "-p", str(t.pid), "--json", "-d", "1", "-n", str(n)], stdout=f)
            while g.poll() is None:
                line = t.stdout.readline()
                m = re.search(r"gcs_per_s (\d+)", line)
                if m:
                    achieved.append(int(m.group(1)))
            children.remove(g)
        cpu, rss = read_rusage(ru_path)
        kill(t)
        dropped = None
        try:
            with open(jpath) as f:
                lines = [l for l in f if l.startswith("{")]
            dropped = json.loads(lines[-1]).get("dropped_events")
        except (ValueError, IndexError):
            pass
        ach = med(achieved[1:-1] or achieved)
        out["live"][rate] = {"wanted_events_per_s": rate, "gcs_per_s_wanted": gcs, "gcs_per_s_achieved": ach,
                             "events_per_s_achieved": ach * epg if ach else None,
                             "cpu_s": cpu, "samples": n, "cpu_ms_per_s": cpu * 1000 / n if cpu is not None else None,
                             "peak_rss_kib": rss, "dropped_events": dropped, "rc": g.returncode}
    table("3c. gctop --json -d 1 -n %d against a .NET target's GC event rate (induced gen0 GCs, %.1f events each)" % (n, epg),
          ["wanted ev/s", "achieved ev/s", "GCs/s", "gctop CPU/s", "peak RSS", "dropped", "gctop exit"],
          [[k, fmt(v["events_per_s_achieved"]), fmt(v["gcs_per_s_achieved"]), fmt(v["cpu_ms_per_s"], " ms"),
            fmt(v["peak_rss_kib"] / 1024 if v["peak_rss_kib"] else None, " MiB"), fmt(v["dropped_events"]),
            v["rc"]] for k, v in out["live"].items()])
    print("  (a rate above what one runtime on this machine can induce shows as a lower achieved rate; with a\n"
          "   session on, the runtime itself slows the induced GCs. A non-zero exit: gctop could not attach, e.g.\n"
          "   a runtime doing back-to-back GCs does not answer its diagnostics socket in time)")
    res["events"] = out
