"""Checks two censuses of tests/dotnet/CensusLeak against the program's own
account (dotnet_census.sh says what each tolerance stands on).

Usage: dotnet_census_check.py LEAK_OUT CENSUS1 CENSUS2 FULL_BEFORE1 FULL_BEFORE2
(FULL_BEFORE: the program's last full blocking collection's index before
each census)
Prints PASS/FAIL lines with the test's name prefix given in $TEST_NAME."""
import json
import os
import sys

BURST = 4000          # LeakedOrder objects the program adds at once
LEAKING = "LeakedOrder"
TOTAL_TOLERANCE = 0.02  # the walk's bytes against PromotedBytes (0.1-0.7% measured)
PAUSE_SLACK_US = 1000   # the runtime starts its pause clock before SuspendEEBegin is written
NAME = os.environ.get("TEST_NAME", "dotnet_census") + ": " + os.environ.get("CENSUS_MODE", "")


def report(ok, what):
    print(("PASS: " if ok else "FAIL: ") + NAME + " " + what, flush=True)


def read_program(path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) >= 12 and f[0] == "leak":
            rows.append({f[i]: int(f[i + 1]) for i in range(0, 12, 2)})
    return rows


def read_census(path):
    """gctop --census --json's object: its totals and its types by name."""
    try:
        d = json.load(open(path))
    except ValueError:
        return None, {}
    head = {"count": d["total_count"], "bytes": d["total_bytes"],
            "pause_ns": None if d["pause_ms"] is None else d["pause_ms"] * 1e6,
            "partial": d["partial"] or "-"}
    return head, {t["name"]: (t["count"], t["bytes"]) for t in d["types"]}


def induced(rows, full_before):
    """The rows around the census's collection: the last whose latest full
    blocking collection is full_before, and the first after it. The
    runtime's own gen2 collections are background ones (GCKind.Background),
    so the next full blocking one is the census's."""
    for i in range(1, len(rows)):
        if rows[i - 1]["full"] == full_before and rows[i]["full"] != full_before:
            return rows[i - 1], rows[i]
    return None, None


def check_one(k, rows, census, full_before):
    head, types = census
    before, after = induced(rows, full_before)
    report(head is not None and before is not None,
           "census %d induced a full blocking collection (the program's latest: #%d -> #%s)" %
           (k, full_before, after["full"] if after else "none"))
    if head is None or before is None:
        return None
    report(head["partial"] == "-", "census %d is complete (partial: %s)" % (k, head["partial"]))
    count = types.get(LEAKING, (0, 0))[0]
    report(before["leak"] <= count <= after["leak"],
           "census %d counts %d %s, the program held %d..%d then (one burst)" %
           (k, count, LEAKING, before["leak"], after["leak"]))
    promoted = after["promoted"]
    report(abs(head["bytes"] - promoted) <= TOTAL_TOLERANCE * promoted,
           "census %d total %d bytes within %d%% of the collection's PromotedBytes %d" %
           (k, head["bytes"], TOTAL_TOLERANCE * 100, promoted))
    p = head["pause_ns"]
    if p is None:
        report(False, "census %d has no pause" % k)
    else:
        report(after["pause_us"] - PAUSE_SLACK_US <= p / 1000 <= after["gap_us"] + 1,
               "census %d pause %.1f ms between the runtime's %.1f ms and the program's longest stall %.1f ms" %
               (k, p / 1e6, after["pause_us"] / 1e3, after["gap_us"] / 1e3))
    report("System.Collections.Generic.List<LeakedOrder>" in types and "LeakedOrder[]" in types,
           "census %d names the generic holder and its array in source form" % k)
    return types


def main():
    rows = read_program(sys.argv[1])
    t1 = check_one(1, rows, read_census(sys.argv[2]), int(sys.argv[4]))
    t2 = check_one(2, rows, read_census(sys.argv[3]), int(sys.argv[5]))
    if t1 is None or t2 is None:
        return
    growth = sorted(((b2 - t1.get(n, (0, 0))[1], n) for n, (c2, b2) in t2.items()), reverse=True)
    report(growth[0][1] == LEAKING, "the top growing type by bytes is %s (%d bytes)" % (growth[0][1], growth[0][0]))


main()
