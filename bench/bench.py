#!/usr/bin/env python3
"""gctop's benchmarks (make bench): its own cost against jstat, top and
dotnet-counters, its cost to the target, and how its cost grows. Prints
tables and writes the raw figures as JSON under bench/results/.

usage: python3 bench/bench.py [--quick] [--rounds N] [--only SECTION[,SECTION...]]
  sections: own, tick, startup, tui, picker, serve, serve-hostile, target-java,
            target-java-mt, target-dotnet, target-dotnet-service, sites, events
  --quick   short runs (1 round, few samples): to try the scripts, not to
            quote
  --rounds  rounds of the interleaved sections (own cost, target cost;
            default 3)

Every process it starts is killed when it ends, also on Ctrl-C or SIGTERM.
See bench/README.md for what each figure means."""

import fcntl
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.environ.get("GCTOP_BUILD", "build")
B = os.path.join(ROOT, BUILD)
GCTOP = os.environ.get("GCTOP_BIN") or os.path.join(B, "gctop")
# serve: another gctop measured against the same processes (before/after)
SERVE_BASELINE = os.environ.get("GCTOP_SERVE_BASELINE")
SEGPUB = os.path.join(B, "bench", "segpub")
REPLAY = os.path.join(B, "bench", "nettrace_replay")
RUSAGE = os.path.join(B, "bench", "rusage")
WAKELOOP = os.path.join(B, "bench", "wakeloop")
WORK = os.path.join(B, "bench")
JCLS = os.path.join(WORK, "java")
TOOLS = os.path.join(WORK, "tools")
DN_OUT = os.path.join(WORK, "dotnet", "AllocLoop")
DN_BIN = os.path.join(DN_OUT, "AllocLoop")
RESULTS = os.path.join(ROOT, "bench", "results")
NETTRACE = os.path.join(ROOT, "tests", "data", "nettrace", "gcalloc-net10.0.12.nettrace")

TINY_JVM = ["-Xmx16m", "-Xss256k", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"]
# The throughput target: a fixed heap, the default collector (G1).
LOOP_JVM = ["-Xms256m", "-Xmx256m"]

QUICK = False
ROUNDS = None          # --rounds: override the rounds of sections 1a and 2
children = []          # Popen objects still to kill
TMUX_SOCK = "gctopbench%d" % os.getpid()
tmpdir = None


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- processes

def spawn(argv, **kw):
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.DEVNULL)
    kw.setdefault("stderr", subprocess.DEVNULL)
    p = subprocess.Popen(argv, **kw)
    children.append(p)
    return p


def kill(p, sig=signal.SIGTERM, grace=3.0):
    if p is None:
        return
    if p.returncode is None:
        try:
            p.send_signal(sig)
        except ProcessLookupError:
            pass
        try:
            p.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                p.kill()
            except ProcessLookupError:
                pass
            p.wait()
    if p in children:
        children.remove(p)


def kill_many(ps):
    for p in ps:
        if p.returncode is None:
            try:
                p.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 5
    for p in ps:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if p in children:
            children.remove(p)


def cleanup():
    kill_many(list(children))
    subprocess.run(["tmux", "-L", TMUX_SOCK, "kill-server"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    if tmpdir:
        shutil.rmtree(tmpdir, ignore_errors=True)


def on_signal(sig, frame):
    log("\nbench: interrupted; stopping everything it started")
    cleanup()
    sys.exit(130)


def measured(argv, stdout=subprocess.DEVNULL, timeout=300, env=None):
    """Runs argv to the end under the rusage launcher; returns (cpu_s,
    maxrss_kib, wall_s, rc)."""
    ru_path = os.path.join(tmpdir, "rusage.txt")
    if os.path.exists(ru_path):
        os.unlink(ru_path)
    t0 = time.monotonic()
    p = subprocess.Popen([RUSAGE, ru_path] + argv, stdin=subprocess.DEVNULL, stdout=stdout,
                         stderr=subprocess.DEVNULL, env=env)
    children.append(p)
    try:
        p.wait(timeout)
    except subprocess.TimeoutExpired:
        p.terminate()
        p.wait()
    wall = time.monotonic() - t0
    children.remove(p)
    return read_rusage(ru_path) + (wall, p.returncode)


def read_rusage(path):
    try:
        with open(path) as f:
            u, s, rss = f.read().split()[:3]
        return float(u) + float(s), int(rss)
    except (FileNotFoundError, ValueError):
        return None, None


def read_wakeups(path):
    """The voluntary context switches the rusage launcher wrote (its last
    field): how many times the process slept and woke."""
    try:
        with open(path) as f:
            return int(f.read().split()[4])
    except (FileNotFoundError, ValueError, IndexError):
        return None


def wait_line(p, pattern=None, timeout=30):
    """Reads p.stdout until a line matches (or any line); returns it or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            return None
        if pattern is None or re.search(pattern, line):
            return line
    return None


def proc_cpu_ns(pid):
    """On-CPU ns of pid. A single-threaded process: its schedstat (exact).
    Otherwise utime+stime from /proc/PID/stat (clock ticks, but it keeps the
    time of threads that have exited, which a sum over tasks loses)."""
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
        if len(tasks) == 1:
            with open("/proc/%d/task/%s/schedstat" % (pid, tasks[0])) as f:
                return int(f.read().split()[0])
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1e9 / os.sysconf("SC_CLK_TCK")
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return 0


def proc_status(pid, key):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return None


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


# ---------------------------------------------------------------- targets

def java_target(cls, args, jvm=None, extra=None):
    argv = ["java"] + (jvm or []) + (extra or []) + ["-cp", JCLS, cls] + [str(a) for a in args]
    return spawn(argv, stdout=subprocess.PIPE, text=True, bufsize=1)


def hsperf_ready(pid, timeout=15):
    """gctop can read the JVM once its perf-data file exists."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for d in os.listdir("/tmp"):
            if d.startswith("hsperfdata_") and os.path.exists("/tmp/%s/%d" % (d, pid)):
                return True
        time.sleep(0.05)
    return False


def idle_jvm(seconds=900):
    p = java_target("Idle", [seconds], TINY_JVM)
    wait_line(p, "idle", 60)
    hsperf_ready(p.pid)
    return p


def dotnet_target(args):
    p = spawn([DN_BIN] + [str(a) for a in args], stdout=subprocess.PIPE, text=True, bufsize=1,
              env=dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1"))
    return p


def collect_lines(p, seconds, pattern):
    """Numbers from lines of p.stdout matching pattern (one group) for seconds."""
    out = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        m = re.search(pattern, line)
        if m:
            out.append(float(m.group(1)))
    return out


# ---------------------------------------------------------------- tmux

def tmux(*args, check=True):
    r = subprocess.run(["tmux", "-L", TMUX_SOCK, "-f", "/dev/null"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


class Pane:
    """A program in a detached tmux window of 160x48, held at a fifo until
    go(), its output copied by pipe-pane to a file."""
    n = 0

    def __init__(self, argv):
        Pane.n += 1
        self.name = "b%d" % Pane.n
        self.fifo = os.path.join(tmpdir, self.name + ".fifo")
        self.out = os.path.join(tmpdir, self.name + ".out")
        os.mkfifo(self.fifo)
        open(self.out, "w").close()
        cmd = "read _ < %s; exec %s" % (self.fifo, " ".join(shq(a) for a in argv))
        tmux("new-session", "-d", "-s", self.name, "-x", "160", "-y", "48", "sh", "-c", cmd)
        tmux("pipe-pane", "-t", self.name, "-o", "cat >> %s" % shq(self.out))
        self.pid = int(tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())

    def go(self):
        """Releases the program; returns (first_byte_s, first_frame_s)."""
        fd = os.open(self.fifo, os.O_WRONLY)
        t0 = time.monotonic()
        os.write(fd, b"go\n")
        os.close(fd)
        first_byte = first_frame = None
        deadline = t0 + 10
        while time.monotonic() < deadline and first_byte is None:
            if os.path.getsize(self.out) > 0:
                first_byte = time.monotonic() - t0
            else:
                time.sleep(0.0003)
        while time.monotonic() < deadline and first_frame is None:
            if tmux("capture-pane", "-p", "-t", self.name, check=False).strip():
                first_frame = time.monotonic() - t0
        return first_byte, first_frame

    def bytes(self):
        return os.path.getsize(self.out)

    def close(self):
        tmux("kill-session", "-t", self.name, check=False)
        for _ in range(100):
            if not os.path.exists("/proc/%d" % self.pid):
                break
            time.sleep(0.02)


def shq(s):
    s = str(s)
    if re.fullmatch(r"[A-Za-z0-9_./=:,+-]+", s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


# ---------------------------------------------------------------- stats

def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def spread(v):
    v = [x for x in v if x is not None]
    return (min(v), max(v)) if v else (None, None)


def fmt(x, unit="", digits=3):
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    if abs(x) >= 100:
        s = "%.0f" % x
    elif abs(x) >= 10:
        s = "%.1f" % x
    else:
        s = "%.*g" % (digits, x)
    return s + unit


def table(title, header, rows):
    print()
    print(title)
    w = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(header)]
    print("  " + "  ".join(str(h).ljust(w[i]) if i == 0 else str(h).rjust(w[i]) for i, h in enumerate(header)))
    print("  " + "  ".join("-" * x for x in w))
    for r in rows:
        print("  " + "  ".join(str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i]) for i, c in enumerate(r)))
    sys.stdout.flush()


# ---------------------------------------------------------------- environment

def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    jv = subprocess.run(["java", "-version"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True).stderr
    mem = proc_meminfo("MemTotal")
    dn = None
    if shutil.which("dotnet"):
        r = subprocess.run(["dotnet", "--list-runtimes"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        dn = [l.split()[1] for l in r.stdout.splitlines() if l.startswith("Microsoft.NETCore.App")]
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "kernel": platform.release(),
        "mem_total_gib": round(mem / 1048576, 1) if mem else None,
        "jdk": jv.splitlines()[1].strip() if len(jv.splitlines()) > 1 else jv.strip(),
        "dotnet_runtimes": dn,
        "gctop_version": subprocess.run([GCTOP, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip(),
    }


def proc_meminfo(key):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def prepare():
    """Builds the Java and C# targets and installs the .NET tools; returns
    what is available."""
    avail = {"dotnet": False, "dotnet_collector": False, "dotnet_counters": None, "dotnet_trace": None,
             "notes": []}
    os.makedirs(JCLS, exist_ok=True)
    subprocess.run(["javac", "-d", JCLS] + [os.path.join(ROOT, "bench", "java", f) for f in ("AllocLoop.java", "Idle.java")]
                   + [os.path.join(ROOT, "tests", "java", "MixWorkload.java")], check=True)
    if not shutil.which("dotnet"):
        avail["notes"].append("no dotnet on PATH: the .NET parts are skipped")
        return avail
    sdks = subprocess.run(["dotnet", "--list-sdks"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    if not re.search(r"^(1[0-9]|[2-9][0-9])\.", sdks, re.M):
        avail["notes"].append("no .NET 10 SDK: the .NET parts are skipped")
        return avail
    env = dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1", DOTNET_NOLOGO="1")
    r = subprocess.run(["dotnet", "build", "-c", "Release", "-o", DN_OUT, os.path.join(ROOT, "bench", "dotnet", "AllocLoop")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if r.returncode != 0 or not os.path.exists(DN_BIN):
        avail["notes"].append("the C# target did not build: the .NET parts are skipped\n" + r.stdout[-2000:])
        return avail
    avail["dotnet"] = True
    os.makedirs(TOOLS, exist_ok=True)
    for tool in ("dotnet-counters", "dotnet-trace"):
        path = os.path.join(TOOLS, tool)
        if not os.path.exists(path):
            r = subprocess.run(["dotnet", "tool", "install", "--tool-path", TOOLS, tool],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            if r.returncode != 0:
                avail["notes"].append("%s could not be installed from NuGet; its rows are skipped: %s"
                                      % (tool, r.stdout.strip()[-300:]))
                continue
        avail[tool.replace("-", "_")] = path
    # Is the .NET collector in this build?
    t = dotnet_target(["gc", 20, 30])
    time.sleep(1.5)
    r = subprocess.run([GCTOP, "-p", str(t.pid), "--json", "-n", "1"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=30)
    kill(t)
    try:
        avail["dotnet_collector"] = r.returncode == 0 and json.loads(r.stdout.splitlines()[0])["runtime"] == "dotnet"
    except (ValueError, IndexError, KeyError):
        avail["dotnet_collector"] = False
    if not avail["dotnet_collector"]:
        avail["notes"].append("gctop -p <.NET pid> does not work in this build (%s): the gctop .NET rows are not available"
                              % (r.stderr.strip()[:200] or "rc %d" % r.returncode))
    return avail


# ---------------------------------------------------------------- 1. own cost

def own_cost(avail, res):
    """CPU and peak RSS of gctop, jstat, top (JVM target) and gctop,
    dotnet-counters, top (.NET target) for N samples at 0.25 s and 1 s,
    interleaved, with a 1-sample run for each to split off start-up."""
    rounds = ROUNDS or (1 if QUICK else 3)
    plans = [(0.25, 8 if QUICK else 40), (1.0, 4 if QUICK else 10)]

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
    reps = 3 if QUICK else 10
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
    secs = 8 if QUICK else 30
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


def grow_idle_jvms(jvms, count):
    """Starts small idle JVMs, ten at a time, until jvms holds count."""
    while len(jvms) < count:
        batch = [java_target("Idle", [1800], TINY_JVM) for _ in range(min(10, count - len(jvms)))]
        for p in batch:
            wait_line(p, "idle", 120)
            hsperf_ready(p.pid, 30)
        jvms.extend(batch)


def picker(avail, res):
    """CPU of the picker (gctop without -p) and of gctop -l with 50 and 200
    small idle JVMs. The JVMs are started 10 at a time and all killed at the
    end (also on interrupt)."""
    counts = [10, 50] if QUICK else [50, 200]
    secs = 8 if QUICK else 20
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
            lst = [measured([GCTOP, "-l", "--json"]) for _ in range(1 if QUICK else 3)]
            jps = [measured(["jps", "-l"]) for _ in range(1 if QUICK else 3)]
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
    counts = [10, 50] if QUICK else [50, 200]
    n_dn = (2 if QUICK else 20) if avail["dotnet"] else 0
    secs = 8 if QUICK else 20
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
    secs = 10 if QUICK else 30
    rounds = [r for r in (ops_agent_round(secs) for _ in range(ROUNDS or (1 if QUICK else 3))) if r]
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
    path = os.path.join(tmpdir, "hostile.json")
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
    rounds = ROUNDS or (1 if QUICK else 3)
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


# ---------------------------------------------------------------- 2. target cost

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
                "gctop --allocators": [GCTOP, "-p", str(t.pid), "--allocators", "--json", "-d", "1"],
                "jstat": ["jstat", "-gcutil", str(t.pid), "1000"]}[name]
        watcher = spawn(argv, stdout=open(os.path.join(tmpdir, "watch.out"), "w"))
    collect_lines(t, warm, r"ops_per_s (\d+)")
    c0 = proc_cpu_ns(watcher.pid) if watcher else 0
    v = collect_lines(t, secs, r"ops_per_s (\d+)")
    if watcher:
        info["watcher_cpu_share"] = (proc_cpu_ns(watcher.pid) - c0) / 1e9 / secs
        kill(watcher)
        if name == "gctop --allocators":
            info.update(last_allocators(os.path.join(tmpdir, "watch.out")))
    kill(t)
    return v, info


def last_allocators(path):
    last = None
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("{"):
                    last = line
        ta = json.loads(last).get("top_allocators") or {}
        return {"sampler_state": ta.get("state"), "samples_in_window": ta.get("samples"), "window_s": ta.get("window_s"),
                "samples_per_s": ta["samples"] / ta["window_s"] if ta.get("samples") and ta.get("window_s") else None}
    except (TypeError, ValueError, KeyError):
        return {}


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
    rounds = ROUNDS or (1 if QUICK else 3)
    warm, secs = (3, 4) if QUICK else (6, 10)
    configs = ["alone", "gctop hsperf", "gctop --allocators", "jfr profile", "jstat"]
    raw, infos = {c: [] for c in configs}, {c: [] for c in configs}
    jfr = os.path.join(tmpdir, "jfr-repository")
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
    rounds = ROUNDS or (1 if QUICK else 3)
    warm, secs = (3, 4) if QUICK else (6, 10)
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
                                 "-o", os.path.join(tmpdir, "bench.nettrace")], stdin=subprocess.PIPE)
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


# ---------------------------------------------------------------- 2c. multi-threaded Java target

# The JDKs 2c runs on: JDK 17 (the issue's) and Temurin 25 when installed.
MT_JDKS = [("JDK 17", "/usr/lib/jvm/java-17-openjdk-amd64"), ("Temurin 25", "/usr/lib/jvm/temurin-25-jdk-amd64")]
MT_CONFIGS = ["gctop hsperf", "gctop --allocators", "jfr profile"]


def mt_agents():
    """GCTOP_MT_AGENTS="NAME=PATH,...": more gctop --allocators rows, each
    loading the agent at PATH (GCTOP_AGENT), measured in the same rounds:
    an agent change side by side with the agent it replaces."""
    out = []
    for item in (os.environ.get("GCTOP_MT_AGENTS") or "").split(","):
        if "=" in item:
            name, path = item.split("=", 1)
            out.append(("gctop --allocators (%s)" % name, os.path.abspath(path)))
    return out


def mt_watch(java, pid, name, agent, jfr_path):
    """Starts what config name runs against pid; returns a stop function."""
    if name == "jfr profile":
        jcmd = os.path.join(os.path.dirname(java), "jcmd")
        subprocess.run([jcmd, str(pid), "JFR.start", "name=bench", "settings=profile",
                        "filename=%s" % os.path.join(jfr_path, "bench.jfr")], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return None, lambda: subprocess.run([jcmd, str(pid), "JFR.stop", "name=bench"], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL)
    argv = [GCTOP, "-p", str(pid), "--json", "-d", "1"]
    if "--allocators" in name:
        argv.insert(3, "--allocators")
    env = dict(os.environ, GCTOP_AGENT=agent) if agent else None
    w = spawn(argv, stdout=open(os.path.join(tmpdir, "watch.out"), "w"), env=env)
    return w, lambda: kill(w)


def mt_block(t, secs):
    """The target's per-second ops for secs seconds (its first, partial,
    line dropped) and its CPU share of a core over them."""
    c0 = proc_cpu_ns(t.pid)
    v = collect_lines(t, secs + 1, r"ops_per_s (\d+)")[1:]
    return v, (proc_cpu_ns(t.pid) - c0) / 1e9 / (secs + 1)


def mt_round(java, configs, agents, warm, secs, jfr_path, threads):
    """One JVM: warm-up, then alone, and each config followed by alone
    again. A config's ratio is its throughput over the mean of the alone
    blocks either side of it, so the spread between JVMs (their JIT's
    choices: +-6% here) does not enter it."""
    argv = [java] + LOOP_JVM + ["-cp", JCLS, "Exporter", "3600", str(threads)]
    t = spawn(argv, stdout=subprocess.PIPE, text=True, bufsize=1)
    hsperf_ready(t.pid)
    collect_lines(t, warm, r"ops_per_s (\d+)")
    blocks = [("alone",) + mt_block(t, secs) + ({},)]
    for c in configs:
        w, stop = mt_watch(java, t.pid, c, agents.get(c), jfr_path)
        # Attach, the agent's first interval, JFR's start-up: not measured.
        collect_lines(t, 5 if c == "jfr profile" else 3, r"ops_per_s (\d+)")
        c0 = proc_cpu_ns(w.pid) if w else 0
        v, share = mt_block(t, secs)
        info = {}
        if w:
            info["watcher_cpu_share"] = (proc_cpu_ns(w.pid) - c0) / 1e9 / (secs + 1)
        stop()
        if "--allocators" in c:
            info.update(last_allocators(os.path.join(tmpdir, "watch.out")))
        blocks.append((c, v, share, info))
        # The agent stops sampling when no reader has beaten for 5 s.
        collect_lines(t, 7 if "--allocators" in c else 2, r"ops_per_s (\d+)")
        blocks.append(("alone",) + mt_block(t, secs) + ({},))
    kill(t)
    return blocks


def upper_quartile(v):
    """A block's throughput: other work on the two cores only ever takes
    throughput away, a second at a time, and an undisturbed block's seconds
    are within about 1% of each other; so its upper quartile, not its
    median, is the estimate that a stolen second does not move."""
    v = sorted(x for x in v if x is not None)
    return v[(3 * len(v)) // 4] if v else None


def block_ratio(blocks, i, est):
    """Block i's throughput over the mean of the alone blocks either side."""
    mine, around = est(blocks[i][1]), [est(blocks[i - 1][1]), est(blocks[i + 1][1])]
    return mine / statistics.mean(around) if mine and all(around) else None


def mt_summary(rounds_blocks, configs):
    out = {c: {"ratios": [], "median_ratios": [], "ops": [], "target_cpu": [], "infos": []}
           for c in ["alone"] + configs}
    for blocks in rounds_blocks:
        for i, (c, v, share, info) in enumerate(blocks):
            out[c]["ops"].append(upper_quartile(v))
            out[c]["target_cpu"].append(share)
            if c == "alone":
                continue
            out[c]["ratios"].append(block_ratio(blocks, i, upper_quartile))
            out[c]["median_ratios"].append(block_ratio(blocks, i, med))
            out[c]["infos"].append(info)
    for c, o in out.items():
        o["ratio"] = med(o["ratios"]) if c != "alone" else 1.0
        o["ratio_spread"] = spread(o["ratios"]) if c != "alone" else (1.0, 1.0)
        o["ratio_of_medians"] = med(o["median_ratios"]) if c != "alone" else 1.0
        o["median_ops_per_s"] = med(o["ops"])
        o["target_cpu_share"] = med(o["target_cpu"])
        share = med([i.get("watcher_cpu_share") for i in o["infos"]])
        sps = med([i.get("samples_per_s") for i in o["infos"]])
        notes = ["target CPU %s%%" % fmt(o["target_cpu_share"] * 100)] if o["target_cpu_share"] else []
        if c != "alone":
            notes.append("medians' ratio %s" % fmt(o["ratio_of_medians"], "", 4))
        if share is not None:
            notes.append("watcher CPU %s%%" % fmt(share * 100))
        if sps:
            notes.append("%s samples/s" % fmt(sps))
        o["note"] = ", ".join(notes)
    return out


def target_java_mt(avail, res):
    """2c: the throughput of a multi-threaded, allocation-heavy target (a
    statement exporter on one thread per core) alone, watched by gctop with
    and without its agent, and under JFR's profile settings, in blocks of
    one JVM per round (see mt_round), on every JDK of MT_JDKS installed."""
    rounds = ROUNDS or (1 if QUICK else 3)
    # String.format and friends take the JIT some 5 s to compile at full
    # speed on two cores: a longer warm-up than AllocLoop's.
    warm, secs = (8, 4) if QUICK else (12, 8)
    threads = os.cpu_count() or 2
    subprocess.run(["javac", "--release", "17", "-d", JCLS, os.path.join(ROOT, "bench", "java", "Exporter.java")],
                   check=True)
    agents = dict(mt_agents())
    gctops = [c for c in MT_CONFIGS if c.startswith("gctop")] + list(agents)
    jdks = [(label, os.path.join(home, "bin", "java")) for label, home in MT_JDKS
            if os.path.exists(os.path.join(home, "bin", "java"))]
    if os.environ.get("GCTOP_MT_JDKS"):
        jdks = [j for j in jdks if j[0] in os.environ["GCTOP_MT_JDKS"].split(",")]
    jfr = os.path.join(tmpdir, "jfr-repository")
    os.makedirs(jfr, exist_ok=True)
    res["target_java_mt"] = {}
    for label, java in jdks:
        load, raw = [loadavg()[0]], []
        for r in range(rounds):
            # gctop's configs rotate; JFR goes last, as what it leaves in the
            # JVM once stopped (its threads, instrumented classes) stays.
            order = gctops[r % len(gctops):] + gctops[:r % len(gctops)] + ["jfr profile"]
            log("target java mt (%s): round %d/%d, %s" % (label, r + 1, rounds, ", ".join(order)))
            raw.append(mt_round(java, order, agents, warm, secs, jfr, threads))
        load.append(loadavg()[0])
        out = mt_summary(raw, gctops + ["jfr profile"])
        res["target_java_mt"][label] = {"configs": out, "raw": raw, "load_1min": load, "threads": threads}
        target_table("2c. Java Exporter throughput, %s, %d threads (%d rounds, one JVM each: %d s blocks, "
                     "each config between two alone blocks; load %.1f-%.1f)"
                     % (label, threads, rounds, secs, load[0], load[1]), out)


# ---------------------------------------------------------------- 2d. a .NET service, sampled

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
    out = os.path.join(tmpdir, out_name)
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
                                   "--providers", SVC_TRACE_PROVIDERS, "-o", os.path.join(tmpdir, "svc.nettrace")]}[name]
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
        path = os.path.join(tmpdir, "svc.nettrace")
        info["trace_mib"] = os.path.getsize(path) / 1048576 if os.path.exists(path) else None
        if os.path.exists(path):
            os.unlink(path)
    return info


def svc_round(configs, warm, secs, avail):
    """One Service process: warm-up, then alone, and each config followed by
    alone again (as mt_round for the JVM), so that a config is compared
    with the same process just before and after it. Returns blocks as
    mt_summary takes them: (config, per-second requests, target CPU, info)."""
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
    rounds = ROUNDS or (1 if QUICK else 3)
    # the first 3-4 s run at a fraction of the speed (tier-0 code, the GC's
    # first budgets); 12 s leave a margin as on the JVM
    warm, secs = (6, 4) if QUICK else (12, 10)
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
    out = mt_summary(raw, configs)
    svc_summary(out, raw, configs)
    out["_load_1min"] = load
    out["_raw"] = raw
    svc_table(out, configs, rounds, warm, secs, load)
    out["_shape"] = SVC_SHAPE
    res["target_dotnet_service"] = out


def svc_summary(out, raw, configs):
    """What mt_summary leaves out: per CPU second of the target, the GC's
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


# ---------------------------------------------------------------- 3. growth

def sites(avail, res):
    """gctop --allocators against N distinct sites in a crafted segment, with
    tables the size of the agent's (1024 frames, 512 types: the rest is
    counted as dropped) and with tables sized to hold them (up to 65536)."""
    counts = [10, 1000, 100000] if QUICK else [10, 100, 1000, 10000, 50000, 100000]
    reps = 1 if QUICK else 2
    n = 11 if QUICK else 21
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
            jpath = os.path.join(tmpdir, "sites.json")
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
        r = subprocess.run([REPLAY, NETTRACE, "1" if QUICK else "3"], stdout=subprocess.PIPE, text=True)
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
    rates = [1000, 10000, 50000] if QUICK else [1000, 5000, 10000, 20000, 50000, 200000]
    n = 6 if QUICK else 16
    for rate in rates:
        gcs = rate / epg
        t = dotnet_target(["gc", "%.1f" % gcs, 3600])
        wait_line(t, "gcs_per_s", 20)
        jpath = os.path.join(tmpdir, "events.json")
        achieved = []
        ru_path = os.path.join(tmpdir, "events.rusage")
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


# ---------------------------------------------------------------- 1e. poll tick

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
    wake1 = read_wakeups(os.path.join(tmpdir, "rusage.txt"))
    path = os.path.join(tmpdir, "tick.json")
    with open(path, "w") as f:
        cpun, rss, wall, rc = measured([binary, "-p", str(pid), "--json", "-d", "1", "-n", str(secs + 1)], stdout=f)
    waken = read_wakeups(os.path.join(tmpdir, "rusage.txt"))
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
    wake0 = read_wakeups(os.path.join(tmpdir, "rusage.txt"))
    cpun = measured([WAKELOOP, "%.1f" % rate, str(secs)])[0]
    waken = read_wakeups(os.path.join(tmpdir, "rusage.txt"))
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
    secs = 6 if QUICK else 20
    rounds = ROUNDS or (1 if QUICK else 3)
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


# ---------------------------------------------------------------- main

SECTIONS = [("own", own_cost), ("tick", tick_cost), ("startup", startup), ("tui", tui_bytes), ("picker", picker),
            ("serve", serve), ("serve-hostile", serve_hostile), ("ops-agent", ops_agent),
            ("target-java", target_java), ("target-java-mt", target_java_mt),
            ("target-dotnet", target_dotnet), ("target-dotnet-service", target_dotnet_service),
            ("sites", sites), ("events", events)]


def main():
    global QUICK, ROUNDS, tmpdir
    args = sys.argv[1:]
    only = None
    while args:
        a = args.pop(0)
        if a == "--quick":
            QUICK = True
        elif a == "--rounds" and args:
            ROUNDS = int(args.pop(0))
        elif a == "--only" and args:
            only = args.pop(0).split(",")
        else:
            print(__doc__)
            return 2
    for f in (GCTOP, SEGPUB, REPLAY, RUSAGE, WAKELOOP):
        if not os.path.exists(f):
            log("bench: %s is missing; run make bench (it builds it)" % f)
            return 1
    for tool in ("java", "javac", "jstat", "top", "tmux"):
        if not shutil.which(tool):
            log("bench: %s is not installed" % tool)
            return 1
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    tmpdir = tempfile.mkdtemp(prefix="gctop-bench.")
    os.makedirs(RESULTS, exist_ok=True)
    res = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "quick": QUICK, "machine": machine(),
           "load_before": loadavg()}
    m = res["machine"]
    print("gctop benchmarks%s: %s, nproc %d, %s GiB, kernel %s, %s, .NET %s; load %s"
          % (" (quick)" if QUICK else "", m["cpu_model"], m["nproc"], m["mem_total_gib"], m["kernel"], m["jdk"],
             ",".join(m["dotnet_runtimes"] or []) or "none", " ".join("%.2f" % x for x in res["load_before"])))
    if res["load_before"][0] > 1.0:
        print("  note: load is above 1; figures will be noisy")
    try:
        tmux("start-server", check=False)
        avail = prepare()
        res["available"] = avail
        for note in avail["notes"]:
            print("  note: " + note)
        for name, fn in SECTIONS:
            if only and name not in only:
                continue
            t0 = time.monotonic()
            fn(avail, res)
            res.setdefault("section_seconds", {})[name] = time.monotonic() - t0
            save(res)
    finally:
        res["load_after"] = loadavg()
        save(res)
        cleanup()
    print("\nload average before %s, after %s" % (" ".join("%.2f" % x for x in res["load_before"]),
                                                  " ".join("%.2f" % x for x in res["load_after"])))
    print("raw figures: %s" % os.path.relpath(res["_path"], ROOT))
    return 0


def save(res):
    if "_path" not in res:
        res["_path"] = os.path.join(RESULTS, "bench-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
    with open(res["_path"], "w") as f:
        json.dump(res, f, indent=1, default=str)
    latest = os.path.join(RESULTS, "latest.json")
    try:
        if os.path.lexists(latest):
            os.unlink(latest)
        os.symlink(os.path.basename(res["_path"]), latest)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
