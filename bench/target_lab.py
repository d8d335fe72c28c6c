"""2e, what --allocators costs the seed's Lab workload (tests/java/Lab.java,
one request thread per core, as fast as it goes): its requests per second
alone, with gctop reading its own flight recording (--allocators, JFR),
with JFR's own profile settings (jcmd JFR.start settings=profile), and
with gctop's agent (--allocators=agent), in blocks of one JVM per round
(block_ratios); and, while gctop reads its recording, gctop's own CPU per
second and RSS and the disk the JVM's JFR repository holds (target-lab).
On every JDK of MT_JDKS installed."""
import os
import re
import subprocess
import time

from block_ratios import blocks_summary
from harness import ROOT, GCTOP, JCLS, LOOP_JVM, RUN, log, spawn, kill, proc_cpu_ns, proc_status, loadavg, hsperf_ready
from harness import collect_lines
from report import med, spread, fmt, table
from target_cost import target_table
from target_java_mt import MT_JDKS, mt_block

JFR_GCTOP, JFR_PROFILE, AGENT = "gctop --allocators (JFR)", "jfr profile", "gctop --allocators=agent"
OPS = r"ops_per_s (\d+)"


def jcmd(java, pid, *args):
    return subprocess.run([os.path.join(os.path.dirname(java), "jcmd"), str(pid)] + list(args),
                          capture_output=True, text=True).stdout


def repository_path(java, pid):
    """The JVM's JFR repository (where its chunks are), or None before a
    recording has made one. jcmd is a JVM of its own: asked once, before
    a block, never during one."""
    m = re.search(r"Repository path: (/\S+)", jcmd(java, pid, "JFR.configure"))
    return m.group(1) if m and os.path.isdir(m.group(1)) else None


def dir_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def lab_watch(java, pid, name, jfr_path):
    """Starts what config name runs against pid; returns (watcher, stop)."""
    if name == JFR_PROFILE:
        jcmd(java, pid, "JFR.start", "name=bench", "settings=profile",
             "filename=%s" % os.path.join(jfr_path, "bench-%d.jfr" % pid))
        return None, lambda: jcmd(java, pid, "JFR.stop", "name=bench")
    argv = [GCTOP, "-p", str(pid), "--allocators" if name == JFR_GCTOP else "--allocators=agent", "--json", "-d", "1"]
    w = spawn(argv, stdout=open(os.path.join(RUN.tmpdir, "lab-watch.out"), "w"))
    return w, lambda: kill(w)


class WatchReadings:
    """What a config's block reads beside the target's throughput, once a
    second: the watcher's RSS and the JFR repository's size; and at its
    end the watcher's CPU share over the block."""

    def __init__(self, w, repository):
        self.w, self.repository = w, repository
        self.c0 = proc_cpu_ns(w.pid) if w else 0
        self.t0 = time.monotonic()
        self.rss, self.disk = [], []

    def tick(self):
        if self.repository:
            self.disk.append(dir_bytes(self.repository))
        if self.w:
            self.rss.append(proc_status(self.w.pid, "VmRSS"))

    def info(self):
        took = time.monotonic() - self.t0
        out = {}
        if self.w:
            out["watcher_cpu_share"] = (proc_cpu_ns(self.w.pid) - self.c0) / 1e9 / took
            out["watcher_rss_kib"] = max([r for r in self.rss if r] or [0]) or None
            out["watcher_hwm_kib"] = proc_status(self.w.pid, "VmHWM")
        if self.disk:
            out["repository_bytes_max"] = max(self.disk)
        return out


def lab_measured_block(t, w, repository, secs):
    """A config's block: the target's ops and CPU share, and WatchReadings
    read between its lines (it prints once a second)."""
    readings = WatchReadings(w, repository)
    c0, t0 = proc_cpu_ns(t.pid), time.monotonic()
    v = []
    while time.monotonic() < t0 + secs + 1:
        v += collect_lines(t, 1, OPS)
        readings.tick()
    share = (proc_cpu_ns(t.pid) - c0) / 1e9 / (time.monotonic() - t0)
    return v[1:], share, readings.info()


def lab_round(java, configs, warm, secs, jfr_path, threads):
    """One Lab JVM: warm-up, alone, and each config followed by alone again
    (as target_java_mt's mt_round)."""
    argv = [java] + LOOP_JVM + ["-cp", JCLS, "Lab", "0", "3600", str(threads)]
    t = spawn(argv, stdout=subprocess.PIPE, text=True, bufsize=1)
    hsperf_ready(t.pid)
    collect_lines(t, warm, OPS)
    blocks = [("alone",) + mt_block(t, secs) + ({},)]
    for c in configs:
        w, stop = lab_watch(java, t.pid, c, jfr_path)
        # Attach, the first JFR.start (JFR's Java side loads), the agent's
        # first interval: not measured.
        collect_lines(t, 3, OPS)
        repository = repository_path(java, t.pid) if c != AGENT else None
        collect_lines(t, 2, OPS)
        v, share, info = lab_measured_block(t, w, repository, secs)
        stop()
        blocks.append((c, v, share, info))
        # The agent stops sampling when no reader has beaten for 5 s.
        collect_lines(t, 7 if c == AGENT else 3, OPS)
        blocks.append(("alone",) + mt_block(t, secs) + ({},))
    kill(t)
    return blocks


def per_cpu_ratios(raw, configs):
    """Each config's requests per CPU-second of the target over the mean
    of the alone blocks either side, the median over rounds. On a machine
    whose other work takes the target's cores, the requests per wall
    second follow the scheduler's share more than the watcher; the
    requests per CPU-second the target spent follow only what its own
    work costs it (the recorder's or the agent's part in it included).
    The watcher's own CPU is beside it (watcher CPU)."""
    def per_cpu(block):
        v, share = block[1], block[2]
        v = [x for x in v if x is not None]
        return sum(v) / len(v) / share if v and share else None
    out = {c: [] for c in configs}
    for blocks in raw:
        for i, b in enumerate(blocks):
            if b[0] == "alone" or b[0] not in out:
                continue
            mine, around = per_cpu(b), [per_cpu(blocks[i - 1]), per_cpu(blocks[i + 1])]
            if mine and all(around):
                out[b[0]].append(mine / (sum(around) / 2))
    return {c: (med(v), spread(v)) for c, v in out.items()}


def lab_costs_table(name, out, raw):
    cpu_ratio = per_cpu_ratios(raw, [JFR_GCTOP, JFR_PROFILE, AGENT])
    rows = []
    for c in (JFR_GCTOP, JFR_PROFILE, AGENT):
        out.setdefault(c, {})["ratio_per_cpu"] = cpu_ratio[c][0]
        out[c]["ratio_per_cpu_spread"] = cpu_ratio[c][1]
        infos = out.get(c, {}).get("infos") or []
        cpu = med([i.get("watcher_cpu_share") for i in infos])
        rss = med([i.get("watcher_rss_kib") for i in infos])
        hwm = med([i.get("watcher_hwm_kib") for i in infos])
        disk = med([i.get("repository_bytes_max") for i in infos])
        lo, hi = cpu_ratio[c][1]
        rows.append([c, fmt(cpu_ratio[c][0], "", 4), "%s-%s" % (fmt(lo, "", 4), fmt(hi, "", 4)),
                     fmt(cpu * 1000 if cpu is not None else None, " ms/s"), fmt(rss / 1024 if rss else None, " MiB"),
                     fmt(hwm / 1024 if hwm else None, " MiB"), fmt(disk / 1e6 if disk else None, " MB")])
    table("%s: requests per CPU-second of the target against alone (see per_cpu_ratios), the watcher's CPU per "
          "second and RSS, the JFR repository's size (medians of the rounds)" % name,
          ["config", "per target CPU-s", "round ratios", "watcher CPU", "watcher RSS", "watcher peak RSS", "repository"],
          rows)


def target_lab(avail, res):
    """2e: Lab's requests per second alone, with gctop's JFR recording, with
    JFR's profile settings and with gctop's agent (see lab_round)."""
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    warm, secs = (8, 4) if RUN.quick else (12, 8)
    threads = os.cpu_count() or 2
    subprocess.run(["javac", "--release", "17", "-d", JCLS, os.path.join(ROOT, "tests", "java", "Lab.java")],
                   check=True)
    gctops = [JFR_GCTOP, AGENT]
    jdks = [(label, os.path.join(home, "bin", "java")) for label, home in MT_JDKS
            if os.path.exists(os.path.join(home, "bin", "java"))]
    if os.environ.get("GCTOP_MT_JDKS"):
        jdks = [j for j in jdks if j[0] in os.environ["GCTOP_MT_JDKS"].split(",")]
    jfr = os.path.join(RUN.tmpdir, "jfr-lab")
    os.makedirs(jfr, exist_ok=True)
    res["target_lab"] = {}
    for label, java in jdks:
        load, raw = [loadavg()[0]], []
        for r in range(rounds):
            # gctop's two rotate; JFR's profile goes last, as in 2c.
            order = gctops[r % 2:] + gctops[:r % 2] + [JFR_PROFILE]
            log("target lab (%s): round %d/%d, %s" % (label, r + 1, rounds, ", ".join(order)))
            raw.append(lab_round(java, order, warm, secs, jfr, threads))
        load.append(loadavg()[0])
        out = blocks_summary(raw, gctops + [JFR_PROFILE])
        res["target_lab"][label] = {"configs": out, "raw": raw, "load_1min": load, "threads": threads}
        target_table("2e. Lab requests/s, %s, %d threads (%d rounds, one JVM each: %d s blocks, each config between "
                     "two alone blocks; load %.1f-%.1f)" % (label, threads, rounds, secs, load[0], load[1]), out)
        lab_costs_table("2e'. Lab, " + label, out, raw)
