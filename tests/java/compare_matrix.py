#!/usr/bin/env python3
"""Compares gctop's allocation figures with what MixWorkload reports.

usage: compare_matrix.py GCTOP_NDJSON WORKLOAD_LOG TOL LARGE_CHECK [UPPER_WIDTH]
  TOL          allowed relative error of the allocation rate (0.05 = 5%);
               "bound:F" for collectors whose figure is often a lower bound
               (Shenandoah): the same checks with F, the bounds held to the
               truth as below
  TOL "na"     no allocation figure: alloc null with alloc_unavailable
  LARGE_CHECK  "none"      no large-object check
               "within:F"  G1 humongous bytes/s within F of the workload's
                           (lower only where an interval is marked, as above)
               "regions:F" the workload's arrays do not fill their regions:
                           gctop's humongous bytes/s must lie between the
                           arrays' own bytes and F times them (whole regions)
               "zero"      no large arrays: humongous bytes under 1% of allocation
  UPPER_WIDTH  a window gctop marked an upper bound (alloc.upper_bound, with
               excess_max_bps: G1 regions' tails) passes outside TOL only
               when the bound holds the truth, TOL at either end, and its
               width (the excess over the truth) is at most this (0.15
               unless given)
Takes gctop's samples inside the workload's busy phase and interpolates
the workload's truth (ThreadMXBean total, large-array bytes) at their wall
times, and compares the whole window: an estimate moves bytes between
neighbouring intervals (a collection's eden is read at the next poll), so
only a window of many intervals holds its tolerance. The window must be
within TOL of the truth, of at least 4 intervals. A flag gctop sets is no
excuse for gctop: the intervals it marks a lower bound (it saw two
collections between two reads) may take the window below TOL only by
their own shortfall (summed over them), not by the whole window's; the
window is never above the truth by more than TOL, unless gctop marked it
an upper bound (G1 regions' tails) that holds the truth (the figure less
its excess not above it by more than TOL) and is at most UPPER_WIDTH wide
(its excess over the truth; 0.15 unless given). The bounds' directions
are held over the window, not over the marked intervals alone: each
boundary between intervals moves up to an eden's bytes, so a set of
intervals interleaved with others read 5.8% and 10.8% below its truth
beside a CPU hog while its window held its tolerance.
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


def read_log(log):
    """MixWorkload's reports (wall ms, ThreadMXBean total, large-array
    bytes), when its busy phase ended, and the G1 region size it printed."""
    points, quiet, region = [], None, None
    for line in open(log):
        f = line.split()
        if len(f) == 5 and f[0] == "alloc":
            points.append((float(f[2]), float(f[3]), float(f[4])))
        elif len(f) == 3 and f[:2] == ["phase", "quiet"]:
            quiet = float(f[2])
        elif len(f) == 2 and f[0] == "region":
            region = int(f[1])
    return points, quiet, region


def marked(lines, points, k, get, flag):
    """gctop's figure (get) and the truth (column k of the workload's
    reports) summed over the intervals whose alloc has FLAG set."""
    est = exact = 0.0
    for p, c in zip(lines, lines[1:]):
        if c["alloc"].get(flag):
            est += get(c) - get(p)
            exact += interpolate(points, wall_ms(c["time"]), k) - interpolate(points, wall_ms(p["time"]), k)
    return est, exact


def exact_short(lines, points, k, get):
    """How far gctop's figure falls short of the truth over the intervals
    it marked a lower bound (negative when above): the one shortfall a
    lower bound excuses."""
    est, exact = marked(lines, points, k, get, "lower_bound")
    return exact - est


def bounds_hold(lines, points, k, get, est, exact, tol):
    """The window within tol of the truth, below it only by the lower-bound
    intervals' own shortfall. Returns (ok, what)."""
    excused = max(0.0, exact_short(lines, points, k, get))
    ok = exact * (1 - tol) - excused <= est <= exact * (1 + tol)
    return ok, "shortfall of the lower-bound intervals %.1f%%" % (100 * excused / exact if exact > 0 else 0)


def upper_bound_holds(lines, est, exact, tol, width_max):
    """Whether gctop marked the window an upper bound that holds the truth:
    the figure not below it by more than tol, the figure less its excess
    not above it by more than tol, the excess at most width_max of it."""
    marked = sum(bool(d["alloc"].get("upper_bound")) for d in lines[1:])
    excess = sum((d["alloc"].get("excess_max_bps") or 0.0) * (d["alloc"].get("rate_span_s") or 0.0)
                 for d in lines[1:])
    if not marked or exact <= 0:
        return False, ""
    low, width = (est - excess - exact) / exact, excess / exact
    ok = est >= exact * (1 - tol) and low <= tol and width <= width_max
    return ok, "; marked an upper bound in %d intervals, less its excess %+.1f%%, width %.1f%% (at most %.0f%%)" % (
        marked, low * 100, width * 100, width_max * 100)


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
    points, quiet, _ = read_log(log)
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
    est = exact = 0.0
    bounds = 0
    for p, c in zip(lines, lines[1:]):
        est += c["alloc"]["bytes_total"] - p["alloc"]["bytes_total"]
        exact += interpolate(points, wall_ms(c["time"]), 1) - interpolate(points, wall_ms(p["time"]), 1)
        bounds += bool(c["alloc"].get("lower_bound"))
    intervals = len(lines) - 1
    gcs = sum((g["collections"] or 0) for g in b["generations"]) - sum((g["collections"] or 0) for g in a["generations"])
    err = (est - exact) / exact if exact > 0 else float("nan")
    # bound_only (Shenandoah, mostly marked) takes the same checks: its
    # lower bounds are held to the truth as any other's
    ok, held = bounds_hold(lines, points, 1, lambda d: d["alloc"]["bytes_total"], est, exact, tol)
    upper_ok, upper = upper_bound_holds(lines, est, exact, tol, float(sys.argv[5]) if len(sys.argv) > 5 else 0.15)
    if err > tol:
        ok = upper_ok
    ok = ok and intervals >= 4
    msg = "error=%+.1f%% over %.1f s (est=%.3g/s exact=%.3g/s) gc/s=%.0f, %d of %d intervals marked a lower bound; %s" % (
        err * 100, secs, est / secs, exact / secs, gcs / secs, bounds, intervals, held) + upper
    if large_check != "none":
        la, lb = a["large_objects"], b["large_objects"]
        lest = ((lb or {}).get("alloc_bytes_total") or 0) - ((la or {}).get("alloc_bytes_total") or 0)
        lest /= secs
        lexact = (interpolate(points, tb, 2) - interpolate(points, ta, 2)) / secs
        kind, _, f = large_check.partition(":")
        if kind == "zero":
            # G1's humongous figure is old-generation growth that promotion
            # does not explain; promotion is itself estimated between reads,
            # so a trace of it can remain: under 1% of the allocation.
            lok = lest <= 0.01 * est / secs
            msg += " humongous=%.3g/s (none allocated; under 1%% of allocation allowed)" % lest
        else:
            lerr = (lest - lexact) / lexact
            # lower only by the shortfall of the intervals gctop marked:
            # with collections unseen between two reads, the humongous
            # bytes before the first are left out as eden's are (a lower
            # bound of both)
            if kind == "within":
                lok, lheld = bounds_hold(lines, points, 2, lambda d: (d["large_objects"] or {}).get("alloc_bytes_total") or 0,
                                         lest * secs, lexact * secs, float(f))
                msg += " humongous " + lheld
            else:
                lok = -tol <= lerr <= float(f) - 1 + tol
            msg += " humongous est=%.3g/s exact=%.3g/s error=%+.1f%%" % (lest, lexact, lerr * 100)
        ok = ok and lok
    print(("ok " if ok else "bad ") + msg)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
