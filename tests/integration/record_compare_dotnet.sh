#!/bin/sh
# test-lane: measuring
# Before and after on .NET: a CSV export service recorded with gctop -w
# twice, the whole CSV built in memory per request, then streamed through
# one pooled buffer, and gctop --compare on the two recordings. Held to the
# app's own counts (GC.GetTotalAllocatedBytes, GC.CollectionCount):
#   - bytes per request (the median of the intervals) within 5% and one
#     interval's share of a request of the app's own bytes per request over
#     the requests (the bound dotnet_aspnet holds each steady interval to;
#     the median is one of them);
#   - the streamed export allocating at least 10x less per request;
#   - gen2 collections per minute times the run's minutes: the app's own
#     gen2 count over the recording, exactly (the app is idle at both ends),
#     and falling from the first run to the second;
#   - --fail-if passing the fix and failing its reversal (status 11), and
#     the text table naming both runs and the figures.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }
. tests/integration/record_compare_dotnet.shlib

# Workstation GC: an ASP.NET app defaults to Server GC with DATAS, under
# which the runtime's GC.GetTotalAllocatedBytes falls when heaps are taken
# away (see record_compare_check.py); the configurations are compared in
# record_compare_configs.sh.
record_export memory 0 DOTNET_gcServer=0
record_export stream 1 DOTNET_gcServer=0
for r in memory stream; do
	check "gctop -w exits 0 while recording the $r run ($(cat "$WORK/$r.rc"): $(head -c 300 "$WORK/$r.err"))" \
		[ "$(cat "$WORK/$r.rc")" -eq 0 ]
done

"$GCTOP_BIN" --compare "$WORK/memory.ndjson" "$WORK/stream.ndjson" --json >"$WORK/cmp.json" 2>"$WORK/cmp.err"
rc=$?
check "--compare --json exits 0 ($(head -c 300 "$WORK/cmp.err"))" [ "$rc" -eq 0 ]
comparator "of the runs" python3 - "$WORK/cmp.json" "$EXPORT_PACE" "$WORK/memory.truth" "$WORK/stream.truth" <<'PY'
import sys
sys.path.insert(0, "tests/integration")
from record_compare_check import check_runs, gen2_per_min
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": record_compare_dotnet: " + what, flush=True)
runs, truths = check_runs("record_compare_dotnet", sys.argv[1], int(sys.argv[2]), sys.argv[3:])
if len(runs) == 2:
    check(runs[0]["file"].endswith("memory.ndjson"), "the runs in the order given")
    m, s = runs[0]["alloc"]["bytes_per_op_median"] or 0, runs[1]["alloc"]["bytes_per_op_median"] or 1e18
    check(m >= 10 * s, "bytes per request fell at least 10x: %.0f -> %.0f" % (m, s))
    check(abs(runs[1]["ratio_to_first"]["alloc.bytes_per_op_median"] - s / m) < 1e-6, "the ratio to the first run is after/before")
    g = [gen2_per_min(r) for r in runs]
    check(truths[0]["gen2"] > 0 and g[1] < g[0],
          "gen2 per minute fell: %s -> %s (the app: %d -> %d)" % (g[0], g[1], truths[0]["gen2"], truths[1]["gen2"]))
    check(runs[0]["memory"]["working_set_peak_bytes"] > 0 and runs[0]["pause"]["share"] is not None,
          "working set and pause share are there")
PY

"$GCTOP_BIN" --compare "$WORK/memory.ndjson" "$WORK/stream.ndjson" --fail-if 'alloc.bytes_per_op_median>+10%' >"$WORK/cmp.txt" 2>"$WORK/gate.err"
rc=$?
check "--fail-if passes the fix ($(cat "$WORK/gate.err"))" [ "$rc" -eq 0 ]
"$GCTOP_BIN" --compare "$WORK/stream.ndjson" "$WORK/memory.ndjson" --fail-if 'alloc.bytes_per_op_median>+10%' >/dev/null 2>"$WORK/gate2.err"
rc=$?
check "--fail-if fails the reversal with status 11 ($(cat "$WORK/gate2.err"))" [ "$rc" -eq 11 ]
check "the text table has both runs, bytes per request and gen2 rows" \
	sh -c 'grep -q "memory.ndjson.*stream.ndjson" "$1" && grep -q "^bytes per op (requests), median" "$1" && grep -q "^collections gen2" "$1"' - "$WORK/cmp.txt"
