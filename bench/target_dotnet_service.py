"""2d, a multi-threaded, allocation-heavy .NET service (bench/dotnet/Service)
alone, with gctop --allocators, with gctop's session alone and with
dotnet-trace on the keywords gctop enables (target-dotnet-service)."""
import fcntl
import os
import re
import signal
import statistics
import subprocess
import time

from block_ratios import upper_quartile, block_ratio, blocks_summary
from harness import ROOT, B, GCTOP, WORK, RUN, log, spawn, kill, proc_cpu_ns, loadavg, last_allocators
from report import med, spread, fmt, table


SVC_OUT = os.path.join(WORK, "dotnet", "Service")
SVC_BIN = os.path.join(SVC_OUT, "Service")
SVC_THREADS = 4
# What gctop --allocators enables on .NET 10: the runtime provider's GC, JIT
# and AllocationSampling keywords at Verbose, with stacks (dotnet.c,
# start_session); dotnet-trace walks stacks by default.
SVC_TRACE_PROVIDERS = "Microsoft-Windows-DotNETRuntime:0x80000000011:5"
SVC_CONFIGS = ["alone", "gctop --allocators", "gctop session", "dotnet-trace alloc"]
# GCTOP_SVC_BASE=/path/to/another/gctop: also its --allocators, in the same rounds
SVC_BASE = os.environ.get("GCTOP_SVC_BASE")
# GCTOP_SVC_EP="KEYWORDS:LEVEL[:stacks][:cycleON_MS/PERIOD_MS],...": also bare
# EventPipe sessions (bench/epsession) on the runtime provider, rows
# "epsession KEYWORDS:LEVEL...", to tell which part of a configuration the
# runtime pays for; cycle: a new session on for ON_MS of every PERIOD_MS, as
# gctop's duty-cycled sampler opens them
SVC_EP = ["epsession " + x for x in (os.environ.get("GCTOP_SVC_EP") or "").split(",") if x]
# GCTOP_SVC_SHAPE=steady: the Service without its large buffers and with
# DATAS off, as Server GC ran before .NET 9: no gen2 collections and a
# tenth of the field shape's pause time (its 30 gen2 collections a second
# come from the large object heap's budget under DATAS). Its rounds vary
# as much as the field shape's (bench/README.md, 2d): what varies is the
# machine, not the GC
SVC_SHAPE = os.environ.get("GCTOP_SVC_SHAPE") or "field"
SVC_SHAPES = {"field": ([], {}), "steady": (["0"], {"DOTNET_GCDynamicAdaptationMode": "0"})}
EPSESSION = os.path.join(B, "bench", "epsession")


def heavy_lock():
    """GCTOP_BENCH_LOCK=PATH: the measuring parts hold flock(PATH) one round
    at a time, so that a long run shares a machine with other measuring work
    (which takes the same lock) without either disturbing the other."""
    path = os.environ.get("GCTOP_BENCH_LOCK")
    if not path:
        return None
    f = open(path, "a")
    t0 = time.monotonic()
    fcntl.flock(f, fcntl.LOCK_EX)
    if time.monotonic() - t0 > 1:
        log("bench: waited %.0f s for %s" % (time.monotonic() - t0, path))
    return f


def heavy_unlock(f):
    if f:
        fcntl.flock(f, fcntl.LOCK_UN)
        f.close()
        # flock is not first come, first served: without a pause the next
        # round would take the lock again before the work waiting for it
        time.sleep(2)


def service_build():
    env = dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1", DOTNET_NOLOGO="1")
    r = subprocess.run(["dotnet", "build", "-c", "Release", "-o", SVC_OUT, os.path.join(ROOT, "bench", "dotnet", "Service")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    # the build leaves its servers (MSBuild nodes, the compiler server)
    # running and busy for a while: they would take CPU from the first round
    subprocess.run(["dotnet", "build-server", "shutdown"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return None if r.returncode == 0 and os.path.exists(SVC_BIN) else r.stdout[-2000:]


# a configuration "A + B" runs B beside A (A's process is the watcher whose
# CPU is counted): B by A's pid
svc_companions = {}


def service_watcher(name, pid, avail, out_name="svc-watch.out"):
    """The watching process of a configuration and its output file."""
    out = os.path.join(RUN.tmpdir, out_name)
    if " + " in name:
        first, second = name.split(" + ", 1)
        w, out = service_watcher(first, pid, avail)
        svc_companions[w.pid] = service_watcher(second, pid, avail, "svc-companion.out")[0]
        return w, out
    if name.startswith("epsession "):
        kw, level, *more = name.split()[1].split(":")
        cycle = [m[len("cycle"):] for m in more if m.startswith("cycle")]
        return spawn([EPSESSION] + (["-c", cycle[0]] if cycle else []) +
                     [str(pid), kw, level, "1" if "stacks" in more else "0", "3600"], stdout=open(out, "w")), out
    argv = {"gctop --allocators": [GCTOP, "-p", str(pid), "--allocators", "--json", "-d", "1"],
            "base --allocators": [SVC_BASE, "-p", str(pid), "--allocators", "--json", "-d", "1"],
            "gctop session": [GCTOP, "-p", str(pid), "--json", "-d", "1"],
            "dotnet-trace alloc": [avail["dotnet_trace"] or "dotnet-trace", "collect", "-p", str(pid),
                                   "--providers", SVC_TRACE_PROVIDERS, "-o", os.path.join(RUN.tmpdir, "svc.nettrace")]}[name]
    return spawn(argv, stdout=open(out, "w"), stdin=subprocess.PIPE), out


def machine_busy_s():
    """CPU seconds the whole machine has been busy (all cores)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


# A block is quiet when the rest of the machine took at most this share of
# a core (the watcher's own CPU is not counted as other work)
SVC_QUIET = 0.05
SVC_FIELDS = ("rps", "alloc_mb_s", "gc0", "gc1", "gc2", "heaps", "pause_ms", "gen0_mb", "heap_mb", "committed_mb")


def svc_lines(t, secs):
    """The Service's per-second lines for secs seconds, as dicts."""
    out = []
    deadline = time.monotonic() + secs
    while time.monotonic() < deadline:
        line = t.stdout.readline()
        if not line:
            break
        if line.startswith("rps "):
            out.append({k: float(v) for k, v in re.findall(r"(\w+) (\d+)", line) if k in SVC_FIELDS})
    return out


def svc_block(t, secs, watcher=None):
    """secs seconds of the Service (its first, partial, line dropped): the
    per-second requests and what went with them: the target's CPU, the
    watcher's, the rest of the machine's (other helpers' work: a block with
    some is disturbed) and the GC's own figures per second."""
    c0, b0, w0 = proc_cpu_ns(t.pid), machine_busy_s(), proc_cpu_ns(watcher.pid) if watcher else 0
    t0 = time.monotonic()
    lines = svc_lines(t, secs + 1)[1:]
    span = time.monotonic() - t0
    tcpu = (proc_cpu_ns(t.pid) - c0) / 1e9
    wcpu = (proc_cpu_ns(watcher.pid) - w0) / 1e9 if watcher else 0
    info = {"target_cpu": tcpu / span, "other_cpu": (machine_busy_s() - b0 - tcpu - wcpu) / span,
            "requests_per_cpu_s": sum(x["rps"] for x in lines) / tcpu if tcpu > 0 and lines else None}
    for k in SVC_FIELDS[1:]:
        info[k] = med([x.get(k) for x in lines])
    info["gcs"] = med([x.get("gc0", 0) + x.get("gc1", 0) + x.get("gc2", 0) for x in lines])
    if watcher:
        info["watcher_cpu_share"] = wcpu / span
    return [x["rps"] for x in lines], info


def svc_stop(name, watcher, out, t):
    """Stops a configuration's watcher (gctop ends its sessions, dotnet-trace
    writes its rundown) and returns what it said."""
    kill(watcher, signal.SIGINT, 10)
    kill(svc_companions.pop(watcher.pid, None), signal.SIGINT, 10)
    info = {}
    if name.endswith("--allocators"):
        info.update(last_allocators(out))
    if name == "dotnet-trace alloc":
        path = os.path.join(RUN.tmpdir, "svc.nettrace")
        info["trace_mib"] = os.path.getsize(path) / 1048576 if os.path.exists(path) else None
        if os.path.exists(path):
            os.unlink(path)
    return info


def svc_round(configs, warm, secs, avail):
    """One Service process: warm-up, then alone, and each config followed by
    alone again (as mt_round for the JVM), so that a config is compared
    with the same process just before and after it. Returns blocks as
    blocks_summary takes them: (config, per-second requests, target CPU, info)."""
    args, env = SVC_SHAPES[SVC_SHAPE]
    t = spawn([SVC_BIN, str(SVC_THREADS), "3600"] + args, stdout=subprocess.PIPE, text=True, bufsize=1,
              env=dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1", **env))
    svc_lines(t, warm)

    def block(name, watcher=None):
        v, info = svc_block(t, secs, watcher)
        return (name, v, info["target_cpu"], info)
    blocks = [block("alone")]
    for c in configs:
        watcher, out = service_watcher(c, t.pid, avail)
        # attach, rundown, gctop's first sampling second (or dotnet-trace's
        # own start-up, a .NET program): not measured
        svc_lines(t, 5 if c.startswith("dotnet-trace") else 3)
        b = block(c, watcher)
        b[3].update(svc_stop(c, watcher, out, t))
        blocks.append(b)
        svc_lines(t, 3)
        blocks.append(block("alone"))
    kill(t)
    return blocks


def svc_known(config):
    """Whether every part of a configuration ("A" or "A + B") is one
    service_watcher starts: a misspelled part is left out at the start, with
    a word, not at its first round."""
    parts = config.split(" + ")
    ok = parts[0] in SVC_CONFIGS[1:] and all(p in SVC_CONFIGS[1:] or p.startswith("epsession ") for p in parts[1:])
    if not ok:
        print("2d: configuration %r left out: not one of %s (or epsession ... after +)" % (config, SVC_CONFIGS[1:]))
    return ok


def target_dotnet_service(avail, res):
    """2d: a multi-threaded, allocation-heavy .NET target (bench/dotnet/Service,
    4 threads, ~2 GB/s) alone, with gctop --allocators, with gctop's session
    alone and with dotnet-trace on the keywords gctop --allocators enabled
    before its sampler, in blocks of one process per round (svc_round)."""
    if not avail["dotnet"]:
        print("\n2d. C# Service: skipped (%s)" % "; ".join(avail["notes"]))
        res["target_dotnet_service"] = {"skipped": avail["notes"]}
        return
    err = service_build()
    if err:
        print("\n2d. C# Service: did not build\n" + err)
        res["target_dotnet_service"] = {"skipped": ["did not build"]}
        return
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    # the first 3-4 s run at a fraction of the speed (tier-0 code, the GC's
    # first budgets); 12 s leave a margin as on the JVM
    warm, secs = (6, 4) if RUN.quick else (12, 10)
    # GCTOP_SVC_CONFIGS=none: only the epsession rows (GCTOP_SVC_EP) and
    # base; GCTOP_SVC_CONFIGS="gctop --allocators,gctop session": those
    chosen = os.environ.get("GCTOP_SVC_CONFIGS")
    listed = [] if chosen == "none" else [c for c in chosen.split(",") if svc_known(c)] \
        if chosen else SVC_CONFIGS[1:]
    configs = [c for c in listed + (["base --allocators"] if SVC_BASE else []) + SVC_EP
               if (avail["dotnet_collector"] or not c.startswith("gctop"))
               and (avail["dotnet_trace"] or not c.startswith("dotnet-trace"))]
    load, raw = [loadavg()[0]], []
    for r in range(rounds):
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        lock = heavy_lock()
        log("target dotnet service: round %d/%d, %s" % (r + 1, rounds, ", ".join(order)))
        try:
            raw.append(svc_round(order, warm, secs, avail))
        finally:
            heavy_unlock(lock)
    load.append(loadavg()[0])
    out = blocks_summary(raw, configs)
    svc_summary(out, raw, configs)
    out["_load_1min"] = load
    out["_raw"] = raw
    svc_table(out, configs, rounds, warm, secs, load)
    out["_shape"] = SVC_SHAPE
    res["target_dotnet_service"] = out


def svc_summary(out, raw, configs):
    """What blocks_summary leaves out: per CPU second of the target, the GC's
    figures, the rest of the machine's CPU, trace sizes."""
    for c in ["alone"] + configs:
        infos = [b[3] for blocks in raw for b in blocks if b[0] == c]
        o = out[c]
        for k in ("alloc_mb_s", "gcs", "gc2", "pause_ms", "gen0_mb", "heaps", "other_cpu", "trace_mib"):
            o[k] = med([i.get(k) for i in infos])
        o["other_cpu_max"] = max([i.get("other_cpu") or 0 for i in infos] or [0])
    for c in configs:
        cr, quiet = [], []
        for blocks in raw:
            for i, b in enumerate(blocks):
                if b[0] != c:
                    continue
                three = [x[3] for x in blocks[i - 1:i + 2]]
                around = [three[0].get("requests_per_cpu_s"), three[2].get("requests_per_cpu_s")]
                if b[3].get("requests_per_cpu_s") and all(around):
                    cr.append(b[3]["requests_per_cpu_s"] / statistics.mean(around))
                # Server GC spins its threads in its joins: another process
                # on the two cores costs it more than the CPU it takes, so
                # the rounds in which no other work ran are counted apart
                if all((x.get("other_cpu") or 0) <= SVC_QUIET for x in three):
                    quiet.append(block_ratio(blocks, i, upper_quartile))
        out[c]["cpu_ratio"], out[c]["cpu_ratio_spread"], out[c]["cpu_ratios"] = med(cr), spread(cr), cr
        out[c]["quiet_ratios"] = quiet
        out[c]["quiet_ratio"] = med(quiet)


def svc_table(out, configs, rounds, warm, secs, load):
    def rng(lo_hi):
        return "%s-%s" % (fmt(lo_hi[0], "", 4), fmt(lo_hi[1], "", 4))
    rows = []
    for c in ["alone"] + configs:
        o = out[c]
        gc = "%s/s (gen2 %s), %s ms/s paused, heaps %s" % (fmt(o["gcs"]), fmt(o["gc2"]), fmt(o["pause_ms"]), fmt(o["heaps"]))
        note = o.get("note", "") + (", trace %s MiB" % fmt(o["trace_mib"]) if o.get("trace_mib") else "")
        note += ", other CPU %s%% (max %s%%)" % (fmt(o["other_cpu"] * 100), fmt(o["other_cpu_max"] * 100))
        if c == "alone":
            rows.append([c, fmt(o["median_ops_per_s"]), "1", "", "1", "", fmt(o["alloc_mb_s"], " MB/s"), gc, note])
            continue
        note += ", quiet rounds %d: %s" % (len(o["quiet_ratios"]), " ".join(fmt(x, "", 4) for x in o["quiet_ratios"]))
        rows.append([c, fmt(o["median_ops_per_s"]), fmt(o["ratio"], "", 4), rng(o["ratio_spread"]),
                     fmt(o["cpu_ratio"], "", 4), rng(o["cpu_ratio_spread"]), fmt(o["alloc_mb_s"], " MB/s"), gc, note])
    table("2d. C# Service, %s shape, %d threads (%d rounds, one process each: %d s warm-up, %d s blocks, each config "
          "between two alone blocks; upper quartile of per-second requests; load %.1f-%.1f)"
          % (SVC_SHAPE, SVC_THREADS, rounds, warm, secs, load[0], load[1]),
          ["config", "requests/s", "ratio to alone", "round ratios", "per target CPU s", "rounds", "allocated", "GC",
           "note"], rows)
