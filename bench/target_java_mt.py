"""2c, a multi-threaded, allocation-heavy Java target (the Exporter on one
thread per core) alone, watched by gctop with and without its agent, and
under JFR's profile settings, on every JDK of MT_JDKS installed
(target-java-mt)."""
import os
import subprocess

from block_ratios import blocks_summary
from harness import (ROOT, GCTOP, JCLS, LOOP_JVM, RUN, log, spawn, kill, proc_cpu_ns, loadavg, hsperf_ready,
    collect_lines, last_allocators)
from target_cost import target_table


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
        argv.insert(3, "--allocators=agent")
    env = dict(os.environ, GCTOP_AGENT=agent) if agent else None
    w = spawn(argv, stdout=open(os.path.join(RUN.tmpdir, "watch.out"), "w"), env=env)
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
            info.update(last_allocators(os.path.join(RUN.tmpdir, "watch.out")))
        blocks.append((c, v, share, info))
        # The agent stops sampling when no reader has beaten for 5 s.
        collect_lines(t, 7 if "--allocators" in c else 2, r"ops_per_s (\d+)")
        blocks.append(("alone",) + mt_block(t, secs) + ({},))
    kill(t)
    return blocks


def target_java_mt(avail, res):
    """2c: the throughput of a multi-threaded, allocation-heavy target (a
    statement exporter on one thread per core) alone, watched by gctop with
    and without its agent, and under JFR's profile settings, in blocks of
    one JVM per round (see mt_round), on every JDK of MT_JDKS installed."""
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    # String.format and friends take the JIT some 5 s to compile at full
    # speed on two cores: a longer warm-up than AllocLoop's.
    warm, secs = (8, 4) if RUN.quick else (12, 8)
    threads = os.cpu_count() or 2
    subprocess.run(["javac", "--release", "17", "-d", JCLS, os.path.join(ROOT, "bench", "java", "Exporter.java")],
                   check=True)
    agents = dict(mt_agents())
    gctops = [c for c in MT_CONFIGS if c.startswith("gctop")] + list(agents)
    jdks = [(label, os.path.join(home, "bin", "java")) for label, home in MT_JDKS
            if os.path.exists(os.path.join(home, "bin", "java"))]
    if os.environ.get("GCTOP_MT_JDKS"):
        jdks = [j for j in jdks if j[0] in os.environ["GCTOP_MT_JDKS"].split(",")]
    jfr = os.path.join(RUN.tmpdir, "jfr-repository")
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
        out = blocks_summary(raw, gctops + ["jfr profile"])
        res["target_java_mt"][label] = {"configs": out, "raw": raw, "load_1min": load, "threads": threads}
        target_table("2c. Java Exporter throughput, %s, %d threads (%d rounds, one JVM each: %d s blocks, "
                     "each config between two alone blocks; load %.1f-%.1f)"
                     % (label, threads, rounds, secs, load[0], load[1]), out)
