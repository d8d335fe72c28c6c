"""Holds gctop's --json live_set of a leaking .NET program (tests/dotnet/Leak)
against the program's own truth: the bytes it retains, paced at a known
rate, and the runtime's PromotedBytes of each gen2 GC.

usage: dotnet_live_check.py TEST NAME GCTOP_JSON TRUTH [oom]"""
import json
import sys
from datetime import datetime, timezone

test, name, out_path, truth_path = sys.argv[1:5]
want_oom = len(sys.argv) > 5 and sys.argv[5] == "oom"

# The event's promoted bytes leave out the POH (TotalPromotedSize4 is 0),
# which GC.GetGCMemoryInfo counts: 8184 bytes of the runtime's own pinned
# arrays in this program; the program pins nothing, so the POH stays well
# under 64 KiB.
POH_SLACK = 64 * 1024
GROWTH_TOL = 0.15      # issue 28: the growth within 15% of the program's count
EXHAUSTION_TOL = 0.20  # issue 28: the time to out-of-memory within 20%
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

if want_oom:
    died = [t for t in truth if t.get("oom")]
    report(len(died) == 1, "the program died of OutOfMemoryException")
    projected = [o for o in out if o.get("live_set") and o["live_set"]["exhaustion_s"] is not None]
    if died and projected:
        o = projected[0]
        at = datetime.strptime(o["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        at_ms = at.timestamp() * 1000
        left = (died[0]["wall_ms"] - at_ms) / 1000
        got = o["live_set"]["exhaustion_s"]
        report(left >= 20 and abs(got - left) <= EXHAUSTION_TOL * left,
               "exhaustion projected at %s: %.1f s, it died %.1f s later (within %.0f%%, at least 20 s ahead; "
               "limit %s %s)" % (o["time"], got, left, EXHAUSTION_TOL * 100, o["live_set"]["limit"],
                                 o["live_set"]["limit_bytes"]))
    else:
        report(False, "no projected exhaustion before it died (why: %s)" % (live[-1]["why"] if live else None))
    # the finding, not only the figure, comes in time to act: 30 s before
    # the death at least
    called = [o for o in out if any(f["id"] == "live-set-growth" for f in o.get("findings") or [])]
    if died and called:
        o = called[0]
        at = datetime.strptime(o["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        left = (died[0]["wall_ms"] - at.timestamp() * 1000) / 1000
        sev = [f["severity"] for f in o["findings"] if f["id"] == "live-set-growth"][0]
        report(left >= 30, "the live-set-growth finding (%s) came at %s, %.1f s before the death (at least 30 s)"
               % (sev, o["time"], left))
    else:
        report(False, "no live-set-growth finding before it died (%d samples)" % len(out))
