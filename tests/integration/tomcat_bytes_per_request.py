"""The bytes per request of tests/integration/tomcat_requests.sh against the
JVM's own count.

usage: tomcat_bytes_per_request.py WORK TPID TEST PHASE PREFIX ALLOC_LOG TOL FIT

Reads gctop --serve's scrapes WORK/PREFIX.* (kept by the sample they hold,
gctop_sample_timestamp_seconds), the servlet's answers in ALLOC_LOG
("WALL_MS BYTES": ThreadMXBean's total of every thread, every 100 ms,
interpolated at gctop's sample times) and Tomcat's access log (the requests
ending in each interval). For every interval of consecutive samples (-d 2)
under load: gctop_bytes_per_request within TOL of the truth per request;
or, where the interval's estimate is an upper bound (G1 regions' tails:
gctop_allocation_eden_waste_max_bytes_total and
gctop_large_object_region_waste_max_bytes_total grew), not under the truth
by more than TOL. Over those intervals together the bound holds the truth
(the figure less its excess not over it by more than TOL) and is at most
15% wide, or 1 / FIT + TOL where only FIT < 7 of the load's buffers fit a
G1 region (no read-only bound can be narrower:
tests/java/compare_buffers.py): gctop learns an epoch's tails at the
collection that ends it and accrues them between collections at the last
epoch's share, so one interval's excess can hold some of the one before's.
Prints each check's PASS/FAIL
line as it is decided, and exits 0 once all are.
"""
import glob
import re
import sys

WIDTH_MAX = 0.15
FIT_FOR_WIDTH = 7
EXCESS = ("gctop_allocation_eden_waste_max_bytes_total", "gctop_large_object_region_waste_max_bytes_total")


def main():
    work, tpid, test, phase, prefix, alloc_log, tol, fit = sys.argv[1:9]
    tol, fit = float(tol), int(fit)

    def check(ok, what):
        print(("PASS" if ok else "FAIL") + ": %s: %s: %s" % (test, phase, what), flush=True)

    def series(text, name):
        m = re.search(r'^%s\{pid="%s"[^}]*\} (\S+)' % (name, tpid), text, re.M)
        return float(m.group(1)) if m else None

    samples = {}
    for f in glob.glob("%s/%s.*" % (work, prefix)):
        t = open(f).read()
        at = series(t, "gctop_sample_timestamp_seconds")
        if at is not None:
            samples[at] = (series(t, "gctop_bytes_per_request"), sum(series(t, n) or 0.0 for n in EXCESS))
    times = sorted(samples)
    alloc = [tuple(int(x) for x in l.split()) for l in open(alloc_log) if len(l.split()) == 2]
    ends = sorted(int(l.split()[0]) for l in open(work + "/base/logs/access.log")
                  if l.split() and l.split()[0].isdigit())

    def alloc_at(ms):
        for (t0, b0), (t1, b1) in zip(alloc, alloc[1:]):
            if t0 <= ms <= t1:
                return b0 + (b1 - b0) * (ms - t0) / max(t1 - t0, 1)
        return None

    judged = []
    for a, b in zip(times, times[1:]):
        # consecutive samples (-d 2), both inside the polled span, under load
        t1, t2 = a * 1000, b * 1000
        x1, x2 = alloc_at(t1), alloc_at(t2)
        n = sum(1 for e in ends if t1 < e <= t2)
        if b - a > 2.6 or x1 is None or x2 is None or n < 200:
            continue
        judged.append((samples[b][0], (x2 - x1) / n, n, (samples[b][1] - samples[a][1]) / n))
    check(len(judged) >= 3, "at least 3 intervals under load with gctop's figure and the truth (%d)" % len(judged))
    width_max = WIDTH_MAX if fit >= FIT_FOR_WIDTH else 1.0 / fit + tol

    def within(j):
        return j[0] is not None and abs(j[0] - j[1]) <= tol * j[1]

    # An interval whose excess grew is an upper bound: never under the truth.
    bad = [j for j in judged if not within(j) and not (j[0] is not None and j[3] > 0 and j[0] >= j[1] * (1 - tol))]
    check(judged and not bad, "gctop_bytes_per_request of every interval within %.0f%% of the JVM's allocation per "
          "access-logged request, or an upper bound not under it by more than that: %s" % (
              tol * 100,
              ", ".join("%s/%.0f (%d req, excess %.0f)" % ("%.0f" % j[0] if j[0] is not None else "absent", j[1], j[2],
                                                           j[3]) for j in judged)))
    bound = [j for j in judged if not within(j) and j[0] is not None]
    if bound:
        truth = sum(j[1] * j[2] for j in bound)
        got, excess = sum(j[0] * j[2] for j in bound), sum(j[3] * j[2] for j in bound)
        check(got - excess <= truth * (1 + tol),
              "over those upper bounds together, the figure less its excess %+.1f%% of the truth: holds it (%.0f%%)" % (
                  (got - excess - truth) / truth * 100, tol * 100))
        check(excess <= width_max * truth, "... and the bound's width %.1f%% of the truth, at most %.0f%%" % (
            excess / truth * 100, width_max * 100))
    return 0


if __name__ == "__main__":
    sys.exit(main())
