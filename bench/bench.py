"""gctop's benchmarks (make bench): its own cost against jstat, top and
dotnet-counters, its cost to the target, and how its cost grows. Prints
tables and writes the raw figures as JSON under bench/results/.

usage: python3 bench/bench.py [--quick] [--rounds N] [--only SECTION[,SECTION...]]
  sections: own, tick, startup, tui, picker, lean, serve, serve-hostile, ops-agent,
            fleet-scale, churn,
            target-java, target-java-mt, target-dotnet, target-dotnet-service,
            sites, events
  --quick   short runs (1 round, few samples): to try the scripts, not to
            quote
  --rounds  rounds of the interleaved sections (own cost, target cost;
            default 3)

Every process it starts is killed when it ends, also on Ctrl-C or SIGTERM.
See bench/README.md for what each figure means. This file parses the
options and runs the sections (SECTIONS), each in a module of its own
under bench/; bench/harness.py holds what they share."""
import importlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from harness import (GCTOP, SEGPUB, REPLAY, RUSAGE, WAKELOOP, RESULTS, ROOT, RUN, log, cleanup, on_signal, loadavg,
                     machine, prepare)
from tmux_pane import tmux

# The sections in the order they run: the name --only takes, and the
# function(avail, res) that runs it, as "module.function" of a file in
# bench/ (imported when the section runs). A new section is one line here.
SECTIONS = [
    ("own", "own_cost.own_cost"),
    ("tick", "tick_cost.tick_cost"),
    ("startup", "own_cost.startup"),
    ("tui", "own_cost.tui_bytes"),
    ("picker", "own_cost.picker"),
    ("lean", "lean_cost.lean"),
    ("serve", "serve_cost.serve"),
    ("serve-hostile", "serve_cost.serve_hostile"),
    ("ops-agent", "serve_cost.ops_agent"),
    ("fleet-scale", "fleet_scale.fleet_scale"),
    ("churn", "fleet_scale.churn"),
    ("target-java", "target_cost.target_java"),
    ("target-java-mt", "target_java_mt.target_java_mt"),
    ("target-dotnet", "target_cost.target_dotnet"),
    ("target-dotnet-service", "target_dotnet_service.target_dotnet_service"),
    ("sites", "growth.sites"),
    ("events", "growth.events"),
]


def section_function(where):
    """The function a SECTIONS entry names."""
    module, function = where.rsplit(".", 1)
    return getattr(importlib.import_module(module), function)


def main():
    args = sys.argv[1:]
    only = None
    while args:
        a = args.pop(0)
        if a == "--quick":
            RUN.quick = True
        elif a == "--rounds" and args:
            RUN.rounds = int(args.pop(0))
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
    RUN.tmpdir = tempfile.mkdtemp(prefix="gctop-bench.")
    os.makedirs(RESULTS, exist_ok=True)
    res = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "quick": RUN.quick, "machine": machine(),
           "load_before": loadavg()}
    m = res["machine"]
    print("gctop benchmarks%s: %s, nproc %d, %s GiB, kernel %s, %s, .NET %s; load %s"
          % (" (quick)" if RUN.quick else "", m["cpu_model"], m["nproc"], m["mem_total_gib"], m["kernel"], m["jdk"],
             ",".join(m["dotnet_runtimes"] or []) or "none", " ".join("%.2f" % x for x in res["load_before"])))
    if res["load_before"][0] > 1.0:
        print("  note: load is above 1; figures will be noisy")
    try:
        tmux("start-server", check=False)
        avail = prepare()
        res["available"] = avail
        for note in avail["notes"]:
            print("  note: " + note)
        for name, where in SECTIONS:
            if only and name not in only:
                continue
            t0 = time.monotonic()
            section_function(where)(avail, res)
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
