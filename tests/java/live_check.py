#!/usr/bin/env python3
"""gctop's live set against LeakWorkload's own count (issue 28).

usage: live_check.py watch OUT CMD...
    runs CMD (gctop --json ...) and writes each line it prints to OUT with
    the CLOCK_MONOTONIC nanoseconds it arrived at in front (the clock of the
    workload's System.nanoTime()); ends CMD when it is ended.
usage: live_check.py check WORKLOAD_OUT STAMPED LABEL [project]
    prints a PASS:/FAIL: line per comparison as it is decided (the test
    harness counts them) and exits 0 once all are (tests/lib.sh comparator).

Tolerances, from the issue: the growth (live_set.growth_bps of gctop's last
sample that has one) within 15 % of the workload's own rate of retained
bytes (its count's slope from its first to its last line). The limit gctop
projects to is the JVM's own: live_set.limit_bytes of every sample that has
one equal to the old generation's maximum the workload read from its memory
pools ("old_max"). With project, the time to exhaustion gctop projected at
its first sample that had one within 20 % of the time the live set it
reported then takes to reach that limit at the workload's own rate, at
least 20 s ahead; and the live-set-growth finding in a sample when, so
reckoned, at least 30 s of room were left. How that projection compares
with a real death (OutOfMemoryError) is measured by make bench's
leak-death section (bench/leak_death.py), not here: the trend needs no
death, and a run to one took 140 s.
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
    retained, old_max = [], None
    for line in open(path):
        w = line.split()
        if len(w) == 3 and w[0] == "retained":
            retained.append((int(w[2]), int(w[1])))
        elif len(w) == 2 and w[0] == "old_max":
            old_max = int(w[1])
    return retained, old_max


def samples(path):
    out = []
    for line in open(path):
        at, _, text = line.partition(" ")
        try:
            out.append((int(at), json.loads(text)))
        except ValueError:
            continue
    return out


def check(workload_out, stamped, label, project):
    # Each verdict printed as it is decided; 0 once all are (tests/lib.sh
    # comparator: any other status is a comparator that died).
    def result(what, ok, detail):
        print("%s: %s: %s (%s)" % ("PASS" if ok else "FAIL", label, what, detail), flush=True)

    retained, old_max = workload(workload_out)
    leaking = [r for r in retained if r[1] > 0]
    if len(leaking) < 2 or old_max is None:
        result("workload counted its leak and read its limit", False,
               "%d lines, old_max %s" % (len(leaking), old_max))
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
    limits = [(s["live_set"]["limit"], s["live_set"]["limit_bytes"]) for _, s in got
              if s.get("live_set", {}).get("limit_bytes") is not None]
    wrong = [x for x in limits if x != ("heap-max", old_max)]
    result("the limit is the old generation's maximum by the JVM's own pools", limits and not wrong,
           "%d samples with a limit, %d other than heap-max %d (first: %s)" %
           (len(limits), len(wrong), old_max, wrong[:1]))
    if not project:
        return 0

    # the seconds until the live set reported in s reaches the JVM's limit
    # at the workload's own rate
    def room_s(s):
        return (old_max - s["live_set"]["bytes"]) / rate

    projected = [(at, s) for at, s in got if s.get("live_set", {}).get("exhaustion_s") is not None]
    if projected:
        at, s = projected[0]
        exh, want = s["live_set"]["exhaustion_s"], room_s(s)
        result("exhaustion within 20% of the room left at the workload's rate, 20 s ahead at least",
               want >= 20 and abs(exh - want) <= 0.2 * want,
               "projected %.1f s with %s B live of %s B (%s); at %.0f B/s %.1f s" %
               (exh, s["live_set"]["bytes"], s["live_set"]["limit_bytes"], s["live_set"]["limit"], rate, want))
    else:
        result("exhaustion projected", False, "no sample with exhaustion_s")
    called = [(at, s) for at, s in got if any(f["id"] == "live-set-growth" for f in s.get("findings") or [])]
    if called:
        at, s = called[0]
        sev = [f["severity"] for f in s["findings"] if f["id"] == "live-set-growth"][0]
        result("the live-set-growth finding with 30 s of room left at least", room_s(s) >= 30,
               "%s, %.1f s of room at the workload's rate" % (sev, room_s(s)))
    else:
        result("the live-set-growth finding", False, "no sample had it")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "watch":
        sys.exit(watch(sys.argv[2], sys.argv[3:]))
    sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], len(sys.argv) > 5 and sys.argv[5] == "project"))
