#!/bin/sh
# test-lane: measuring
# gctop --allocators on .NET 10 past its budget of AllocationSampled events
# a second (B, GT_DN_SAMPLER_BUDGET_PER_S in collectors/dotnet/sampler/dotnet_duty.h,
# read from there): AllocSites at ~800 MB/s (some 6,000 events a second at
# full rate) makes the sampler duty-cycle (collectors/dotnet/sampler/dotnet_duty.c),
# and its samples, each weighted by 1/share, must still add up to what the
# runtime allocated. The workload prints GC.GetTotalAllocatedBytes and each
# site's exact bytes once a second, stamped with CLOCK_MONOTONIC, the clock
# of the recording's allocators.mono_ns. Tolerances (each stated where it
# is used):
#   the recording says it was duty-cycled: "sampled N% of each second
#   (R events/s at full rate)" with N = B/R (+-1, rounding), below 80%
#   samples a second while cycling: B +-30% (the share of each second
#   comes from the rate of the second before), and at most 0.8 of R
#   sampled bytes against GC.GetTotalAllocatedBytes while cycling: the
#   slope of the recording's est_bytes over the runtime's total, fitted over
#   every record of 30 s, within 5% of 1. The estimate rises in a step once
#   a second (when a window's stream is read), so two points alone would
#   be off by up to a second's bytes; the fit over 30 points is not (its
#   spread from the steps is about 0.1%, from the ~30,000 samples 0.6%).
#   Timed by gctop's requests rather than the events' timestamps, the
#   windows ran long on a busy machine (2 CPU hogs, ASan): 1.050 at the
#   old budget's share of a third, 1.061 at a sixth.
#   each site's share of the sampled bytes: +-5 points of its exact share
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }

# ~800 rounds of ~1 MB a second for at most 60 s; the cleanup kills it sooner
"$exe" 800 60 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 lines_at_least "$WORK/truth" 2
budget=$(sed -n 's/^#define GT_DN_SAMPLER_BUDGET_PER_S \([0-9.]*\).*/\1/p' collectors/dotnet/sampler/dotnet_duty.h)
[ -n "$budget" ] || { fail "no GT_DN_SAMPLER_BUDGET_PER_S in collectors/dotnet/sampler/dotnet_duty.h"; exit 0; }

"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 36 -w "$WORK/rec.ndjson" >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]

comparator "of the duty cycle" python3 - "$WORK/rec.ndjson" "$WORK/truth" "$WORK/g.json" "$budget" <<'PY'
import json, re, sys
rec = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = [json.loads(l) for l in open(sys.argv[2]) if l.strip().startswith("{")]
g = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
budget = float(sys.argv[4])
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_duty_cycle: " + what, flush=True)
allocs = [r["allocators"] for r in rec if r.get("allocators")]
cyc = [a for a in allocs if a["message"].startswith("sampled ")]
if len(t) < 10 or len(cyc) < 20:
    check(False, "too little to compare: %d workload reports, %d of %d records duty-cycled (last message %r)" % (
        len(t), len(cyc), len(allocs), allocs[-1]["message"] if allocs else None))
    sys.exit(0)
m = re.match(r"sampled (\d+)% of each second \((\d+) events/s at full rate\)", cyc[-1]["message"])
check(m is not None, "the message says the share and the rate: %r" % cyc[-1]["message"])
if m:
    pct, rate = int(m.group(1)), int(m.group(2))
    check(pct < 80 and abs(pct - 100 * budget / rate) <= 1,
          "sampled %d%% of each second at %d events/s (%.0f/rate = %.1f%%, +-1)" % (pct, rate, budget, 100 * budget / rate))
# from the second record that says it cycles (the first may hold the always-on second)
span = [a for a in cyc[1:] if a["mono_ns"] <= t[-1]["t_ns"]]
secs = (span[-1]["mono_ns"] - span[0]["mono_ns"]) / 1e9
sps = (span[-1]["samples"] - span[0]["samples"]) / secs
check(0.7 * budget <= sps <= 1.3 * budget and (not m or sps <= 0.8 * rate),
      "%.0f samples a second while cycling (%.0f +-30%%, at most 0.8 of %s)" % (sps, budget, rate if m else "?"))
def truth(ns, key):
    for a, b in zip(t, t[1:]):
        if a["t_ns"] <= ns <= b["t_ns"]:
            return a[key] + (ns - a["t_ns"]) / (b["t_ns"] - a["t_ns"]) * (b[key] - a[key])
    return None
pts = [(truth(a["mono_ns"], "alloc"), a["est_bytes"]) for a in span]
pts = [(x, y) for x, y in pts if x is not None]
n = len(pts)
mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
check(secs >= 25 and abs(slope - 1) <= 0.05,
      "sampled bytes over %.0f s of cycling: %.4f of GC.GetTotalAllocatedBytes (slope over %d records, 1 +-0.05)"
      % (secs, slope, n))
# each site's share of the last window against its exact share
a = g[-1]["top_allocators"]
sites = ["Lines.Small", "Lines.Large", "Lines.Text"]
total = t[-1]["alloc"] - t[1]["alloc"]
frames = {f["frame"]: f["share"] for f in a["by_frame"]}
for s in sites:
    want = (t[-1][s] - t[1][s]) / total
    got = frames.get(s)
    check(got is not None and abs(got - want) <= 0.05,
          "%s share %s vs truth %.3f (+-0.05)" % (s, "none" if got is None else "%.3f" % got, want))
PY
