#!/usr/bin/env python3
"""The .NET rows of bench/census.py (issue 28): gctop --census beside
dotnet-gcdump collect on the same process.

bench/dotnet/CensusFill fills a live heap of the given size with small
objects; then, in rounds, gctop --census -p PID --json and dotnet-gcdump
collect each take one census of it, two seconds apart. For each: the wall
time of the command; the program's longest stall (a thread of it that wakes
every ms: what the program felt, the heap walk included) as "pause"; the
induced full blocking collection's pause as the runtime reports it
(GC.GetGCMemoryInfo(GCKind.FullBlocking).PauseDurations, the walk left out)
as "of which GC"; gctop's own pause_ms beside them; whether the result is
complete; and the program's resident set's peak rise over the census
(RssPeak: its peak, VmHWM, reset through /proc/PID/clear_refs before, less
its resident set before), with the census's objects and live bytes, from
which gctop's expected cost of a census is made (issue 36,
bench/README.md). dotnet-gcdump is installed from NuGet into build/bench/tools on
first use; without it its rows are skipped with a message."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "build/bench/tools")
FILL_OUT = os.path.join(ROOT, "build/bench/census-fill")
GCTOP = os.environ.get("GCTOP_BIN", os.path.join(ROOT, "build/gctop"))
GCDUMP_VERSION = "10.0.750501"
CENSUS_TIMEOUT_S = 120


def status_kib(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


class RssPeak:
    """The target's resident set's peak rise over a census: VmHWM is reset
    to the resident set now (clear_refs 5, Linux 4.0 on; the target must be
    ours or we root), and read after. Shared with census.py's JVM rows."""

    def __init__(self, pid):
        self.pid = pid
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")
        self.before_kib = status_kib(pid, "VmRSS")

    def figures(self):
        peak = status_kib(self.pid, "VmHWM")
        return {"rss_before_mib": self.before_kib / 1024, "rss_peak_mib": peak / 1024,
                "rss_rise_mib": (peak - self.before_kib) / 1024}


def sh(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)


def prepare():
    r = sh(["dotnet", "build", "-c", "Release", "-o", FILL_OUT, "bench/dotnet/CensusFill"])
    if r.returncode != 0:
        sys.exit("cannot build bench/dotnet/CensusFill:\n" + r.stdout[-2000:])
    if not os.access(GCTOP, os.X_OK):
        sys.exit(GCTOP + " is missing: run make first")
    gcdump = os.path.join(TOOLS, "dotnet-gcdump")
    if not os.path.exists(gcdump):
        r = sh(["dotnet", "tool", "install", "--tool-path", TOOLS, "dotnet-gcdump", "--version", GCDUMP_VERSION])
        if r.returncode != 0:
            print("dotnet-gcdump cannot be installed; its rows are skipped:", r.stdout[-300:])
            return None
    return gcdump


class Fill:
    def __init__(self, mib):
        self.out = tempfile.NamedTemporaryFile("w+", prefix="census-fill.", delete=False)
        self.proc = subprocess.Popen([os.path.join(FILL_OUT, "CensusFill"), str(mib)], stdout=self.out,
                                     stderr=subprocess.STDOUT, text=True)
        self.seen = 0
        self.objects = int(self.wait_line(r"^ready (\d+)", 600)[0])

    def lines(self):
        with open(self.out.name) as f:
            return f.read().splitlines()

    def wait_line(self, pattern, timeout_s):
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            lines = self.lines()
            for i in range(self.seen, len(lines)):
                m = re.match(pattern, lines[i])
                if m:
                    self.seen = i + 1
                    return m.groups()
            if self.proc.poll() is not None:
                sys.exit("CensusFill exited: " + "\n".join(lines[-5:]))
            time.sleep(0.1)
        return None

    def next_full(self):
        g = self.wait_line(r"^full (\d+) pause_us (\d+) promoted (\d+) gap_us (\d+)", 60)
        return None if g is None else {"pause_ms": int(g[1]) / 1000, "promoted": int(g[2]),
                                        "stall_ms": int(g[3]) / 1000}

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        os.unlink(self.out.name)


def gctop_census(fill):
    rss = RssPeak(fill.proc.pid)
    t = time.monotonic()
    # the bench measures the cost itself: gctop's headroom rule stays out of it
    r = subprocess.run([GCTOP, "--census", "--census-anyway", "-p", str(fill.proc.pid), "--json"],
                       capture_output=True, text=True)
    wall = time.monotonic() - t
    if r.returncode != 0:
        return {"error": r.stderr.strip(), "status": r.returncode}
    d = json.loads(r.stdout)
    return dict(rss.figures(), wall_s=wall, objects=d["total_count"], live_bytes=d["total_bytes"],
                reported_pause_ms=d["pause_ms"], complete=d["partial"] is None, partial=d["partial"],
                status=r.returncode)


def gcdump_collect(fill, gcdump):
    rss = RssPeak(fill.proc.pid)
    with tempfile.TemporaryDirectory() as d:
        t = time.monotonic()
        r = subprocess.run([gcdump, "collect", "-p", str(fill.proc.pid), "-o", os.path.join(d, "x.gcdump")],
                           capture_output=True, text=True, timeout=CENSUS_TIMEOUT_S * 2)
        wall = time.monotonic() - t
        out = r.stdout + r.stderr
        size = os.path.getsize(os.path.join(d, "x.gcdump")) if os.path.exists(os.path.join(d, "x.gcdump")) else 0
    return {**rss.figures(), "wall_s": wall, "file_bytes": size, "status": r.returncode,
            "complete": "max node count" not in out.lower() and r.returncode == 0,
            "warnings": [l.strip() for l in out.splitlines() if "arning" in l][:3]}


def fill_rows(mib, rounds, gcdump):
    fill = Fill(mib)
    rows = {"gctop --census": [], "dotnet-gcdump collect": []}
    try:
        time.sleep(2)
        for _ in range(rounds):
            for tool in rows:
                if tool.startswith("dotnet-gcdump") and gcdump is None:
                    continue
                res = gctop_census(fill) if tool.startswith("gctop") else gcdump_collect(fill, gcdump)
                full = fill.next_full()
                if full:
                    res.update(pause_ms=full["stall_ms"], gc_ms=full["pause_ms"], promoted=full["promoted"])
                rows[tool].append(res)
                time.sleep(2)
    finally:
        fill.stop()
    return rows


def dotnet_rows(heap_mb, rounds, tmp):
    """bench/census.py's rows for a live heap of heap_mb MiB (tmp unused:
    the fill's output goes to a file of its own)."""
    if not shutil.which("dotnet"):
        print("no dotnet on PATH: the .NET census rows are skipped")
        return []
    gcdump = prepare()
    rows = fill_rows(heap_mb, rounds, gcdump)
    return [{"runtime": ".NET 10 (Workstation)", "heap_mib": heap_mb, "tool": t, "runs": runs}
            for t, runs in rows.items() if runs]
