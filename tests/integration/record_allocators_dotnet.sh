#!/bin/sh
# sanitizer: yes
# gctop -w with --allocators on .NET: the sampler's tables are recorded
# with the samples that brought them, and gctop -r --json prints what gctop
# printed live, top allocators included, byte for byte.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AllocSites) || { fail "cannot build tests/dotnet/AllocSites (log: $WORK/dotnet-build-AllocSites.log)"; exit 0; }
"$exe" 50 30 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"
"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 6 -w "$WORK/rec.ndjson" >"$WORK/live.json" 2>"$WORK/live.err"
rc=$?
check "gctop --allocators --json -w exits 0 ($(head -c 300 "$WORK/live.err"))" [ "$rc" -eq 0 ]
n=$(grep -c '"allocators":{' "$WORK/rec.ndjson")
check "the recording holds the sampler's tables ($n samples with them)" [ "$n" -ge 3 ]
check "with the allocating method in them" grep -q '"name":"Lines.Small' "$WORK/rec.ndjson"
"$GCTOP_BIN" -r "$WORK/rec.ndjson" --json >"$WORK/replay.json" 2>"$WORK/replay.err"
rc=$?
check "gctop -r --json exits 0 ($(head -c 300 "$WORK/replay.err"))" [ "$rc" -eq 0 ]
check "the replay prints what gctop printed live, top allocators included" cmp -s "$WORK/live.json" "$WORK/replay.json"
check "and the live output had top allocators" sh -c 'tail -1 "$1" | grep -q "\"by_frame\":\[{"' - "$WORK/live.json"
kill "$DPID" 2>/dev/null
wait "$DPID" 2>/dev/null
rm -f /tmp/dotnet-diagnostic-"$DPID"-*-socket
