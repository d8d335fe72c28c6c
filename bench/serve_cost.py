"""1f-1h, gctop --serve: its CPU, memory and scrape time with N idle JVMs
and .NET processes (serve), its scrapes and quit times with hostile
connections held (serve-hostile), and what --ops-agent costs an idle JVM
(ops-agent)."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

from harness import (ROOT, GCTOP, RUN, log, spawn, kill, kill_many, proc_cpu_ns, proc_status, idle_jvm, dotnet_target,
    grow_idle_jvms)
from report import med, spread, fmt, table


# serve: another gctop measured against the same processes (before/after)
SERVE_BASELINE = os.environ.get("GCTOP_SERVE_BASELINE")


def scrape(port):
    """One Prometheus-like scrape of gctop --serve: (seconds, bytes, processes)."""
    req = urllib.request.Request("http://127.0.0.1:%d/metrics" % port,
                                 headers={"Accept": "application/openmetrics-text;version=1.0.0"})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=5) as r:
        body = r.read()
    return time.monotonic() - t0, len(body), body.count(b"\ngctop_target_info{")


def serve_measure(binary, pids, expected, secs):
    """One gctop --serve run over pids, scraped every second for secs once
    every process is served: its figures, or None when it did not start."""
    g = spawn([binary, "--serve", "127.0.0.1:0", "-p", pids, "-d", "1"], stderr=subprocess.PIPE, text=True)
    m = re.search(r":(\d+)/metrics", g.stderr.readline() or "")
    if not m:
        log("serve: gctop --serve did not start")
        kill(g)
        return None
    port = int(m.group(1))
    seen, deadline = 0, time.monotonic() + 60
    while seen < expected and time.monotonic() < deadline:
        time.sleep(1)
        seen = scrape(port)[2]
    if seen < expected:
        log("serve: %d of %d processes served after a minute" % (seen, expected))
    c0 = proc_cpu_ns(g.pid)
    took, size = [], []
    for _ in range(secs):
        t, n, seen = scrape(port)
        took.append(t)
        size.append(n)
        time.sleep(max(0.0, 1.0 - t))
    c1 = proc_cpu_ns(g.pid)
    hwm = proc_status(g.pid, "VmHWM")
    kill(g)
    return {"served": seen, "cpu_ms_per_s": (c1 - c0) / 1e6 / secs, "peak_rss_kib": hwm,
            "scrape_ms_median": med(took) * 1000, "scrape_bytes": med(size)}


def serve(avail, res):
    """gctop --serve with N small idle JVMs and some .NET processes (one GC a
    second each, each read through its EventPipe session), scraped every
    second as Prometheus would: CPU per second, peak RSS, scrape time and
    size. gctop is given the bench's processes with -p, so that it leaves
    other people's .NET processes on the machine alone."""
    counts = [10, 50] if RUN.quick else [50, 200]
    n_dn = (2 if RUN.quick else 20) if avail["dotnet"] else 0
    secs = 8 if RUN.quick else 20
    jvms, dns, out = [], [], {}
    try:
        dns = [dotnet_target(["gc", 1, 1800]) for _ in range(n_dn)]
        for count in counts:
            log("serve: starting idle JVMs up to %d (and %d .NET processes)" % (count, n_dn))
            grow_idle_jvms(jvms, count)
            time.sleep(3)
            pids = ",".join(str(p.pid) for p in jvms + dns)
            r = serve_measure(GCTOP, pids, count + n_dn, secs)
            if r is None:
                break
            out[count] = dict(r, jvms=count, dotnet=n_dn)
            if SERVE_BASELINE:
                # another build against the very same processes and load
                b = serve_measure(SERVE_BASELINE, pids, count + n_dn, secs)
                if b:
                    out[count]["baseline"] = b
    finally:
        log("serve: stopping %d idle JVMs and %d .NET processes" % (len(jvms), len(dns)))
        kill_many(jvms + dns)
    table("1f. gctop --serve -d 1 with N idle JVMs and .NET processes, scraped every second (OpenMetrics)",
          ["JVMs", ".NET", "served", "CPU/s", "peak RSS", "scrape time", "scrape size"],
          [serve_row(k, v["dotnet"], v) for k, v in out.items()] +
          [serve_row("%s (baseline)" % k, v["dotnet"], v["baseline"]) for k, v in out.items() if "baseline" in v])
    res["serve"] = out


def serve_row(jvms, dotnet, v):
    return [jvms, dotnet, v["served"], fmt(v["cpu_ms_per_s"], " ms"),
            fmt(v["peak_rss_kib"] / 1024 if v["peak_rss_kib"] else None, " MiB"),
            fmt(v["scrape_ms_median"], " ms"), fmt(v["scrape_bytes"] / 1024, " KiB")]


# A platform MBean every JVM has: the agent's polling costs what it costs
# with a server's counter (one getAttribute a tick, summed).
OPS_AGENT_SPEC = "jmx:java.lang:type=ClassLoading:LoadedClassCount"


def serve_served(g, pid, timeout):
    """gctop --serve g's port, once it serves pid's gctop_requests_total
    (None after timeout); and the seconds that took from now."""
    m = re.search(r":(\d+)/metrics", g.stderr.readline() or "")
    if not m:
        return None, None
    port, t0, deadline = int(m.group(1)), time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % m.group(1), timeout=5) as r:
                if ('gctop_requests_total{pid="%d"' % pid).encode() in r.read():
                    return port, time.monotonic() - t0
        except OSError:
            pass
        time.sleep(0.05)
    return port, None


def ops_agent_round(secs):
    """Two idle JVMs, each served by a gctop --serve --ops jmx:: one without
    --ops-agent (nothing loaded: its operations are n/a), one with (the
    agent loaded for the counter alone). The load (attach to first answer:
    wall time and the target's CPU), then each JVM's and each gctop's CPU
    over secs."""
    procs = [idle_jvm(), idle_jvm()]
    a, b = procs
    try:
        base = [GCTOP, "--serve", "127.0.0.1:0", "-d", "1", "--ops", OPS_AGENT_SPEC]
        cb0, t0 = proc_cpu_ns(b.pid), time.monotonic()
        gp = spawn(base + ["-p", str(a.pid)], stderr=subprocess.PIPE, text=True)
        ga = spawn(base + ["-p", str(b.pid), "--ops-agent"], stderr=subprocess.PIPE, text=True)
        procs += [gp, ga]
        _, load_s = serve_served(ga, b.pid, 30)
        if load_s is None:
            log("ops-agent: the agent's counter was not served within 30 s")
            return None
        load = {"wall_s": time.monotonic() - t0, "target_cpu_ms": (proc_cpu_ns(b.pid) - cb0) / 1e6}
        time.sleep(2)
        pids = {"jvm_plain": a.pid, "jvm_agent": b.pid, "gctop_plain": gp.pid, "gctop_agent": ga.pid}
        c0 = {k: proc_cpu_ns(v) for k, v in pids.items()}
        time.sleep(secs)
        c1 = {k: proc_cpu_ns(v) for k, v in pids.items()}
        return dict(load=load, **{k: (c1[k] - c0[k]) / 1e6 / secs for k in pids})
    finally:
        kill_many(procs)


def ops_agent(avail, res):
    """--ops-agent's cost: an idle JVM with gctop's agent loaded for --ops
    jmx: alone beside one without, each served by its own gctop --serve -d 1,
    in one run (rounds interleave nothing: each round is both)."""
    secs = 10 if RUN.quick else 30
    rounds = [r for r in (ops_agent_round(secs) for _ in range(RUN.rounds or (1 if RUN.quick else 3))) if r]
    if not rounds:
        return
    rows = [["agent load (attach to first answer)", fmt(med([r["load"]["wall_s"] for r in rounds]), " s"),
             fmt(med([r["load"]["target_cpu_ms"] for r in rounds]), " ms"), ""]]
    for name, label in (("plain", "without --ops-agent"), ("agent", "with --ops-agent")):
        jv, gc = [r["jvm_" + name] for r in rounds], [r["gctop_" + name] for r in rounds]
        rows.append([label, "", "%s (%s-%s)" % ((fmt(med(jv), " ms/s"),) + tuple(fmt(x) for x in spread(jv))),
                     "%s (%s-%s)" % ((fmt(med(gc), " ms/s"),) + tuple(fmt(x) for x in spread(gc)))])
    table("1h. --serve --ops jmx: on an idle JVM, without and with --ops-agent (%d rounds, %d s each)"
          % (len(rounds), secs), ["", "wall", "JVM CPU", "gctop CPU"], rows)
    res["ops_agent"] = rounds


HOSTILE = os.path.join(ROOT, "tests", "integration", "serve_hostile.py")
# (kinds, connections): the slow clients, with silent ones, and its 1,000
HOSTILE_CONFIGS = [("slow", 100), ("mixed", 100), ("mixed", 1000)]


def hostile_run(binary, pid, kinds, conns, sig):
    """One tests/integration/serve_hostile.py run: its JSON, or None."""
    path = os.path.join(RUN.tmpdir, "hostile.json")
    if os.path.exists(path):
        os.unlink(path)
    p = spawn([sys.executable, HOSTILE, binary, str(pid), sig, "--kinds", kinds, "--conns", str(conns),
               "--json", path])
    try:
        p.wait(timeout=180)
    except subprocess.TimeoutExpired:
        log("serve-hostile: the client did not finish in 3 minutes")
    kill(p)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def serve_hostile(avail, res):
    """gctop --serve for one idle JVM while hostile clients hold connections
    from 127.0.0.10-13, each reopened at once when dropped: ten scrapes (five
    from 127.0.0.1, five from 127.0.0.10, each on a new connection, 2 s
    timeout), then SIGTERM or SIGINT (alternate rounds) 0.1 s after the
    clients' header lines; this build and GCTOP_SERVE_BASELINE interleaved."""
    builds = [("this build", GCTOP)] + ([("baseline", SERVE_BASELINE)] if SERVE_BASELINE else [])
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    out = {}
    jvm = idle_jvm()
    try:
        time.sleep(1.5)  # --serve opens a JVM once it is a second old
        for r in range(rounds):
            for kinds, conns in HOSTILE_CONFIGS:
                for name, binary in builds:
                    log("serve-hostile: round %d, %d %s clients, %s" % (r + 1, conns, kinds, name))
                    x = hostile_run(binary, jvm.pid, kinds, conns, "TERM" if r % 2 == 0 else "INT")
                    if x and "scrapes" in x:
                        out.setdefault("%d %s" % (conns, kinds), {}).setdefault(name, []).append(x)
    finally:
        kill(jvm)
    table("1g. gctop --serve with hostile connections held (%d rounds; scrape and quit times CLOCK_MONOTONIC)" % rounds,
          ["clients", "build", "scrapes answered", "scrape median", "scrape max", "quit median", "quit max",
           "CPU/s"],
          [hostile_row(k, name, runs) for k, v in out.items() for name, runs in v.items()])
    res["serve_hostile"] = out


def hostile_row(config, name, runs):
    scrapes = [s for x in runs for s in x["scrapes"]]
    ok = [s["ms"] for s in scrapes if s["ok"]]
    quits = [x["quit_ms"] for x in runs]
    cpu = [x["cpu_ms_per_s"] for x in runs if x.get("cpu_ms_per_s") is not None]
    return [config, name, "%d of %d" % (len(ok), len(scrapes)), fmt(med(ok) if ok else None, " ms"),
            fmt(max(s["ms"] for s in scrapes), " ms") + ("" if len(ok) == len(scrapes) else " (timed out)"),
            fmt(med(quits), " ms"), "over 10 s" if None in quits else fmt(max(quits), " ms"),
            fmt(med(cpu), " ms")]
