#!/usr/bin/env python3
"""A leak to its death (make bench's leak-death section): how gctop's
projected time to exhaustion and its live-set-growth finding compare with
the moment a leaking process really dies.

usage: python3 bench/leak_death.py [--quick] [--rounds N]
  --quick   one round (the default is 2)
  --rounds  rounds; each runs the JVM and the .NET program side by side

The tests (tests/integration/jvm_live_set.sh, dotnet_live_set.sh) hold the
projection to the runtime's own limit and the workload's own rate, and end
the workloads before they die: the trend needs a minute, a death two. This
section lets the leak kill them, once per round, as those tests once did:
  jvm     tests/java/LeakWorkload (1.5 MiB/s among churn and objects that
          die old) on G1, -Xmx256m, until OutOfMemoryError
  dotnet  tests/dotnet/Leak (2.5 MB/s among churn), Workstation GC under a
          320 MiB hard limit, until OutOfMemoryException (skipped with a
          message without a .NET SDK)
with gctop -p PID --json -d 2 beside each, every line stamped on arrival
with CLOCK_MONOTONIC, the clock both workloads print their death in. Per
run: the first projection (exhaustion_s at gctop's first sample that had
one) against the time the process then took to die, the same for the last
projection made 30 s or more before the death (when there is still time
to act), the time from the first sample with the
live-set-growth finding to the death (the lead), and the last live set
before the death as a share of the limit gctop projected to. Prints a
table and writes every figure to bench/results/leak-death-<time>.json.
Every process it starts is killed when it ends, also on Ctrl-C or SIGTERM.
"""

import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.path.join(ROOT, os.environ.get("GCTOP_BUILD", "build"))
GCTOP = os.environ.get("GCTOP_BIN") or os.path.join(BUILD, "gctop")
WORK = os.path.join(BUILD, "bench", "leak")
RESULTS = os.path.join(ROOT, "bench", "results")
# The runs of the tests that once leaked to the death (jvm_live_set.sh's G1
# run, dotnet_live_set.sh's Workstation run): LeakWorkload's LEAK_KB_PER_S
# SECONDS THREADS BASE_MB TURNOVER_MB TURNOVER_S WARM_S, and Leak's RATE
# THREADS SECONDS CHURN. SECONDS is longer than either takes to die.
JVM_FLAGS = ["-Xmx256m", "-Xms256m", "-XX:+UseG1GC", "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=20"]
JVM_ARGS = ["1536", "300", "2", "40", "16", "8", "10"]
DOTNET_ENV = {"DOTNET_gcServer": "0", "DOTNET_GCHeapHardLimit": "0x14000000", "DOTNET_GCConserveMemory": "9"}
DOTNET_ARGS = ["2500000", "2", "300", "15000000"]
# A run that has not died by then is reported as such (about 125 s each).
DEATH_WAIT_S = 300
SAMPLE_S = "2"
# The last projection reported is the last made this long before the death
# (the tests' finding must come 30 s ahead at least: the time to act).
LATE_NS = 30 * 1000000000

children = []


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def spawn(argv, **kw):
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, **kw)
    children.append(p)
    return p


def stop(p):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def on_signal(sig, frame):
    for p in children:
        stop(p)
    sys.exit(128 + sig)


class Stamped:
    """A process's stdout lines, each with the CLOCK_MONOTONIC ns it arrived at."""

    def __init__(self, argv, env=None):
        self.lines = []
        self.p = spawn(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        self.t = threading.Thread(target=self.read, daemon=True)
        self.t.start()

    def read(self):
        for line in self.p.stdout:
            self.lines.append((time.monotonic_ns(), line))

    def wait_line(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(line.startswith(prefix) for _, line in list(self.lines)):
                return True
            if self.p.poll() is not None:
                return False
            time.sleep(0.1)
        return False


def prepare():
    """Builds the two workloads; returns {runtime: argv or None} and notes."""
    notes, argv = [], {}
    classes = os.path.join(WORK, "java")
    os.makedirs(classes, exist_ok=True)
    subprocess.run(["javac", "-d", classes, os.path.join(ROOT, "tests", "java", "LeakWorkload.java")], check=True)
    argv["jvm"] = ["java"] + JVM_FLAGS + ["-cp", classes, "LeakWorkload"] + JVM_ARGS
    out = os.path.join(WORK, "dotnet")
    if subprocess.run(["sh", "-c", "command -v dotnet"], stdout=subprocess.DEVNULL).returncode != 0:
        notes.append("no .NET SDK (dotnet): the .NET run is skipped")
        argv["dotnet"] = None
    elif subprocess.run(["dotnet", "build", "-c", "Release", "-o", out, os.path.join(ROOT, "tests", "dotnet", "Leak")],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        notes.append("tests/dotnet/Leak did not build: the .NET run is skipped")
        argv["dotnet"] = None
    else:
        argv["dotnet"] = [os.path.join(out, "Leak")] + DOTNET_ARGS
    return argv, notes


def dotnet_socket(pid, timeout):
    """The .NET runtime of pid has opened its diagnostics socket."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(n.startswith("dotnet-diagnostic-%d-" % pid) for n in os.listdir("/tmp")):
            return True
        time.sleep(0.1)
    return False


def death_of(runtime, lines):
    """The CLOCK_MONOTONIC ns at which the workload reported its death, or None."""
    for _, line in lines:
        w = line.split()
        if runtime == "jvm" and len(w) == 2 and w[0] == "oom":
            return int(w[1])
        if runtime == "dotnet" and line.startswith('{"t_ns"') and '"oom":true' in line:
            return json.loads(line)["t_ns"]
    return None


def run_one(runtime, argv):
    """One workload leaking to its death with gctop beside it; the raw samples."""
    env = dict(os.environ, **DOTNET_ENV) if runtime == "dotnet" else None
    w = Stamped(argv, env)
    ready = "phase steady" if runtime == "jvm" else '{"t_ns"'
    if not w.wait_line(ready, 60) or (runtime == "dotnet" and not dotnet_socket(w.p.pid, 10)):
        stop(w.p)
        return {"error": "the workload did not start"}
    g = Stamped([GCTOP, "-p", str(w.p.pid), "--json", "-d", SAMPLE_S, "-n", "1000"])
    try:
        w.p.wait(DEATH_WAIT_S)
    except subprocess.TimeoutExpired:
        pass
    stop(w.p)
    g.p.wait(10)
    w.t.join(5)
    g.t.join(5)
    samples = []
    for at, line in g.lines:
        try:
            samples.append((at, json.loads(line)))
        except ValueError:
            continue
    return {"exit": w.p.returncode, "died_ns": death_of(runtime, w.lines),
            "started_ns": g.lines[0][0] if g.lines else None, "samples": samples}


def figures(raw):
    """The summary of one run (see the module's doc)."""
    died, samples = raw.get("died_ns"), raw.get("samples") or []
    if died is None:
        return {"died": False, "exit": raw.get("exit"), "error": raw.get("error")}
    before = [(at, s) for at, s in samples if at < died and s.get("live_set")]
    projected = [(at, s) for at, s in before if s["live_set"].get("exhaustion_s") is not None]
    called = [(at, s) for at, s in before if any(f["id"] == "live-set-growth" for f in s.get("findings") or [])]
    out = {"died": True, "exit": raw.get("exit"),
           "died_after_watch_s": (died - raw["started_ns"]) / 1e9 if raw.get("started_ns") else None}

    def projection(at, s):
        real = (died - at) / 1e9
        exh = s["live_set"]["exhaustion_s"]
        return {"projected_s": exh, "died_in_s": real, "error": (exh - real) / real if real > 0 else None}

    if projected:
        out["first"] = projection(*projected[0])
        early = [(at, s) for at, s in projected if died - at >= LATE_NS]
        if early:
            out["late"] = projection(*early[-1])
    if called:
        out["finding_lead_s"] = (died - called[0][0]) / 1e9
        out["finding_severity"] = [f["severity"] for f in called[0][1]["findings"] if f["id"] == "live-set-growth"][0]
    live = [s["live_set"] for _, s in before if s["live_set"].get("bytes") is not None]
    if live and live[-1].get("limit_bytes"):
        out["last_live_share_of_limit"] = live[-1]["bytes"] / live[-1]["limit_bytes"]
    return out


def pct(x):
    return "-" if x is None else "%+.1f%%" % (x * 100)


def sec(x):
    return "-" if x is None else "%.1f" % x


def table(runs):
    print("\n5. A leak to its death: gctop's projection and finding against the real death "
          "(gctop -p PID --json -d %s)" % SAMPLE_S)
    header = ["run", "round", "died after", "1st projection", "it died in", "error", "last 30 s ahead", "it died in",
              "error", "finding lead", "last live / limit"]
    rows = []
    for r in runs:
        f = r["figures"]
        if not f.get("died"):
            rows.append([r["runtime"], str(r["round"]), "did not die (exit %s%s)" % (
                f.get("exit"), ", " + f["error"] if f.get("error") else "")] + [""] * 8)
            continue
        first, last = f.get("first", {}), f.get("late", {})
        rows.append([r["runtime"], str(r["round"]), sec(f.get("died_after_watch_s")) + " s",
                     sec(first.get("projected_s")), sec(first.get("died_in_s")), pct(first.get("error")),
                     sec(last.get("projected_s")), sec(last.get("died_in_s")), pct(last.get("error")),
                     sec(f.get("finding_lead_s")) + " s" + (" (%s)" % f["finding_severity"] if "finding_severity" in f
                                                            else ""),
                     "%.0f%%" % (f["last_live_share_of_limit"] * 100) if "last_live_share_of_limit" in f else "-"])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    for row in [header] + rows:
        print("  " + "  ".join(c.ljust(widths[i]) for i, c in enumerate(row)))
    for runtime in ("jvm", "dotnet"):
        errs = [r["figures"]["first"]["error"] for r in runs
                if r["runtime"] == runtime and r["figures"].get("first", {}).get("error") is not None]
        if errs:
            print("  %s: first projection's error median %s (%s to %s)" % (
                runtime, pct(statistics.median(errs)), pct(min(errs)), pct(max(errs))))


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def main():
    rounds = 2
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--quick":
            rounds = 1
        elif a == "--rounds" and args:
            rounds = int(args.pop(0))
        else:
            print(__doc__)
            return 2
    if not os.path.exists(GCTOP):
        log("leak_death: %s is missing; run make" % GCTOP)
        return 1
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    os.makedirs(RESULTS, exist_ok=True)
    res = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "kernel": platform.release(), "nproc": os.cpu_count(),
           "load_before": loadavg(), "runs": []}
    try:
        argv, res["notes"] = prepare()
        for note in res["notes"]:
            print("  note: " + note)
        for r in range(rounds):
            log("leak-death: round %d of %d (about two minutes)" % (r + 1, rounds))
            done = {}
            # side by side, as the tests ran them: a round is one death's time
            threads = [threading.Thread(target=lambda rt=rt: done.__setitem__(rt, run_one(rt, argv[rt])))
                       for rt in ("jvm", "dotnet") if argv[rt]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for rt, raw in sorted(done.items()):
                res["runs"].append({"runtime": rt, "round": r + 1, "figures": figures(raw),
                                    "samples": [s for _, s in raw.get("samples") or []],
                                    "sample_mono_ns": [at for at, _ in raw.get("samples") or []],
                                    "died_ns": raw.get("died_ns")})
    finally:
        for p in children:
            stop(p)
        res["load_after"] = loadavg()
        path = os.path.join(RESULTS, "leak-death-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
        with open(path, "w") as f:
            json.dump(res, f, indent=1)
    table(res["runs"])
    print("load average before %s, after %s; raw figures: %s" % (
        " ".join("%.2f" % x for x in res["load_before"]), " ".join("%.2f" % x for x in res["load_after"]),
        os.path.relpath(path, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
