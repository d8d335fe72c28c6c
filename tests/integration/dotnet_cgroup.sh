#!/bin/sh
# A .NET process in a memory-limited cgroup of its own: without any setting
# the GC limits its heap to 75% of the container limit, and gctop's
# gc_hard_limit_bytes must equal what the runtime itself reports
# (GCMemoryInfo.TotalAvailableMemoryBytes, the hard limit when one is set).
# Needs a memory cgroup it may create groups under; skips where it may not.
. tests/lib.sh

LIMIT=$((512 * 1024 * 1024))

require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

make_memory_cgroup gctop-dotnet "$LIMIT"

exe=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
out=$(dirname "$exe")
# The shell joins the group, then becomes the workload.
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 5 6' sh "$GROUP" "$out/GcAlloc" >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"
"$GCTOP_BIN" -p "$DPID" --json -d 0.5 -n 2 >"$WORK/g.json" 2>"$WORK/g.err"
check "gctop exits 0 ($(head -c 200 "$WORK/g.err"))" [ -s "$WORK/g.json" ]
ours=$(json_get "$WORK/g.json" -1 'd["memory"]["gc_hard_limit_bytes"]')
limit=$(json_get "$WORK/g.json" -1 'd["memory"]["cgroup_limit_bytes"]')
truth=$(json_get "$WORK/truth" 1 'd["available"]')
check "the cgroup limit is seen ($limit)" [ "$limit" = "$LIMIT" ]
check "GC hard limit $ours equals the runtime's TotalAvailableMemoryBytes $truth (75% of $LIMIT)" [ "$ours" = "$truth" ]
kill "$DPID" 2>/dev/null
wait "$DPID" 2>/dev/null
rm -f /tmp/dotnet-diagnostic-"$DPID"-*-socket
