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
		{ skip_unless_ci nuget "dotnet-counters cannot be installed here (no NuGet access?): $(tail -1 "$WORK/install.log")"; exit 0; }
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
import os
from datetime import datetime
# the workload's own output, beside gctop's in $WORK
truth = [json.loads(l) for l in open(os.path.join(os.path.dirname(sys.argv[1]), "truth")) if l.startswith("{")]
phase = {x["phase"]: x["wall_ms"] for x in truth if "phase" in x}
def ms(stamp):
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000
def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else None
# The window: the rates whose span lies inside the workload's allocating
# phase (both tools' spans are a second; no rate is dropped for its value,
# so a 0 inside the phase counts against gctop). gctop's span ends at its
# counter poll (age_s before the sample), and it repeats its last rate
# until the next poll: one rate per poll.
busy0, busy1 = phase.get("busy_start", float("inf")), phase.get("busy_end", float("inf"))
polls = {}
for x in g:
    a = x["alloc"]
    if not a or a["rate_bps"] is None or a["age_s"] is None or not a["rate_span_s"]:
        continue
    end = ms(x["time"]) - a["age_s"] * 1000
    if busy0 <= end - a["rate_span_s"] * 1000 and end <= busy1:
        polls[round(end / 100)] = a["rate_bps"]
ours = median(list(polls.values()))
theirs = median([e["value"] for e in dc if e["name"].startswith("dotnet.gc.heap.total_allocated")
                 and busy0 <= ms(e["timestamp"]) - 1000 and ms(e["timestamp"]) <= busy1])
ok = ours is not None and theirs is not None and abs(ours - theirs) <= 0.05 * theirs
print(("PASS" if ok else "FAIL") + ": dotnet_counters: allocation rate %s B/s vs dotnet-counters %s B/s (+-5%%)" % (ours, theirs), flush=True)
PY
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
