#!/usr/bin/env python3
"""gctop's live set against LeakWorkload's own count (issue 28).

usage: live_check.py watch OUT CMD...
    runs CMD (gctop --json ...) and writes each line it prints to OUT with
    the CLOCK_MONOTONIC nanoseconds it arrived at in front (the clock of the
    workload's System.nanoTime()); ends CMD when it is ended.
usage: live_check.py check WORKLOAD_OUT STAMPED LABEL [oom]
    prints a PASS:/FAIL: line per comparison as it is decided (the test
    harness counts them) and exits 0 once all are (tests/lib.sh comparator).

Tolerances, from the issue: the growth (live_set.growth_bps of gctop's last
sample that has one) within 15 % of the workload's own rate of retained
bytes (its count's slope from its first to its last line, or to its death);
with oom, the time to exhaustion gctop projected at its first sample that
had one, within 20 % of the time the workload then actually took to throw
OutOfMemoryError (its "oom NANOS" line), and the live-set-growth finding
in a sample at least 30 s before that.
"""
import json
import signal
import subprocess
import sys
import time


def watch(out, cmd):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)

    def stop(*_):
        proc.terminate()

    signal.signal(signal.SIGTERM, stop)
    with open(out, "w") as f:
        for line in proc.stdout:
            f.write("%d %s" % (time.monotonic_ns(), line))
            f.flush()
    return proc.wait()


def workload(path):
    retained, oom = [], None
    for line in open(path):
        w = line.split()
        if len(w) == 3 and w[0] == "retained":
            retained.append((int(w[2]), int(w[1])))
        elif len(w) == 2 and w[0] == "oom":
            oom = int(w[1])
    return retained, oom


def samples(path):
    out = []
    for line in open(path):
        at, _, text = line.partition(" ")
        try:
            out.append((int(at), json.loads(text)))
        except ValueError:
            continue
    return out


def check(workload_out, stamped, label, oom_run):
    # Each verdict printed as it is decided; 0 once all are (tests/lib.sh
    # comparator: any other status is a comparator that died).
    def result(what, ok, detail):
        print("%s: %s: %s (%s)" % ("PASS" if ok else "FAIL", label, what, detail), flush=True)

    retained, oom = workload(workload_out)
    leaking = [r for r in retained if r[1] > 0]
    if len(leaking) < 2:
        result("workload counted its leak", False, "%d lines" % len(leaking))
        return 0
    (t0, b0), (t1, b1) = leaking[0], leaking[-1]
    rate = (b1 - b0) / ((t1 - t0) / 1e9)
    got = samples(stamped)
    grown = [(at, s) for at, s in got if s.get("live_set", {}).get("growth_bps") is not None]
    if not grown:
        last = got[-1][1].get("live_set", {}) if got else {}
        result("growth", False, "no sample with a growth; last: points %s why %r" %
               (last.get("points"), last.get("why")))
        return 0
    at, s = grown[-1]
    g = s["live_set"]["growth_bps"]
    result("growth within 15% of the workload's rate", abs(g - rate) <= 0.15 * rate,
           "gctop %.0f B/s over %s points (%s s, kind %r), workload %.0f B/s" %
           (g, s["live_set"]["points"], s["live_set"]["span_s"], s["live_set"]["kind"], rate))
    if not oom_run:
        return 0
    if oom is None:
        result("the workload died of OutOfMemoryError", False, "no oom line")
        return 0
    called = [(at, s) for at, s in got if at < oom and
              any(f["id"] == "live-set-growth" for f in s.get("findings") or [])]
    if called:
        at, s = called[0]
        sev = [f["severity"] for f in s["findings"] if f["id"] == "live-set-growth"][0]
        result("the live-set-growth finding 30 s before the death at least", (oom - at) / 1e9 >= 30,
               "%s, %.1f s before OutOfMemoryError" % (sev, (oom - at) / 1e9))
    else:
        result("the live-set-growth finding before the death", False, "no sample had it")
    projected = [(at, s) for at, s in got if s.get("live_set", {}).get("exhaustion_s") is not None and at < oom]
    if not projected:
        result("exhaustion projected before the death", False, "no sample with exhaustion_s")
        return 0
    at, s = projected[0]
    real = (oom - at) / 1e9
    exh = s["live_set"]["exhaustion_s"]
    result("exhaustion within 20% of the real time to OutOfMemoryError", abs(exh - real) <= 0.2 * real,
           "projected %.1f s against %s (%s), died %.1f s later" %
           (exh, s["live_set"]["limit"], s["live_set"]["limit_bytes"], real))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "watch":
        sys.exit(watch(sys.argv[2], sys.argv[3:]))
    sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], len(sys.argv) > 5 and sys.argv[5] == "oom"))
