"""1i, as light as top (issue 40): the peak RSS of gctop runs that do not
serve (-b -n 1 against a JVM, -l, --help) beside top -b -n 1's, and their
start-up wall time beside top, jps and dotnet-counters ps, interleaved in
one run; and how many shared libraries each binary asks for (ldd). --serve
alone loads libmicrohttpd, GnuTLS, libyaml, libcrypt and zlib
(frontends/serve_libs.h)."""
import os
import re
import subprocess

from harness import GCTOP, RUN, log, kill, measured, idle_jvm
from report import med, spread, fmt, table


def ldd_count(path):
    """The shared libraries path asks for, as ldd lists them (vdso aside)."""
    try:
        out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return None
    return len([line for line in out.splitlines() if "=>" in line or re.match(r"\s*/", line)]) or None


def lean(avail, res):
    """Peak RSS and wall time of the runs that do not serve, beside top's."""
    reps = 3 if RUN.quick else 10
    t = idle_jvm()
    pid = str(t.pid)
    counters = avail.get("dotnet_counters")
    runs = {
        "gctop -b -n 1 -p JVM": [GCTOP, "-b", "-n", "1", "-p", pid],
        "gctop -l": [GCTOP, "-l"],
        "gctop --help": [GCTOP, "--help"],
        "top -b -n 1": ["top", "-b", "-n", "1"],
        "jps": ["jps"],
    }
    if counters:
        runs["dotnet-counters ps"] = [counters, "ps"]
    raw = {}
    for r in range(reps):
        for name, argv in runs.items():
            cpu, rss, wall, rc = measured(argv)
            raw.setdefault(name, []).append({"cpu_s": cpu, "maxrss_kib": rss, "wall_s": wall, "rc": rc})
    kill(t)
    top_rss = med([x["maxrss_kib"] for x in raw["top -b -n 1"]])
    rows, out = [], {}
    for name, v in raw.items():
        rss = med([x["maxrss_kib"] for x in v])
        wall = med([x["wall_s"] for x in v])
        out[name] = {"maxrss_kib": rss, "maxrss_kib_spread": spread([x["maxrss_kib"] for x in v]),
                     "wall_s": wall, "wall_s_spread": spread([x["wall_s"] for x in v]),
                     "rc": sorted({x["rc"] for x in v})}
        lo, hi = spread([x["wall_s"] for x in v])
        rows.append([name, fmt(rss / 1024 if rss else None, " MiB"),
                     fmt(rss / top_rss if rss and top_rss else None, "x"),
                     fmt(wall * 1000 if wall is not None else None, " ms"),
                     "%s-%s" % (fmt(lo * 1000 if lo is not None else None), fmt(hi * 1000 if hi is not None else None)),
                     ",".join(str(c) for c in out[name]["rc"])])
    table("1i. As light as top: peak RSS and start-up wall time (median of %d, interleaved)" % reps,
          ["run", "peak RSS", "vs top", "wall", "wall min-max (ms)", "exit"], rows)
    if not counters:
        print("  (dotnet-counters is not installed here: no dotnet-counters ps row)")
    libs = {"gctop": ldd_count(GCTOP), "top": ldd_count(_which("top"))}
    print("  shared libraries asked for (ldd): gctop %s, top %s; --serve loads 5 more and theirs when it starts"
          % (libs["gctop"], libs["top"]))
    res["lean"] = {"runs": out, "ldd": libs, "reps": reps}
    log("lean: done")


def _which(tool):
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = os.path.join(d, tool)
        if os.access(p, os.X_OK):
            return p
    return tool
