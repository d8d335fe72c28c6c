"""1j-1k, gctop --serve over a fleet: a thousand processes (fleet-scale)
and a thousand appearing and dying (churn).

fleet-scale: gctop --serve 127.0.0.1:0 without -p (every process it may
watch) over N = 50, 200, 500 and 1,000 processes, in one run: fake JVMs
(bench/fakejvm.c: a sleeping process named java that maps a libjvm.so and
publishes a real perf-data copy, ticking once a second), real idle JVMs and
real .NET processes. For each N, at -d 1 and at -d 15: gctop's CPU (from
/proc/PID/stat), peak RSS, scrape time, bytes and samples per scrape
(scraped every second as Prometheus does), and the time a new process
takes to appear in /metrics and a killed one to vanish. Where a goal is
missed at the largest N, a perf profile of gctop (10 s) and its top symbols.
It writes bench/fleet_scale.svg (CPU, RSS and scrape time against N).

churn: 1,000 fakes appearing and dying (one new every 10 ms, each living
2-20 s) for GCTOP_BENCH_CHURN_S seconds (default 600) beside gctop --serve
-d 1: its descriptors, threads and RSS every 10 s, and every scrape's time.
"""
import gzip
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import urllib.request

from harness import (ROOT, B, GCTOP, RUN, log, spawn, kill, kill_many, proc_status, proc_meminfo, java_target,
                     wait_line, hsperf_ready, dotnet_target)
from report import med, fmt, table

sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
from security_fake_jvm import entries  # noqa: E402 (the perf-data entry walker the tests use)

FAKE = os.path.join(B, "bench", "fakejvm", "java")
TEMPLATE = os.path.join(ROOT, "tests", "data", "hsperfdata", "jdk17-Serial.hsperfdata")
SVG = os.path.join(ROOT, "bench", "fleet_scale.svg")
# The small idle JVM of the issue: a 32 MiB heap, C1 only, the CDS archive.
FLEET_JVM = ["-Xmx32m", "-Xss256k", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
COUNTS = [50, 200, 500, 1000]
DELAYS = [1, 15]
# Real processes among N: (JVMs, .NET); fewer at 50 so that fakes are
# still among them.
REAL_MIX = {50: (20, 10), 200: (50, 20), 500: (50, 20), 1000: (50, 20)}
# What one real process is taken to need when checking free memory (MiB):
# an idle -Xmx32m JVM's RSS is 40-60 MiB, an idle .NET AllocLoop's 30-70.
JVM_MIB, DOTNET_MIB, FAKE_MIB = 80, 100, 1
# The goals at 1,000 processes.
GOAL_CPU_D1_MS, GOAL_CPU_D15_MS, GOAL_RSS_MIB, GOAL_SCRAPE_MS, GOAL_SEEN_S = 50.0, 5.0, 96.0, 50.0, 2.0
CHURN_S = int(os.environ.get("GCTOP_BENCH_CHURN_S", "600"))
CHURN_ALIVE, CHURN_EVERY_S, CHURN_LIFE_S = 1000, 0.010, (2.0, 20.0)
CHURN_SAMPLE_S, CHURN_SCRAPE_LIMIT_MS = 10, 200.0
LIFETIME_MS = 3600 * 1000  # a fleet fake ends by itself after an hour
TARGET_INFO = re.compile(rb'gctop_target_info\{[^}]*?pid="(\d+)"')
CLK_TCK = os.sysconf("SC_CLK_TCK")


class Fakes:
    """The fake JVMs' template (a real perf-data copy) and how to start one."""

    def __init__(self):
        b = bytearray(open(TEMPLATE, "rb").read())
        data = {name: off + data_off for off, name, _, _, data_off in entries(b)}
        freq = struct.unpack_from("<q", b, data["sun.os.hrt.frequency"])[0]
        self.lib = os.path.join(RUN.tmpdir, "fake", "libjvm.so")
        os.makedirs(os.path.dirname(self.lib), exist_ok=True)
        with open(self.lib, "wb") as f:
            f.write(b"\0" * 4096)
        self.args = [TEMPLATE, self.lib, str(data["sun.rt.createVmBeginTime"]), str(data["sun.os.hrt.ticks"]),
                     str(freq)]

    def argv(self, lifetime_ms):
        return [FAKE] + self.args + [str(int(lifetime_ms))]

    def start(self):
        return spawn(self.argv(LIFETIME_MS))


def perf_file(pid):
    user = "root" if os.geteuid() == 0 else os.environ.get("USER", "")
    return "/tmp/hsperfdata_%s/%d" % (user, pid)


def cpu_ms(pid):
    """utime+stime of pid (all its threads), ms, from /proc/PID/stat."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def fd_count(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def scrape(port, gz=False, timeout=10):
    """One Prometheus-like scrape: dict(ms, bytes on the wire, samples,
    pids served, encoding), or None when it failed."""
    headers = {"Accept": "application/openmetrics-text;version=1.0.0"}
    if gz:
        headers["Accept-Encoding"] = "gzip"
    req = urllib.request.Request("http://127.0.0.1:%d/metrics" % port, headers=headers)
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read()
            enc = r.headers.get("Content-Encoding")
    except OSError:
        return None
    ms = (time.monotonic() - t0) * 1000
    wire = len(body)
    if enc == "gzip":
        body = gzip.decompress(body)
    samples = sum(1 for line in body.split(b"\n") if line and not line.startswith(b"#"))
    return {"ms": ms, "bytes": wire, "samples": samples, "pids": set(int(p) for p in TARGET_INFO.findall(body)),
            "encoding": enc}


class Scraper(threading.Thread):
    """Scrapes every second (plain, then gzip when the server compresses)
    until stopped; keeps every result."""

    def __init__(self, port, gz):
        super().__init__(daemon=True)
        self.port, self.gz, self.stop = port, gz, threading.Event()
        self.plain, self.gzip, self.failed = [], [], 0

    def run(self):
        nxt = time.monotonic()
        while not self.stop.is_set():
            for gz, out in ((False, self.plain), (True, self.gzip)) if self.gz else ((False, self.plain),):
                s = scrape(self.port, gz)
                if s is None:
                    self.failed += 1
                else:
                    s["served"] = len(s.pop("pids"))
                    out.append(s)
            nxt += 1.0
            self.stop.wait(max(0.0, nxt - time.monotonic()))

    def end(self):
        self.stop.set()
        self.join(15)


def start_serve(d):
    g = spawn([GCTOP, "--serve", "127.0.0.1:0", "-d", str(d)], stderr=subprocess.PIPE, text=True)
    m = re.search(r":(\d+)/metrics", g.stderr.readline() or "")
    if not m:
        log("fleet-scale: gctop --serve did not start")
        kill(g)
        return None, None
    # Nothing reads gctop's stderr from here on: let it go nowhere rather
    # than fill a pipe.
    threading.Thread(target=lambda: [None for _ in g.stderr], daemon=True).start()
    return g, int(m.group(1))


def wait_served(port, want, timeout, absent=False):
    """Seconds until every pid of want is served (or, absent, none is);
    None after timeout. Polls every 50 ms."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        s = scrape(port)
        if s is not None:
            if (not absent and want <= s["pids"]) or (absent and not (want & s["pids"])):
                return time.monotonic() - t0
        time.sleep(0.05)
    return None


def appear_vanish(fakes, port, d, trials):
    """A new fake's time to appear in /metrics, and, SIGKILLed (its file
    left behind, as a killed JVM's is), its time to vanish."""
    seen, gone = [], []
    for _ in range(trials):
        p = fakes.start()
        t0 = time.monotonic()
        a = wait_served(port, {p.pid}, 3 * d + 30)
        # from the spawn, not from the file: the launcher's whole start
        seen.append(None if a is None else time.monotonic() - t0)
        p.send_signal(signal.SIGKILL)
        p.wait()
        v = wait_served(port, {p.pid}, 3 * d + 30, absent=True)
        gone.append(v)
        try:
            os.unlink(perf_file(p.pid))
        except OSError:
            pass
        kill(p)
    return seen, gone


def measure(fakes, pids, n, d, secs, gz, profile_to=None):
    """One gctop --serve -d D over the fleet: its figures."""
    g, port = start_serve(d)
    if g is None:
        return None
    try:
        ready = wait_served(port, pids, 60 + 3 * d)
        if ready is None:
            s = scrape(port)
            log("fleet-scale: N=%d -d %d: %s of %d served after %d s" % (n, d, len(pids & s["pids"]) if s else "?",
                                                                       len(pids), 60 + 3 * d))
        time.sleep(2)
        sc = Scraper(port, gz)
        c0, w0 = cpu_ms(g.pid), time.monotonic()
        sc.start()
        time.sleep(secs)
        c1, w1 = cpu_ms(g.pid), time.monotonic()
        sc.end()
        last = scrape(port)
        out = {"n": n, "d": d, "served_all_s": ready,
               "served": len(last["pids"]) if last else None,
               "ours_served": len(pids & last["pids"]) if last else None,
               "cpu_ms_per_s": (c1 - c0) / (w1 - w0), "window_s": w1 - w0,
               "peak_rss_kib": proc_status(g.pid, "VmHWM"), "rss_kib": proc_status(g.pid, "VmRSS"),
               "threads": proc_status(g.pid, "Threads"), "fds": fd_count(g.pid),
               "scrape_failed": sc.failed}
        for name, runs in (("plain", sc.plain), ("gzip", sc.gzip)):
            if runs:
                out[name] = {"scrapes": len(runs), "ms_median": med([r["ms"] for r in runs]),
                             "ms_max": max(r["ms"] for r in runs), "bytes": med([r["bytes"] for r in runs]),
                             "samples": med([r["samples"] for r in runs])}
        # three at -d 1; one at -d 15, where each takes rounds of 15 s
        seen, gone = appear_vanish(fakes, port, d, 1 if RUN.quick or d > 1 else 3)
        out["appear_s"], out["vanish_s"] = seen, gone
        if profile_to:
            out["profile"] = profile(g.pid, port, gz, profile_to)
        return out
    finally:
        kill(g)


def profile(pid, port, gz, path):
    """perf record -g of gctop for 10 s while it is scraped every second;
    the top symbols (self time) of perf report."""
    if not shutil.which("perf"):
        return {"error": "perf is not installed"}
    sc = Scraper(port, gz)
    sc.start()
    r = subprocess.run(["perf", "record", "-g", "-o", path, "-p", str(pid), "--", "sleep", "10"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    sc.end()
    if r.returncode != 0:
        return {"error": r.stderr.strip()[-300:]}
    rep = subprocess.run(["perf", "report", "-i", path, "--stdio", "--no-children", "--sort", "dso,symbol",
                          "--percent-limit", "0.8", "-g", "none"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    top = [re.sub(r"(\s+-)+$", "", line.strip()) for line in rep.stdout.splitlines()
           if re.match(r"\s+\d+\.\d+%", line)]
    return {"data": path, "top": top[:30]}


def mem_available_mib():
    return (proc_meminfo("MemAvailable") or 0) / 1024


def plan(avail):
    """(counts, mix per count, why the real processes were scaled down or
    None)."""
    counts = [20, 50] if RUN.quick else COUNTS
    mix = {20: (4, 2), 50: (6, 2)} if RUN.quick else dict(REAL_MIX)
    why = None
    if not avail.get("dotnet"):
        mix = {n: (j, 0) for n, (j, _) in mix.items()}
        why = "no .NET SDK: no real .NET processes"
    jvms, dns = max(j for j, _ in mix.values()), max(x for _, x in mix.values())
    need = jvms * JVM_MIB + dns * DOTNET_MIB + max(counts) * FAKE_MIB
    have = mem_available_mib()
    if need > 0.6 * have:
        scale = 0.6 * have / need
        mix = {n: (int(j * scale), int(x * scale)) for n, (j, x) in mix.items()}
        why = "%.0f MiB available, %.0f MiB needed: real processes scaled by %.2f" % (have, need, scale)
    return counts, mix, why


def grow(jvms, dns, fakes_list, fakes, n, mix):
    """Starts real JVMs, .NET processes and fakes up to n processes."""
    want_j, want_d = mix[n]
    while len(dns) < want_d:
        dns.append(dotnet_target(["gc", 1, 3600]))
    while len(jvms) < want_j:
        batch = [java_target("Idle", [3600], FLEET_JVM) for _ in range(min(10, want_j - len(jvms)))]
        for p in batch:
            wait_line(p, "idle", 120)
            hsperf_ready(p.pid, 30)
        jvms.extend(batch)
    while len(jvms) + len(dns) + len(fakes_list) < n:
        fakes_list.append(fakes.start())


def fleet_scale(avail, res):
    counts, mix, why = plan(avail)
    secs = {1: 10, 15: 30} if RUN.quick else {1: 30, 15: 45}
    fakes = Fakes()
    probe = None
    jvms, dns, fl, out = [], [], [], []
    log("fleet-scale: %.0f MiB available; mix %s%s" % (mem_available_mib(), mix, "; " + why if why else ""))
    try:
        for n in counts:
            log("fleet-scale: growing to %d processes" % n)
            grow(jvms, dns, fl, fakes, n, mix)
            time.sleep(3)
            pids = set(p.pid for p in jvms + dns + fl)
            if probe is None:
                # does this gctop compress? (the lean branch's Accept-Encoding)
                g, port = start_serve(1)
                s = scrape(port, gz=True) if g else None
                probe = bool(s and s["encoding"] == "gzip")
                kill(g)
                log("fleet-scale: gzip %s" % ("served: scraping plain and gzip" if probe else
                                               "not served by this gctop: plain scrapes only"))
            for d in DELAYS:
                log("fleet-scale: N=%d (%d JVMs, %d .NET, %d fakes), -d %d" % (n, len(jvms), len(dns), len(fl), d))
                prof = os.path.join(RUN.tmpdir, "perf-%d-d%d.data" % (n, d)) if n == counts[-1] else None
                r = measure(fakes, pids, n, d, secs[d], probe, prof)
                if r is None:
                    continue
                r.update(jvms=len(jvms), dotnet=len(dns), fakes=len(fl), mem_available_mib=mem_available_mib())
                if prof:
                    missed = goals_missed(r)
                    r["goals_missed"] = missed
                    if not missed:
                        r.pop("profile", None)
                    elif r.get("profile", {}).get("data"):
                        keep = os.path.join(ROOT, "bench", "results", os.path.basename(prof))
                        shutil.copy(prof, keep)
                        r["profile"]["data"] = keep
                out.append(r)
                print_row(r)
    finally:
        log("fleet-scale: stopping %d JVMs, %d .NET processes, %d fakes" % (len(jvms), len(dns), len(fl)))
        kill_many(jvms + dns + fl)
    table("1j. gctop --serve (all processes) over N processes, scraped every second",
          ["N", "JVMs/.NET/fakes", "-d", "served", "CPU % core", "peak RSS", "scrape med", "scrape max",
           "bytes", "samples", "gzip med/max/bytes", "appear", "vanish"],
          [row(r) for r in out])
    for r in out:
        if r.get("profile", {}).get("top"):
            print("\nperf profile of gctop, N=%d -d %d (missed: %s): top symbols (self)"
                  % (r["n"], r["d"], ", ".join(r["goals_missed"])))
            for line in r["profile"]["top"]:
                print("  " + line)
    res["fleet_scale"] = {"runs": out, "mix": {str(k): v for k, v in mix.items()}, "scaled": why, "gzip": probe}
    if out:
        write_svg(out, SVG)
        print("plot: %s" % os.path.relpath(SVG, ROOT))


def goals_missed(r):
    missed = []
    cpu_goal = GOAL_CPU_D1_MS if r["d"] == 1 else GOAL_CPU_D15_MS
    if r["cpu_ms_per_s"] >= cpu_goal:
        missed.append("CPU %.1f ms/s >= %.1f" % (r["cpu_ms_per_s"], cpu_goal))
    if r["d"] == 1 and (r["peak_rss_kib"] or 0) / 1024 >= GOAL_RSS_MIB:
        missed.append("RSS %.1f MiB >= %d" % (r["peak_rss_kib"] / 1024, GOAL_RSS_MIB))
    if r.get("plain") and r["plain"]["ms_max"] >= GOAL_SCRAPE_MS:
        missed.append("scrape max %.1f ms >= %d" % (r["plain"]["ms_max"], GOAL_SCRAPE_MS))
    for k in ("appear_s", "vanish_s"):
        v = [x for x in r[k]]
        if any(x is None or x > GOAL_SEEN_S for x in v):
            missed.append("%s %s > %.0f s" % (k, "/".join("-" if x is None else "%.1f" % x for x in v), GOAL_SEEN_S))
    return missed


def secs_list(v):
    return "/".join("-" if x is None else "%.1f" % x for x in v) + " s"


def row(r):
    p, z = r.get("plain") or {}, r.get("gzip")
    return [r["n"], "%d/%d/%d" % (r["jvms"], r["dotnet"], r["fakes"]), r["d"], r["served"],
            fmt(r["cpu_ms_per_s"] / 10, "%"), fmt(r["peak_rss_kib"] / 1024 if r["peak_rss_kib"] else None, " MiB"),
            fmt(p.get("ms_median"), " ms"), fmt(p.get("ms_max"), " ms"),
            fmt(p["bytes"] / 1024, " KiB") if p else "n/a", fmt(p.get("samples")),
            "%s/%s/%s" % (fmt(z["ms_median"], " ms"), fmt(z["ms_max"], " ms"), fmt(z["bytes"] / 1024, " KiB"))
            if z else "n/a", secs_list(r["appear_s"]), secs_list(r["vanish_s"])]


def print_row(r):
    log("  " + "  ".join(str(c) for c in row(r)))


# ---- the plot: plain SVG, no plotting library ----

def write_svg(runs, path):
    panels = [
        ("gctop CPU (% of a core)", lambda r: r["cpu_ms_per_s"] / 10,
         [(1, "-d 1"), (15, "-d 15")], [(GOAL_CPU_D1_MS / 10, "goal -d 1"), (GOAL_CPU_D15_MS / 10, "goal -d 15")]),
        ("peak RSS (MiB)", lambda r: (r["peak_rss_kib"] or 0) / 1024,
         [(1, "-d 1"), (15, "-d 15")], [(GOAL_RSS_MIB, "goal")]),
        ("scrape time (ms, median and max)", None, None, [(GOAL_SCRAPE_MS, "goal")]),
    ]
    W, H, PW, PH, L, T = 960, 330, 250, 220, 60, 50
    colors = {1: "#1f77b4", 15: "#ff7f0e"}
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
         % (W, H), '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14" text-anchor="middle">gctop --serve over N processes '
         '(fake JVMs, idle JVMs, .NET), scraped every second</text>' % (W / 2)]
    ns = sorted(set(r["n"] for r in runs))
    xmax = max(ns)
    for i, (title, val, series, goals) in enumerate(panels):
        x0 = L + i * (PW + 70)
        if val is None:  # scrape: median and max at -d 1 and -d 15
            lines = []
            for d in DELAYS:
                rs = sorted((r for r in runs if r["d"] == d and r.get("plain")), key=lambda r: r["n"])
                lines.append(("-d %d median" % d, colors[d], "", [(r["n"], r["plain"]["ms_median"]) for r in rs]))
                lines.append(("-d %d max" % d, colors[d], "4,3", [(r["n"], r["plain"]["ms_max"]) for r in rs]))
        else:
            lines = [(label, colors[d], "", [(r["n"], val(r)) for r in sorted(runs, key=lambda r: r["n"]) if r["d"] == d])
                     for d, label in series]
        ymax = max([y for _, _, _, pts in lines for _, y in pts] + [g for g, _ in goals]) * 1.1 or 1
        X = lambda n: x0 + n / xmax * PW
        Y = lambda y: T + PH - y / ymax * PH
        s.append('<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>' % (x0 + PW / 2, T - 10, title))
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (x0, T + PH, x0 + PW, T + PH))
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (x0, T, x0, T + PH))
        for n in ns:
            s.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(n), T + PH + 14, n))
        s.append('<text x="%d" y="%d" text-anchor="middle">processes</text>' % (x0 + PW / 2, T + PH + 28))
        for k in range(5):
            y = ymax * k / 4
            s.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (x0 - 4, Y(y) + 4, fmt(y)))
            s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (x0, Y(y), x0 + PW, Y(y)))
        for g, label in goals:
            s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#c00" stroke-dasharray="2,2"/>'
                     % (x0, Y(g), x0 + PW, Y(g)))
            s.append('<text x="%d" y="%.1f" fill="#c00" text-anchor="end">%s</text>' % (x0 + PW, Y(g) - 3, label))
        for j, (label, color, dash, pts) in enumerate(lines):
            if not pts:
                continue
            s.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                     % (color, ' stroke-dasharray="%s"' % dash if dash else "",
                        " ".join("%.1f,%.1f" % (X(n), Y(y)) for n, y in pts)))
            for n, y in pts:
                s.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(n), Y(y), color))
            s.append('<text x="%d" y="%d" fill="%s">%s</text>' % (x0 + 6, T + 12 + 13 * j, color, label))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


# ---- churn ----

class Churn:
    """Fakes started one every CHURN_EVERY_S, each living a random
    CHURN_LIFE_S, in process groups of their own (reaped and killed by
    group)."""

    def __init__(self, fakes):
        self.fakes, self.groups, self.started = fakes, [], 0

    def spawn_one(self):
        argv = self.fakes.argv(random.uniform(*CHURN_LIFE_S) * 1000)
        for g in ([self.groups[-1]] if self.groups else []) + [0]:
            try:
                pid = os.posix_spawn(FAKE, argv, os.environ, setpgroup=g)
            except OSError:
                continue  # the group is gone: start a new one
            if g == 0:
                self.groups.append(pid)
            self.started += 1
            return

    def reap(self):
        for g in list(self.groups):
            while True:
                try:
                    pid, _ = os.waitpid(-g, os.WNOHANG)
                except ChildProcessError:
                    self.groups.remove(g)
                    break
                if pid == 0:
                    break

    def alive(self):
        n = 0
        for g in self.groups:
            try:
                out = subprocess.run(["pgrep", "-c", "-g", str(g)], stdout=subprocess.PIPE, text=True).stdout
                n += int(out.strip() or 0)
            except (OSError, ValueError):
                pass
        return n

    def stop(self):
        for g in self.groups:
            try:
                os.killpg(g, signal.SIGTERM)
            except OSError:
                pass
        deadline = time.monotonic() + 10
        while self.groups and time.monotonic() < deadline:
            self.reap()
            time.sleep(0.05)
        for g in self.groups:
            try:
                os.killpg(g, signal.SIGKILL)
            except OSError:
                pass
        self.reap()


def churn(avail, res):
    secs = int(os.environ.get("GCTOP_BENCH_CHURN_S", "60" if RUN.quick else str(CHURN_S)))
    fakes = Fakes()
    ch = Churn(fakes)
    g, port = start_serve(1)
    if g is None:
        return
    samples, sc = [], None
    log("churn: a fake every %.0f ms, each living %.0f-%.0f s, for %d s" % (CHURN_EVERY_S * 1000, CHURN_LIFE_S[0],
                                                                          CHURN_LIFE_S[1], secs))
    try:
        sc = Scraper(port, False)
        sc.start()
        t0 = time.monotonic()
        nxt_sample, i = t0 + CHURN_SAMPLE_S, 0
        while time.monotonic() - t0 < secs:
            ch.spawn_one()
            i += 1
            if i % 20 == 0:
                ch.reap()
            now = time.monotonic()
            if now >= nxt_sample:
                samples.append({"t": round(now - t0, 1), "fds": fd_count(g.pid),
                                "threads": proc_status(g.pid, "Threads"), "rss_kib": proc_status(g.pid, "VmRSS"),
                                "alive": ch.alive(), "served": sc.plain[-1]["served"] if sc.plain else None,
                                "cpu_ms": cpu_ms(g.pid)})
                log("churn: %(t)5.0f s  fds %(fds)s  threads %(threads)s  RSS %(rss_kib)s KiB  alive %(alive)s  served %(served)s" %
                    samples[-1])
                nxt_sample += CHURN_SAMPLE_S
            time.sleep(max(0.0, t0 + i * CHURN_EVERY_S - time.monotonic()))
        sc.end()
        sc_ms = [s["ms"] for s in sc.plain]
        hwm = proc_status(g.pid, "VmHWM")
    finally:
        if sc:
            sc.end()
        ch.stop()
        kill(g)
    out = {"seconds": secs, "started": ch.started, "samples": samples, "peak_rss_kib": hwm,
           "scrapes": len(sc_ms), "scrape_failed": sc.failed, "scrape_ms_median": med(sc_ms),
           "scrape_ms_max": max(sc_ms) if sc_ms else None,
           "scrapes_over_limit": sum(1 for x in sc_ms if x > CHURN_SCRAPE_LIMIT_MS)}
    if len(samples) >= 2:
        out["cpu_ms_per_s"] = (samples[-1]["cpu_ms"] - samples[0]["cpu_ms"]) / (samples[-1]["t"] - samples[0]["t"])
    rows = []
    for k, unit in (("fds", ""), ("threads", ""), ("rss_kib", " KiB"), ("alive", "")):
        v = [s[k] for s in samples if s[k] is not None]
        if v:
            rows.append([k, fmt(v[0], unit), fmt(v[-1], unit), fmt(max(v), unit), fmt(min(v), unit)])
    table("1k. churn: %d fakes started (one every %.0f ms, each living %.0f-%.0f s) over %d s beside gctop --serve -d 1;"
          " sampled every %d s" % (ch.started, CHURN_EVERY_S * 1000, CHURN_LIFE_S[0], CHURN_LIFE_S[1], secs,
                                   CHURN_SAMPLE_S), ["", "first", "last", "max", "min"], rows)
    print("  scrapes: %d (%d failed), median %s, max %s, %d above %.0f ms; gctop CPU %s, peak RSS %s"
          % (out["scrapes"], sc.failed, fmt(out["scrape_ms_median"], " ms"), fmt(out["scrape_ms_max"], " ms"),
             out["scrapes_over_limit"], CHURN_SCRAPE_LIMIT_MS, fmt(out.get("cpu_ms_per_s", 0) / 10, "% of a core"),
             fmt((hwm or 0) / 1024, " MiB")))
    res["churn"] = out
