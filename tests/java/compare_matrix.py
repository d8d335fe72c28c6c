#!/usr/bin/env python3
"""Compares gctop's allocation figures with what MixWorkload reports.

usage: compare_matrix.py GCTOP_NDJSON WORKLOAD_LOG TOL LARGE_CHECK
  TOL          allowed relative error of the allocation rate (0.05 = 5%);
               "bound:F" for collectors whose figure is often a lower bound
               (Shenandoah, ZGC): the seen intervals within F when there are
               any, the lower-bound ones together not above the truth by F
  TOL "na"     no allocation figure: alloc null with alloc_unavailable
  LARGE_CHECK  "none"      no large-object check
               "within:F"  G1 humongous bytes/s within F of the workload's
               "regions:F" the workload's arrays do not fill their regions:
                           gctop's humongous bytes/s must lie between the
                           arrays' own bytes and F times them (whole regions)
               "zero"      no humongous bytes at all (no large arrays)
Takes gctop's samples inside the workload's busy phase and interpolates
the workload's truth (ThreadMXBean total, large-array bytes) at their wall
times. The intervals gctop marks as a lower bound (it saw two collections
between two reads) are checked as bounds: together not above the truth by
more than TOL. The others must together be within TOL of the truth. When
fewer than 4 intervals (1 s at gctop -d 0.25) saw every collection (a
machine busy enough to wake gctop late all the time), the whole window is
checked as a lower bound instead: marked, and not above the truth by TOL.
Prints one line "ok|bad ..." and exits 0 (ok), 1 (bad) or 2 (no window).
"""
import datetime
import json
import sys


def wall_ms(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return t.timestamp() * 1000.0


def interpolate(points, t, k):
    for a, b in zip(points, points[1:]):
        if a[0] <= t <= b[0]:
            return a[k] + (b[k] - a[k]) * (t - a[0]) / (b[0] - a[0]) if b[0] > a[0] else a[k]
    return None


def main():
    ndjson, log, tol, large_check = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    if tol == "na":
        lines = [json.loads(l) for l in open(ndjson) if l.strip()]
        why = lines[-1].get("alloc_unavailable")
        ok = all(d["alloc"] is None for d in lines) and bool(why)
        print("%s alloc n/a: %s" % ("ok" if ok else "bad", why))
        return 0 if ok else 1
    bound_only = tol.startswith("bound:")
    tol = float(tol.partition(":")[2] if bound_only else tol)
    points, quiet = [], None
    for line in open(log):
        f = line.split()
        if len(f) == 5 and f[0] == "alloc":
            points.append((float(f[2]), float(f[3]), float(f[4])))
        elif len(f) == 3 and f[:2] == ["phase", "quiet"]:
            quiet = float(f[2])
    lines = [json.loads(l) for l in open(ndjson) if l.strip()]
    if points and quiet is not None:
        lines = [d for d in lines if points[0][0] <= wall_ms(d["time"]) <= quiet]
    lines = [d for d in lines if d["alloc"] and d["alloc"]["bytes_total"] is not None]
    if len(lines) < 2 or len(points) < 2:
        print("bad: no usable window (%d samples, %d workload points)" % (len(lines), len(points)))
        return 2
    a, b = lines[0], lines[-1]
    ta, tb = wall_ms(a["time"]), wall_ms(b["time"])
    xa, xb = interpolate(points, ta, 1), interpolate(points, tb, 1)
    if xa is None or xb is None or tb - ta < 2000:
        print("bad: window too short or outside the workload's reports")
        return 2
    secs = (tb - ta) / 1000.0
    seen_est = seen_exact = bound_est = bound_exact = 0.0
    seen = bounds = 0
    for p, c in zip(lines, lines[1:]):
        e = c["alloc"]["bytes_total"] - p["alloc"]["bytes_total"]
        x = interpolate(points, wall_ms(c["time"]), 1) - interpolate(points, wall_ms(p["time"]), 1)
        if c["alloc"].get("lower_bound"):
            bound_est, bound_exact, bounds = bound_est + e, bound_exact + x, bounds + 1
        else:
            seen_est, seen_exact, seen = seen_est + e, seen_exact + x, seen + 1
    gcs = sum((g["collections"] or 0) for g in b["generations"]) - sum((g["collections"] or 0) for g in a["generations"])
    err = (seen_est - seen_exact) / seen_exact if seen_exact > 0 else float("nan")
    if bound_only:
        ok = (seen == 0 or abs(err) <= tol) and bound_est <= bound_exact * (1 + tol) and seen + bounds >= 4
    elif seen >= 4:
        ok = abs(err) <= tol and bound_est <= bound_exact * (1 + tol)
    else:
        # A machine busy enough to keep gctop from seeing collections in most
        # intervals: every figure must still be a true lower bound.
        ok = seen_est + bound_est <= (seen_exact + bound_exact) * (1 + tol) and bounds > 0
    msg = "error=%+.1f%% over %d seen intervals (est=%.3g/s exact=%.3g/s) gc/s=%.0f" % (
        err * 100, seen, seen_est / (seen * 0.25 or 1), seen_exact / (seen * 0.25 or 1), gcs / secs)
    if seen < 4 and not bound_only:
        msg += "; fewer than 4 intervals saw every collection (busy machine): checked as a lower bound only"
    if bounds:
        msg += "; %d lower-bound intervals: %+.1f%%" % (bounds, (bound_est - bound_exact) / bound_exact * 100
                                                         if bound_exact > 0 else 0.0)
    if large_check != "none":
        la, lb = a["large_objects"], b["large_objects"]
        lest = ((lb or {}).get("alloc_bytes_total") or 0) - ((la or {}).get("alloc_bytes_total") or 0)
        lest /= secs
        lexact = (interpolate(points, tb, 2) - interpolate(points, ta, 2)) / secs
        kind, _, f = large_check.partition(":")
        if kind == "zero":
            lok = lest == 0
            msg += " humongous=%.3g/s (none allocated)" % lest
        else:
            lerr = (lest - lexact) / lexact
            lok = abs(lerr) <= float(f) if kind == "within" else -tol <= lerr <= float(f) - 1 + tol
            msg += " humongous est=%.3g/s exact=%.3g/s error=%+.1f%%" % (lest, lexact, lerr * 100)
        ok = ok and lok
    print(("ok " if ok else "bad ") + msg)
    return 0 if ok else 1


sys.exit(main())
