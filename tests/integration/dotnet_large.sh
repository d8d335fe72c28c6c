#!/bin/sh
# test-lane: measuring
# .NET large-object allocation: AllocSites puts 30% of its bytes in byte[307176]
# arrays (the large object heap) and measures each site exactly; gctop counts
# LOH allocation at each collection from GCPerHeapHistory, so an interval's
# figure holds what the collections in it counted (it lags by up to one
# collection). Over the run its share of the allocation is within 3 points of
# the workload's own, and so is its share of all the bytes the same
# collections counted (the per-interval share's denominator, read from a
# recording: measured 0.299 and 0.300 against 0.300), on Workstation and on
# Server GC with two heaps (a 16 MB gen0 budget, so that collections come
# every few hundred milliseconds).
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }

# run_case NAME ENV...: the workload under a GC configuration, gctop beside it
run_case() {
	name=$1
	shift
	env "$@" "$exe" 40 60 >"$WORK/truth-$name" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 100 dotnet_socket_exists "$DPID"
	"$GCTOP_BIN" -p "$DPID" --json -d 2 -n 6 -w "$WORK/rec-$name" >"$WORK/out-$name.json" 2>"$WORK/err"
	rc=$?
	check "$name: gctop exits 0 ($(head -c 300 "$WORK/err"))" [ "$rc" -eq 0 ]
	kill "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	comparator "of $name" python3 - "$WORK/out-$name.json" "$WORK/truth-$name" "$name" "$WORK/rec-$name" <<'PY'
import json, sys
name = sys.argv[3]
out = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
truth = [json.loads(l) for l in open(sys.argv[2]) if l.strip().startswith('{"t_ns"')]
share = (truth[-1]["Lines.Large"] - truth[0]["Lines.Large"]) / (truth[-1]["alloc"] - truth[0]["alloc"])
# The allocation total is as of the runtime's last counter poll, age_s
# before the sample: carried to the sample's moment at the run's rate, so
# that both totals cover the same span.
lo = [o["large_objects"]["alloc_bytes_total"] for o in out]
al = [o["alloc"]["bytes_total"] for o in out]
age = [o["alloc"]["age_s"] or 0.0 for o in out]
t = [o["interval_s"] for o in out]
got = None
if None not in (lo[1], lo[-1], al[1], al[-1]) and al[-1] > al[1]:
    span = sum(t[2:]) - age[-1] + age[1]
    rate = (al[-1] - al[1]) / span
    at_sample = lambda i: al[i] + rate * age[i]
    got = (lo[-1] - lo[1]) / (at_sample(len(out) - 1) - at_sample(1))
ok = got is not None and abs(got - share) <= 0.03
print(("PASS" if ok else "FAIL") + ": dotnet_large: %s: LOH share of allocation over the run %s within 3 points of the workload's %.3f"
      % (name, None if got is None else round(got, 3), share), flush=True)
# The share's own denominator: all the bytes the same collections counted
# (the recording's large_alloc_of_total), over the same collections
rec = [json.loads(l) for l in open(sys.argv[4]) if '"type":"sample"' in l]
both = [(x["large_alloc_bytes_total"], x["large_alloc_of_total"]) for x in rec
        if x.get("large_alloc_bytes_total") is not None and x.get("large_alloc_of_total") is not None]
gc = (both[-1][0] - both[0][0]) / (both[-1][1] - both[0][1]) if len(both) > 1 and both[-1][1] > both[0][1] else None
ok = gc is not None and abs(gc - share) <= 0.03
print(("PASS" if ok else "FAIL") + ": dotnet_large: %s: LOH share of the bytes the collections counted %s within 3 points of the workload's %.3f"
      % (name, None if gc is None else round(gc, 3), share), flush=True)
src = (out[-1]["large_objects"] or {}).get("source")
print(("PASS" if src == "loh" else "FAIL") + ": dotnet_large: %s: the figure names its source (%s)" % (name, src), flush=True)
PY
}

run_case workstation DOTNET_gcServer=0
run_case server DOTNET_gcServer=1 DOTNET_GCHeapCount=2 DOTNET_GCgen0size=0x1000000
