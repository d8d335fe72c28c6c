"""Holds gctop's --json live_set of a leaking .NET program (tests/dotnet/Leak)
against the program's own truth: the bytes it retains, paced at a known
rate, and the runtime's PromotedBytes of each gen2 GC.

usage: dotnet_live_check.py TEST NAME GCTOP_JSON TRUTH [LIMIT_BYTES]

With LIMIT_BYTES (the GC's hard limit the test set), the projection: the
limit gctop projects to is that one, and the time to exhaustion it
projected at its first sample that had one is within 20% of the time the
live set it reported then takes to reach the limit at the program's own
rate, at least 20 s ahead; and the live-set-growth finding comes with 30 s
of room left at least, so reckoned. How the projection compares with the
program's real death (OutOfMemoryException) is measured by make bench's
leak-death section (bench/leak_death.py), not here."""
import json
import sys

test, name, out_path, truth_path = sys.argv[1:5]
limit = int(sys.argv[5]) if len(sys.argv) > 5 else None

# The event's promoted bytes leave out the POH (TotalPromotedSize4 is 0),
# which GC.GetGCMemoryInfo counts: 8184 bytes of the runtime's own pinned
# arrays in this program; the program pins nothing, so the POH stays well
# under 64 KiB.
POH_SLACK = 64 * 1024
GROWTH_TOL = 0.15      # issue 28: the growth within 15% of the program's count
EXHAUSTION_TOL = 0.20  # issue 28: the time to exhaustion within 20%
KINDS = {"blocking": "gen2", "background": "background gen2"}


def report(ok, what):
    print("%s: %s: %s: %s" % ("PASS" if ok else "FAIL", test, name, what), flush=True)


out = [json.loads(l) for l in open(out_path) if l.strip()]
truth = [json.loads(l) for l in open(truth_path) if l.startswith('{"t_ns"')]
gcs = [t for t in truth if "gc_index" in t]
kept = [(t["t_ns"] / 1e9, t["retained"]) for t in truth if "retained" in t and "oom" not in t]

# the program's own rate: least squares over its retained-bytes lines
n = len(kept)
mx = sum(x for x, _ in kept) / n
my = sum(y for _, y in kept) / n
rate = sum((x - mx) * (y - my) for x, y in kept) / sum((x - mx) ** 2 for x, _ in kept)

live = [o["live_set"] for o in out if o.get("live_set") and o["live_set"]["bytes"] is not None]
report(len(live) > 0, "%d of %d samples have a live set" % (len(live), len(out)))

# each live set is one gen2 GC's PromotedBytes (less the POH), of its kind
bad = []
seen = set()
for ls in live:
    match = [g for g in gcs if 0 <= g["promoted"] - ls["bytes"] <= POH_SLACK and KINDS[g["kind"]] == ls["kind"]]
    if not match:
        bad.append((ls["bytes"], ls["kind"]))
    seen.add((ls["bytes"], ls["kind"]))
report(not bad and len(seen) >= 3,
       "%d distinct live sets, each a gen2's PromotedBytes of its kind less at most %d bytes (unmatched: %s; "
       "the runtime's: %s)" % (len(seen), POH_SLACK, bad[:3], [(g["promoted"], g["kind"]) for g in gcs]))

grown = [o for o in out if o.get("live_set") and o["live_set"]["growth_bps"] is not None]
if not grown:
    report(False, "no growth figure (why: %s)" % (live[-1]["why"] if live else None))
for o in (grown[:1] + grown[-1:]) if grown else []:
    g = o["live_set"]["growth_bps"]
    report(abs(g - rate) <= GROWTH_TOL * rate,
           "growth %.0f B/s at %s (%d points over %.0f s) within %.0f%% of the program's %.0f B/s"
           % (g, o["time"], o["live_set"]["points"], o["live_set"]["span_s"], GROWTH_TOL * 100, rate))

if limit is not None:
    limits = [(o["live_set"]["limit"], o["live_set"]["limit_bytes"]) for o in out
              if o.get("live_set") and o["live_set"]["limit_bytes"] is not None]
    wrong = [x for x in limits if x != ("heap-max", limit)]
    report(len(limits) > 0 and not wrong, "the limit is the hard limit set, heap-max %d (%d samples with one, "
           "%d other, first: %s)" % (limit, len(limits), len(wrong), wrong[:1]))

    def room_s(o):
        # the seconds until the live set o reported reaches the limit at
        # the program's own rate
        return (limit - o["live_set"]["bytes"]) / rate

    projected = [o for o in out if o.get("live_set") and o["live_set"]["exhaustion_s"] is not None]
    if projected:
        o = projected[0]
        got, want = o["live_set"]["exhaustion_s"], room_s(o)
        report(want >= 20 and abs(got - want) <= EXHAUSTION_TOL * want,
               "exhaustion projected at %s: %.1f s, the live set's %d B reach the limit in %.1f s at the program's "
               "%.0f B/s (within %.0f%%, at least 20 s ahead)"
               % (o["time"], got, o["live_set"]["bytes"], want, rate, EXHAUSTION_TOL * 100))
    else:
        report(False, "no projected exhaustion (why: %s)" % (live[-1]["why"] if live else None))
    # the finding, not only the figure, comes in time to act
    called = [o for o in out if any(f["id"] == "live-set-growth" for f in o.get("findings") or [])]
    if called:
        o = called[0]
        sev = [f["severity"] for f in o["findings"] if f["id"] == "live-set-growth"][0]
        report(room_s(o) >= 30, "the live-set-growth finding (%s) came at %s with %.1f s of room left (at least 30 s)"
               % (sev, o["time"], room_s(o)))
    else:
        report(False, "no live-set-growth finding (%d samples)" % len(out))
