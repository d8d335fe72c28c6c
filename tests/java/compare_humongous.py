#!/usr/bin/env python3
"""Holds gctop's G1 humongous figures to what MixWorkload knows of its arrays.

usage: compare_humongous.py GCTOP_NDJSON WORKLOAD_LOG MODE TOL ARRAY_LENGTH
  MODE          "estimate" (perf data alone) or "agent" (--allocators)
  TOL           allowed relative error of the allocation (the 5% of
                jvm_alloc_matrix.sh); the regions' bytes get the matrix's 10%
                for G1's humongous figure
  ARRAY_LENGTH  the length of the workload's large byte arrays

The workload prints the region size the JVM chose ("region BYTES"), so the
truth of each array is known: its object size (16-byte header, 8-byte
alignment), the regions it takes and their unused tail. Over the busy window:

estimate: every interval with humongous bytes is marked an upper bound; the
  figure is not below the JVM's own count (ThreadMXBean) by more than TOL
  and the shortfall of the intervals gctop marked a lower bound (their own,
  not the window's: compare_matrix.exact_short), and less its excess bound (large_objects.waste_max_bytes_total) not above
  it by more than TOL; the tails' bound (half the regions' bytes) holds the
  arrays' known tails (the regions' own figure is the estimator's, held in
  jvm_alloc_matrix.sh; it read 7 to 11% under these arrays' regions); the arrays'
  share of allocation lies between alloc_share_min and alloc_share; the
  g1-region-waste finding is given.
agent: the exact total within TOL of the JVM's count, no upper bound, no
  share above 1; the humongous figures from the agent's samples (which see
  each object's size): the arrays' bytes and their regions' tails within 10%
  of the known ones (a sample of an object larger than the sampling interval
  weighs its size: 3 MiB arrays at the 0.6 MiB or so the interval settles
  at are nearly all sampled), and the arrays' share within 10% of its truth.
Prints one line "ok|bad ..." and exits 0 (ok), 1 (bad) or 2 (no window).
"""
import json
import sys

from compare_matrix import exact_short, interpolate, read_log, wall_ms

REGION_TOL = 0.10


def window(ndjson, points, quiet, mode):
    lines = [json.loads(l) for l in open(ndjson) if l.strip()]
    lines = [d for d in lines if points[0][0] <= wall_ms(d["time"]) <= (quiet or float("inf"))]
    want = "exact" if mode == "agent" else "estimate"
    return [d for d in lines if d["alloc"] and d["alloc"]["bytes_total"] is not None
            and d["alloc"]["source"] == want and d["large_objects"]]


def delta(a, b, get):
    return get(b) - get(a)


def check_marks(lines, mode):
    """Upper-bound marks: on every interval with humongous bytes (estimate),
    on none (agent); shares never above 1."""
    bad = []
    for p, c in zip(lines, lines[1:]):
        large = c["large_objects"]["alloc_bytes_total"] - p["large_objects"]["alloc_bytes_total"]
        share = c["large_objects"]["alloc_share"]
        if share is not None and share > 1:
            bad.append("alloc_share %.3f above 1" % share)
        if mode == "estimate" and large > 0 and not (c["alloc"].get("upper_bound") and c["alloc"].get("excess_max_bps")):
            bad.append("an interval with humongous bytes not marked an upper bound")
        if mode == "agent" and c["alloc"].get("upper_bound"):
            bad.append("the exact total marked an upper bound")
    return bad[:3]


def main():
    ndjson, log, mode, tol, length = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
    points, quiet, region = read_log(log)
    if not region or len(points) < 2:
        print("bad: the workload reported no G1 region size or too few points")
        return 2
    lines = window(ndjson, points, quiet, mode)
    if len(lines) < 2:
        print("bad: no usable window (%d samples)" % len(lines))
        return 2
    a, b = lines[0], lines[-1]
    ta, tb = wall_ms(a["time"]), wall_ms(b["time"])
    if interpolate(points, ta, 1) is None or interpolate(points, tb, 1) is None or tb - ta < 2000:
        print("bad: window too short or outside the workload's reports")
        return 2
    secs = (tb - ta) / 1000.0
    est = delta(a, b, lambda d: d["alloc"]["bytes_total"])
    exact = interpolate(points, tb, 1) - interpolate(points, ta, 1)
    arrays_bytes = interpolate(points, tb, 2) - interpolate(points, ta, 2)
    regions = delta(a, b, lambda d: d["large_objects"]["alloc_bytes_total"])
    tails_key = "waste_bytes_total" if mode == "agent" else "waste_max_bytes_total"
    tails = delta(a, b, lambda d: d["large_objects"].get(tails_key) or 0)
    # the truth of one array: G1 takes whole regions for it
    obj = (16 + length + 7) // 8 * 8
    per_regions = (obj + region - 1) // region * region
    count = arrays_bytes / (16 + length)
    true_regions, true_tails = count * per_regions, count * (per_regions - obj)
    share = count * obj / exact
    # the one shortfall a lower bound excuses: its own intervals'
    excused = max(0.0, exact_short(lines, points, 1, lambda d: d["alloc"]["bytes_total"]))
    problems = check_marks(lines, mode)
    err = (est - exact) / exact
    msg = ("alloc %+.1f%% (est=%.3g/s exact=%.3g/s) large est=%.3g/s arrays' regions=%.3g/s tails%s%.3g/s known=%.3g/s "
           "over %.1f s" % (err * 100, est / secs, exact / secs, regions / secs, true_regions / secs,
                            "=" if mode == "agent" else "<=", tails / secs,
                            true_tails / secs, secs))
    if mode == "estimate":
        if est < exact * (1 - tol) - excused:
            problems.append("the upper bound is below the truth")
        if est - tails > exact * (1 + tol):
            problems.append("the figure less its excess bound is above the truth")
        if tails < true_tails * (1 - REGION_TOL):
            problems.append("the tails' bound is below the arrays' known tails")
        lo, hi = (regions - tails) / (est - tails), regions / est
        if not any(f["id"] == "g1-region-waste" for f in b.get("findings") or []):
            problems.append("no g1-region-waste finding")
    else:
        if abs(err) > tol:
            problems.append("the exact total is not within %.0f%%" % (tol * 100))
        if b["large_objects"]["source"] != "g1-humongous-sampled":
            problems.append("the humongous figures are not the agent's")
        if abs(regions - count * obj) > REGION_TOL * count * obj:
            problems.append("the sampled humongous bytes are not within 10% of the arrays'")
        if abs(tails - true_tails) > REGION_TOL * true_tails:
            problems.append("the sampled tails are not within 10% of the arrays' known tails")
        lo = hi = regions / exact
        tol = REGION_TOL * share
    if not lo - tol <= share <= hi + tol:
        problems.append("the arrays' share %.3f is outside %.3f..%.3f" % (share, lo, hi))
    msg += " share %.3f in %.3f..%.3f" % (share, lo, hi)
    print(("bad " + "; ".join(problems) + ": " if problems else "ok ") + msg)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
