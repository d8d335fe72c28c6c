#!/bin/sh
# test-lane: measuring
# gctop --allocators on .NET 10: AllocSites allocates from three methods in
# known proportions (about 60/30/10 by bytes, the middle one in LOH arrays)
# and prints each site's exact bytes and GC.GetTotalAllocatedBytes every
# second. Tolerances (each stated where it is used):
#   share of each first application frame: +-5 points of the truth
#   ranking of the three sites: exact
#   allocation rate (GC.GetTotalAllocatedBytes via counters): +-5%
#   the sampled estimate of the allocation rate: +-10% (a few thousand samples)
# and a SIGKILLed gctop leaves no session behind: a second one samples again.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }


# ~50 MB/s for at most 45 s; the cleanup kills it sooner
"$exe" 50 45 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 lines_at_least "$WORK/truth" 2

"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 13 >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]

comparator "of the allocation sites" python3 - "$WORK/g.json" "$WORK/truth" <<'PY'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = [json.loads(l) for l in open(sys.argv[2]) if l.strip().startswith("{")]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_allocators: " + what, flush=True)
if not g or len(t) < 4 or not g[-1].get("top_allocators"):
    check(False, "no gctop output (%d lines) or workload report (%d)" % (len(g), len(t)))
    sys.exit(0)
a = g[-1]["top_allocators"]
check(a["source"] == "eventpipe-allocation-sampled", "source is %r" % a["source"])
check(a["state"] == "running" and (a["samples"] or 0) >= 1000,
      "state %s with %s samples over %s s (at least 1000)" % (a["state"], a["samples"], a["window_s"]))
# the truth: each site's bytes over the workload's run after its first second
sites = ["Lines.Small", "Lines.Large", "Lines.Text"]
d = {s: t[-1][s] - t[1][s] for s in sites}
total = t[-1]["alloc"] - t[1]["alloc"]
frames = {f["frame"]: f["share"] for f in a["by_frame"]}
for s in sites:
    # shares of all sampled bytes; the sites are nearly all the program allocates
    truth = d[s] / total
    got = frames.get(s)
    check(got is not None and abs(got - truth) <= 0.05,
          "%s share %s vs truth %.3f (+-0.05)" % (s, "none" if got is None else "%.3f" % got, truth))
top3 = [f["frame"] for f in a["by_frame"][:3]]
check(top3 == sorted(sites, key=lambda s: -d[s]), "ranking %s" % top3)
types = {(x["type"], x["heap"]): x["share"] for x in a["by_type"]}
check(types.get(("System.Byte[]", "small"), 0) > 0.4, "System.Byte[] on the small heap: %s" % types.get(("System.Byte[]", "small")))
check(types.get(("System.Byte[]", "large"), 0) > 0.2, "System.Byte[] on the large heap: %s" % types.get(("System.Byte[]", "large")))
check(types.get(("System.String", "small"), 0) > 0.05, "System.String on the small heap: %s" % types.get(("System.String", "small")))
check(all(x["heap"] in ("small", "large", "pinned") for x in a["by_type"]), "every type names its heap")
# allocation rate: gctop's exact figure (counters) against the runtime's
truth_bps = (t[-1]["alloc"] - t[1]["alloc"]) / ((t[-1]["t_ns"] - t[1]["t_ns"]) / 1e9)
with_total = [x for x in g if x.get("alloc") and x["alloc"]["bytes_total"] is not None]
from datetime import datetime
def secs(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp()
if len(with_total) >= 2:
    f, l = with_total[1], with_total[-1]
    bps = (l["alloc"]["bytes_total"] - f["alloc"]["bytes_total"]) / (secs(l) - secs(f))
    check(l["alloc"]["source"] == "exact" and abs(bps - truth_bps) <= 0.05 * truth_bps,
          "allocation rate %.0f B/s (%s) vs GC.GetTotalAllocatedBytes %.0f B/s (+-5%%)" % (bps, l["alloc"]["source"], truth_bps))
else:
    check(False, "gctop reported no allocation total")
est = sum(f["bytes_per_s"] for f in a["by_frame"])
check(abs(est - truth_bps) <= 0.10 * truth_bps, "sampled estimate %.0f B/s vs %.0f B/s (+-10%%)" % (est, truth_bps))
PY

# SIGKILL while sampling: the runtime ends the session when its stream closes
"$GCTOP_BIN" -p "$DPID" --allocators --json -d 0.5 >"$WORK/k.json" 2>&1 &
K=$!
wait_until 100 lines_at_least "$WORK/k.json" 2
# its own connections only: another watcher of the machine holds some too
ends=$(gctop_ends "$K" "$DPID")
kill -9 "$K"
wait "$K" 2>/dev/null
wait_until 50 ends_closed "$DPID" "$ends"
check "after SIGKILL the target closes its ends of gctop's connections within 5 s ($(echo $ends))" \
	ends_closed "$DPID" "$ends"
"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 3 >"$WORK/c.json" 2>"$WORK/c.err"
n=$(json_get "$WORK/c.json" -1 'd["top_allocators"]["samples"] or 0' 2>/dev/null)
check "a second gctop samples after the kill ($n samples; $(head -c 200 "$WORK/c.err"))" [ "${n:-0}" -gt 0 ]
check "the target is still running" kill -0 "$DPID"
