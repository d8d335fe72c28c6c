#!/bin/sh
# test-lane: measuring
# The same CSV export (built in memory) recorded under Workstation GC,
# Server GC and Server GC with DATAS, and gctop --compare on the three: the
# table names each configuration, and each run's figures hold to the app's
# own counts as in record_compare_dotnet (bytes per request within 5% and
# 1/pace of a request; gen2 collections over the run exactly).
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }
EXPORT_REQUESTS=75
. tests/integration/record_compare_dotnet.shlib

record_export workstation 0 DOTNET_gcServer=0
record_export server 0 DOTNET_gcServer=1 DOTNET_GCDynamicAdaptationMode=0
record_export datas 0 DOTNET_gcServer=1 DOTNET_GCDynamicAdaptationMode=1
for r in workstation server datas; do
	check "gctop -w exits 0 while recording the $r run ($(cat "$WORK/$r.rc"): $(head -c 300 "$WORK/$r.err"))" \
		[ "$(cat "$WORK/$r.rc")" -eq 0 ]
done
"$GCTOP_BIN" --compare "$WORK/workstation.ndjson" "$WORK/server.ndjson" "$WORK/datas.ndjson" --json >"$WORK/cmp.json" 2>"$WORK/cmp.err"
rc=$?
check "--compare --json exits 0 ($(head -c 300 "$WORK/cmp.err"))" [ "$rc" -eq 0 ]
"$GCTOP_BIN" --compare "$WORK/workstation.ndjson" "$WORK/server.ndjson" "$WORK/datas.ndjson" >"$WORK/cmp.txt" 2>&1
check "the table shows the three configurations side by side" \
	sh -c 'grep -Eq "^GC +Workstation.* Server.* Server" "$1" && grep -Eq "^GC mode.*concurrent +concurrent +concurrent, DATAS" "$1"' - "$WORK/cmp.txt"
comparator "of the configurations" python3 - "$WORK/cmp.json" "$EXPORT_PACE" "$WORK/workstation.truth" "$WORK/server.truth" "$WORK/datas.truth" <<'PY'
import sys
sys.path.insert(0, "tests/integration")
from record_compare_check import check_runs
check_runs("record_compare_configs", sys.argv[1], int(sys.argv[2]), sys.argv[3:],
           [("Workstation", False), ("Server", False), ("Server", True)])
PY
