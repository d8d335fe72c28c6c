"""What every benchmark shares: where gctop and the bench tools are, the
run's settings (RUN), the processes a run starts (each one killed when the
run ends, also on Ctrl-C or SIGTERM), the targets it measures against and
the machine it runs on. bench/bench.py runs the sections; bench/census.py
uses the same helpers."""
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import time
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.environ.get("GCTOP_BUILD", "build")
B = os.path.join(ROOT, BUILD)
GCTOP = os.environ.get("GCTOP_BIN") or os.path.join(B, "gctop")
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

# What the run's entry point sets once and every section reads (as
# RUN.quick, so that a section sees the value set after it was imported).
RUN = types.SimpleNamespace(
    quick=False,       # --quick: short runs, to try the scripts
    rounds=None,       # --rounds: override the rounds of the interleaved sections
    tmpdir=None,       # the run's scratch directory, removed by cleanup()
)
children = []          # Popen objects still to kill
TMUX_SOCK = "gctopbench%d" % os.getpid()


def log(*a):
    print(*a, file=sys.stderr, flush=True)



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
    if RUN.tmpdir:
        shutil.rmtree(RUN.tmpdir, ignore_errors=True)


def on_signal(sig, frame):
    log("\nbench: interrupted; stopping everything it started")
    cleanup()
    sys.exit(130)


def measured(argv, stdout=subprocess.DEVNULL, timeout=300, env=None):
    """Runs argv to the end under the rusage launcher; returns (cpu_s,
    maxrss_kib, wall_s, rc)."""
    ru_path = os.path.join(RUN.tmpdir, "rusage.txt")
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


def grow_idle_jvms(jvms, count):
    """Starts small idle JVMs, ten at a time, until jvms holds count."""
    while len(jvms) < count:
        batch = [java_target("Idle", [1800], TINY_JVM) for _ in range(min(10, count - len(jvms)))]
        for p in batch:
            wait_line(p, "idle", 120)
            hsperf_ready(p.pid, 30)
        jvms.extend(batch)


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
