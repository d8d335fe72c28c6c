#!/bin/sh
# test-lane: measuring
# Side by side with dotnet-counters, where the SDK can install it: started
# while gctop watches, dotnet-counters must still work (gctop holds no
# metrics session, of which the runtime allows one), and the allocation rate
# both report while the workload allocates steadily agrees within +-5%.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
tools="$PROGRAMS/dotnet-tools"
if [ ! -x "$tools/dotnet-counters" ]; then
	timeout 180 dotnet tool install --tool-path "$tools" dotnet-counters >"$WORK/install.log" 2>&1 ||
		{ skip "dotnet-counters cannot be installed here (no NuGet access?): $(tail -1 "$WORK/install.log")"; exit 0; }
fi
exe=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
out=$(dirname "$exe")

"$out/GcAlloc" 30 14 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"

"$GCTOP_BIN" -p "$DPID" --json -d 1 -n 10 >"$WORK/g.json" 2>"$WORK/g.err" &
G=$!
sleep 2
"$tools/dotnet-counters" collect -p "$DPID" --refresh-interval 1 --format json -o "$WORK/dc.json" \
	--counters System.Runtime --duration 00:00:00:06 </dev/null >"$WORK/dc.log" 2>&1
rc=$?
wait "$G"
grc=$?
check "gctop exits 0 ($grc: $(head -c 200 "$WORK/g.err"))" [ "$grc" -eq 0 ]
if [ "$rc" -eq 0 ] && [ -s "$WORK/dc.json" ] && ! grep -q "already in progress" "$WORK/dc.log"; then
	pass "dotnet-counters runs while gctop watches"
else
	fail "dotnet-counters failed while gctop watches (rc $rc): $(grep -v '^ *at ' "$WORK/dc.log" | head -3)"
	exit 0
fi

comparator "with dotnet-counters" python3 - "$WORK/g.json" "$WORK/dc.json" <<'PY'
import json, sys
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
dc = json.load(open(sys.argv[2]))["Events"]
def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None
ours = median([x["alloc"]["rate_bps"] for x in g if x["alloc"] and x["alloc"]["rate_bps"]])
theirs = median([e["value"] for e in dc if e["name"].startswith("dotnet.gc.heap.total_allocated") and e["value"] > 0])
ok = ours is not None and theirs is not None and abs(ours - theirs) <= 0.05 * theirs
print(("PASS" if ok else "FAIL") + ": dotnet_counters: allocation rate %s B/s vs dotnet-counters %s B/s (+-5%%)" % (ours, theirs), flush=True)
PY
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
