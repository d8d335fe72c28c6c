#!/bin/sh
# test-lane: measuring
# Method names on .NET 10 when the sampler duty-cycles: the method loads come
# in the sampling session, on for about a twelfth of each second here
# (budget/rate, collectors/dotnet/sampler/dotnet_duty.h), so a method compiled
# while it is off must be named by a rundown at the end of a later window
# (collectors/dotnet/sampler/dotnet_sampler.c, want_rundown).
# AllocSites at ~800 MB/s (some 6,000 events a second: cycling) hands its
# small-object work, from 6 s on, to six methods compiled one by one 0.7 s
# apart, each once (no tier-up), at moments no window is timed to: all six
# loads fall inside windows with a chance of about 0.08^6. Asserted, over
# the last 12 s of a 30 s recording (by then every late method has run for
# 20 s, past the 10 s between two rundowns):
#   each Late.X is a site, with its share of the sampled bytes within
#     +-4 points of its exact share (~10%: GC.GetAllocatedBytesForCurrentThread
#     around each call); a method left unnamed would give it 0, its bytes
#     going to [native] or its caller
#   [native] and Program.Main (the caller) hold under 2% together
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }

"$exe" 800 60 6 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 lines_at_least "$WORK/truth" 2

"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 30 -w "$WORK/rec.ndjson" >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]

comparator "of the late names" python3 - "$WORK/rec.ndjson" "$WORK/truth" <<'PY'
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = [json.loads(l) for l in open(sys.argv[2]) if l.strip().startswith("{")]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_late_names: " + what, flush=True)
allocs = [r["allocators"] for r in rec if r.get("allocators")]
late = ["Late.%s" % c for c in "ABCDEF"]
if len(allocs) < 20 or len(t) < 20:
    check(False, "too little to compare: %d records, %d workload reports" % (len(allocs), len(t)))
    sys.exit(0)
check(allocs[-1]["message"].startswith("sampled "), "the sampler duty-cycles: %r" % allocs[-1]["message"])
# the last record the workload's reports reach (gctop ends before its next one)
last = [a for a in allocs if a["mono_ns"] <= t[-1]["t_ns"]][-1]
first = next(a for a in allocs if a["mono_ns"] >= last["mono_ns"] - 12e9)
def sites(a):
    return {s["name"]: s["bytes"] for s in a["by_frame"]["sites"]}
s0, s1 = sites(first), sites(last)
got = {k: s1[k] - s0.get(k, 0) for k in s1}
total = sum(got.values())
def truth(ns, key):
    for a, b in zip(t, t[1:]):
        if a["t_ns"] <= ns <= b["t_ns"]:
            return a[key] + (ns - a["t_ns"]) / (b["t_ns"] - a["t_ns"]) * (b[key] - a[key])
    return None
span = (last["mono_ns"] - first["mono_ns"]) / 1e9
a0, a1 = truth(first["mono_ns"], "alloc"), truth(last["mono_ns"], "alloc")
if a0 is None or a1 is None or total <= 0:
    check(False, "the recording's last 12 s fall outside the workload's reports")
    sys.exit(0)
for k in late:
    want = (truth(last["mono_ns"], k) - truth(first["mono_ns"], k)) / (a1 - a0)
    share = got.get(k, 0) / total
    check(abs(share - want) <= 0.04, "%s share %.3f vs truth %.3f over the last %.0f s (+-0.04)%s"
          % (k, share, want, span, "" if k in got else ": not a site"))
lost = (got.get("[native]", 0) + got.get("Program.Main", 0)) / total
check(lost < 0.02, "[native] and Program.Main hold %.3f of the bytes (< 0.02)" % lost)
PY
