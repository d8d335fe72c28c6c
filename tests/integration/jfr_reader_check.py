"""Compares gctop's JFR reader (test_jfr_real --dump, one JSON line an
event) with the JDK's own reader (jfr print --json --stack-depth 64) on
the same recording: for each event type gctop reads, the count, and every
event's fields (start in ns, and the type's fields: durations in ns,
strings, integers, the whole stack of an allocation sample) as multisets,
since JDK 25's `jfr print` orders by time and the file does not.

Usage: jfr_reader_check.py LABEL OURS.jsonl TRUTH.json
Prints PASS/FAIL per check as decided; exits 0 once all are decided."""
import calendar
import json
import re
import sys
import time

TYPES = ["jdk.ObjectAllocationSample", "jdk.GarbageCollection", "jdk.GCPhasePause",
         "jdk.GCHeapSummary", "jdk.ThreadAllocationStatistics"]


def verdict(ok, label, what):
    print("%s: jfr_reader_truth: %s: %s" % ("PASS" if ok else "FAIL", label, what), flush=True)


def iso_ns(s):
    """2026-12-07T00:52:03.306275431Z (or +00:00) as ns since the epoch."""
    m = re.match(r"(\d+-\d+-\d+T\d+:\d+:\d+)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$", s)
    secs = calendar.timegm(time.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S"))
    if m.group(3) not in ("Z", "+00:00"):
        sign = 1 if m.group(3)[0] == "+" else -1
        secs -= sign * (int(m.group(3)[1:3]) * 3600 + int(m.group(3)[4:6]) * 60)
    return secs * 10**9 + int((m.group(2) or "0").ljust(9, "0")[:9])


def span_ns(s):
    """PT0.018912896S, PT1M2.5S, PT-0.001S: ns."""
    if s is None:
        return None
    m = re.match(r"PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d+))?S)?$", s)
    h, mi, sec, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60 + int(sec or 0)) * 10**9
    f = int((frac or "0").ljust(9, "0")[:9])
    return ns - f if (sec or "").startswith("-") else ns + f


def name_of(v, *path):
    for p in path:
        if v is None:
            return None
        v = v.get(p)
    return v


def truth_key(t, v):
    k = [t, iso_ns(v["startTime"])]
    if t == "jdk.ObjectAllocationSample":
        frames = (v.get("stackTrace") or {}).get("frames") or []
        k += [name_of(v, "objectClass", "name"), v["weight"], name_of(v, "eventThread", "javaName"),
              tuple((name_of(f, "method", "type", "name"), name_of(f, "method", "name"), f["lineNumber"])
                    for f in frames)]
    elif t in ("jdk.GarbageCollection", "jdk.GCPhasePause"):
        k += [v["gcId"], v["name"], span_ns(v["duration"])]
        if t == "jdk.GarbageCollection":
            k += [v["cause"], span_ns(v["sumOfPauses"]), span_ns(v["longestPause"])]
    elif t == "jdk.GCHeapSummary":
        k += [v["gcId"], v["when"], v["heapUsed"]]
    else:
        k += [name_of(v, "thread", "javaName"), v["allocated"]]
    return tuple(k)


def our_key(e):
    t = e["type"]
    k = [t, e["startTime"]]
    if t == "jdk.ObjectAllocationSample":
        k += [e["objectClass"], e["weight"], e["thread"],
              tuple((f.get("type"), f.get("method"), f.get("line")) for f in e["frames"])]
    elif t in ("jdk.GarbageCollection", "jdk.GCPhasePause"):
        k += [e["gcId"], e["name"], e["duration"]]
        if t == "jdk.GarbageCollection":
            k += [e["cause"], e["sumOfPauses"], e["longestPause"]]
    elif t == "jdk.GCHeapSummary":
        k += [e["gcId"], e["when"], e["heapUsed"]]
    else:
        k += [e["thread"], e["allocated"]]
    return tuple(k)


def main():
    label, ours_path, truth_path = sys.argv[1:4]
    truth = json.load(open(truth_path))["recording"]["events"]
    ours = [json.loads(line) for line in open(ours_path) if line.strip()]
    for t in TYPES:
        tk = sorted((truth_key(t, e["values"]) for e in truth if e["type"] == t), key=repr)
        ok = sorted((our_key(e) for e in ours if e["type"] == t), key=repr)
        verdict(len(tk) == len(ok) and len(tk) > 0, label,
                "%s: %d events read, %d by jfr print" % (t, len(ok), len(tk)))
        diff = [(a, b) for a, b in zip(ok, tk) if a != b]
        verdict(not diff and len(tk) == len(ok), label,
                "%s: every event's fields equal jfr print's%s" % (
                    t, "" if not diff else " (first difference: ours %r, jfr's %r)" % diff[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
