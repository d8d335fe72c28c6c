#!/usr/bin/env python3
"""Compares gctop's estimated allocation with what AllocWorkload reports.

usage: compare_alloc.py GCTOP_NDJSON WORKLOAD_LOG TOLERANCE
Takes the first and the last gctop sample that both fall in the workload's
busy phase, interpolates the workload's exact allocated bytes (ThreadMXBean)
at those two wall-clock times, and prints one line:
  "ok|bad est=B/s exact=B/s error=+x.x% window=S s"
Exit status 0 when |error| <= TOLERANCE (a fraction, e.g. 0.10), else 1;
2 when the inputs do not give a usable window.
"""
import datetime
import json
import sys


def wall_ms(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return t.timestamp() * 1000.0


def main():
    ndjson, log, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
    points, quiet = [], None
    for line in open(log):
        f = line.split()
        if len(f) == 4 and f[0] == "alloc":
            points.append((float(f[2]), float(f[3])))
        elif len(f) == 3 and f[:2] == ["phase", "quiet"]:
            quiet = float(f[2])
    samples = []
    for line in open(ndjson):
        if line.strip():
            d = json.loads(line)
            if d["alloc"]["bytes_total"] is not None:
                samples.append((wall_ms(d["time"]), d["alloc"]["bytes_total"]))
    first_point = points[0][0] if points else None
    end = quiet if quiet is not None else (points[-1][0] if points else None)
    samples = [s for s in samples if first_point is not None and first_point <= s[0] <= end]
    if len(samples) < 2 or len(points) < 2:
        print("bad: no usable window (%d samples, %d workload points)" % (len(samples), len(points)))
        return 2

    def exact_at(t):
        for (t0, b0), (t1, b1) in zip(points, points[1:]):
            if t0 <= t <= t1:
                return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else b0
        return None

    (ta, ea), (tb, eb) = samples[0], samples[-1]
    xa, xb = exact_at(ta), exact_at(tb)
    if xa is None or xb is None or tb - ta < 2000:
        print("bad: window too short or outside the workload's reports")
        return 2
    secs = (tb - ta) / 1000.0
    est, exact = (eb - ea) / secs, (xb - xa) / secs
    err = (est - exact) / exact
    verdict = "ok" if abs(err) <= tol else "bad"
    print("%s est=%.0f/s exact=%.0f/s error=%+.1f%% window=%.1f s" % (verdict, est, exact, err * 100, secs))
    return 0 if verdict == "ok" else 1


sys.exit(main())
