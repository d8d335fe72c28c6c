#!/usr/bin/env python3
"""Compares gctop's sampled allocator shares with SizeMix's own bytes.

usage: compare_shares.py LABEL GCTOP_NDJSON WORKLOAD_LOG POINTS MIN_SAMPLES
Takes gctop's last output and its allocators window (window_s up to its
time), interpolates the workload's cumulative bytes per type and per frame
(its "truth" lines, one a second) at both ends of that window, and checks:
  - the workload's arithmetic agrees with its ThreadMXBean bytes (within 1%),
    so the truth is the JVM's;
  - gctop sampled at least MIN_SAMPLES in the window;
  - every type's and every frame's share within POINTS percentage points of
    the workload's share over the window (a name gctop does not show counts
    as share 0);
  - what gctop shows beyond the workload's names (the JVM's own, the
    workload's printing) is under POINTS points together.
Prints PASS:/FAIL: lines as each is decided; exits 0 once all are decided.
"""
import datetime
import json
import sys


def wall_ms(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return t.timestamp() * 1000.0


def out(label, ok, what):
    print(("PASS: " if ok else "FAIL: ") + label + ": " + what, flush=True)


def read_truth(path):
    rows = []
    for line in open(path):
        f = line.split()
        if not f or f[0] != "truth":
            continue
        row = {"ms": float(f[1]), "measured": float(f[2]), "arith": float(f[3]), "type": {}, "frame": {}}
        for w in f[4:]:
            key, val = w.rsplit("=", 1)
            kind, name = key.split(":", 1)
            row[kind][name] = float(val)
        rows.append(row)
    return rows


def at(rows, ms, get):
    """get(row) interpolated at ms between the two rows around it."""
    for a, b in zip(rows, rows[1:]):
        if a["ms"] <= ms <= b["ms"]:
            f = (ms - a["ms"]) / (b["ms"] - a["ms"]) if b["ms"] > a["ms"] else 0
            return get(a) + f * (get(b) - get(a))
    return None


def compare(label, rows, ta, start, end, kind, key, points):
    names = set()
    for r in rows:
        names.update(r[kind].keys())
    delta = {}
    for n in names:
        a = at(rows, start, lambda r: r[kind].get(n, 0.0))
        b = at(rows, end, lambda r: r[kind].get(n, 0.0))
        delta[n] = b - a
    total = sum(delta.values())
    got = {e[key]: e["share"] for e in ta["by_" + kind] if e.get("share") is not None}
    for n in sorted(names, key=lambda x: -delta[x]):
        truth = delta[n] / total
        g = got.get(n, 0.0)
        out(label, abs(g - truth) <= points / 100.0,
            "%s %s share %.4f vs the workload's %.4f (tolerance %g points)" % (kind, n, g, truth, points))
    extra = {n: s for n, s in got.items() if n not in names}
    out(label, sum(extra.values()) <= points / 100.0,
        "%s shares beyond the workload's names together %.4f: %s" % (kind, sum(extra.values()), extra))


def main():
    label, ndjson, log = sys.argv[1], sys.argv[2], sys.argv[3]
    points, min_samples = float(sys.argv[4]), int(sys.argv[5])
    rows = read_truth(log)
    lines = [json.loads(l) for l in open(ndjson) if l.strip()]
    d = lines[-1] if lines else None
    ta = d.get("top_allocators") if d else None
    ok = ta is not None and ta.get("state") == "running" and ta.get("window_s")
    out(label, bool(ok), "gctop's last output has a running allocators window: %s" %
        (json.dumps(ta)[:200] if ta else "none"))
    if not ok:
        return
    end = wall_ms(d["time"])
    start = end - ta["window_s"] * 1000.0
    inside = at(rows, start, lambda r: r["arith"]) is not None and at(rows, end, lambda r: r["arith"]) is not None
    out(label, inside, "the window %.0f..%.0f ms lies within the workload's readings %s..%s" %
        (start, end, rows[0]["ms"] if rows else None, rows[-1]["ms"] if rows else None))
    if not inside:
        return
    arith = at(rows, end, lambda r: r["arith"]) - at(rows, start, lambda r: r["arith"])
    measured = at(rows, end, lambda r: r["measured"]) - at(rows, start, lambda r: r["measured"])
    out(label, arith > 0 and abs(measured - arith) <= 0.01 * arith,
        "the workload's arithmetic %.0f B against its ThreadMXBean bytes %.0f B over the window" % (arith, measured))
    out(label, (ta.get("samples") or 0) >= min_samples,
        "samples in the window: %s (at least %d)" % (ta.get("samples"), min_samples))
    compare(label, rows, ta, start, end, "type", "type", points)
    compare(label, rows, ta, start, end, "frame", "frame", points)


if __name__ == "__main__":
    main()
