#!/bin/sh
# test-lane: measuring
# gctop's .NET pause time over the whole of a load of 31 s or 16 s against
# the program's own GC.GetTotalPauseDuration, on the CSV export's shape
# (tests/dotnet/CsvLoad: 4 threads building 4 M-character CSVs on the large
# object heap; background gen2 GCs, foreground GCs during them), under
# Server GC with DATAS and with a fixed heap count (31 s of load each: the
# runtime's total is a second or two there, and a final mark the runtime
# times from where no event says is some 50 ms of it) and Workstation GC
# (16 s). The workload prints the runtime's total every
# 20 ms; gctop --json samples every half second.
#
# Checks, per configuration:
#   the pause time gctop credited to the intervals (pause.share times
#   interval_s, summed) from its last sample before the load to its last
#   sample, 2.5 s after it (both in the quiet, where the runtime's total
#   stands still and gctop has read every pause)
#   is the runtime's total's growth over the same window +-3%. gctop read
#   -5% to -8% here under Server GC with DATAS: a background GC's final
#   mark, which the runtime times from the end of the concurrent mark when
#   the GC thread that restarted the program a moment before holds it up,
#   was counted from its suspension only (collectors/dotnet/
#   dotnet_gc_events.h).
#   every pause share is within [0, 1]
# Windows of 9 s inside the load are not checked: their edges fall among
# pauses, and on a loaded machine the runtime's clock for a final mark can
# start where no event says (README, "How accurate").
# About 110 s.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CSV=$(dotnet_program CsvLoad) || { fail "cannot build tests/dotnet/CsvLoad (log: $WORK/dotnet-build-CsvLoad.log)"; exit 0; }

# compare NAME GCTOP_NDJSON TRUTH_NDJSON SPAN (the window's least length, s)
compare() {
	python3 - "$@" <<'PY'
import json, sys
from datetime import datetime
name, gfile, tfile, span_min = sys.argv[1:5]
g = [json.loads(l) for l in open(gfile) if l.strip().startswith("{")]
lines = [json.loads(l) for l in open(tfile) if l.strip().startswith("{")]
rep = [x for x in lines if "pause_ns" in x]
phase = {x["phase"]: x["wall_ms"] for x in lines if "phase" in x}
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_pause_total: %s: %s" % (name, what), flush=True)
def ms(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp() * 1000
def truth(wall):
    # linear between the two reports around wall (20 ms apart)
    for a, b in zip(rep, rep[1:]):
        if a["wall_ms"] <= wall <= b["wall_ms"]:
            f = (wall - a["wall_ms"]) / max(1, b["wall_ms"] - a["wall_ms"])
            return a["pause_ns"] + f * (b["pause_ns"] - a["pause_ns"])
    return None
if "busy_start" not in phase or "busy_end" not in phase or len(g) < 5:
    check(False, "the workload ran its phases and gctop sampled it (%s, %d samples)" % (sorted(phase), len(g)))
    sys.exit(0)
shares = [x["pause"]["share"] for x in g if x["pause"]["share"] is not None]
check(shares and all(0 <= s <= 1 for s in shares),
      "every pause share within [0, 1] (%d, max %s)" % (len(shares), max(shares, default=None)))
# gctop's pause time credited up to each sample
cum = [0.0]
for x in g[1:]:
    s = x["pause"]["share"]
    cum.append(cum[-1] + (s * x["interval_s"] if s is not None else 0.0))
def err(i, j):
    t0, t1 = truth(ms(g[i])), truth(ms(g[j]))
    if t0 is None or t1 is None or t1 <= t0:
        return None, None, None
    tp = (t1 - t0) / 1e9
    return (cum[j] - cum[i] - tp) / tp, cum[j] - cum[i], tp
before = [i for i, x in enumerate(g) if ms(x) < phase["busy_start"]]
after = [i for i, x in enumerate(g) if ms(x) > phase["busy_end"] + 2000]
ok = bool(before and after)
e, ours, theirs = err(before[-1], after[-1]) if ok else (None, None, None)
span = (ms(g[after[-1]]) - ms(g[before[-1]])) / 1000 if ok else 0
check(e is not None and span >= float(span_min) and abs(e) <= 0.03,
      "pause time over the whole load (%.1f s): %s s against GC.GetTotalPauseDuration's %s s (%s) (+-3%%)"
      % (span, ours and round(ours, 3), theirs and round(theirs, 3), e is not None and "%+.2f%%" % (e * 100)))
PY
}

# run_case NAME SECONDS SPAN "ENV=VALUE ..."
run_case() {
	name=$1
	# quiet 1.5 s, SECONDS of load, then quiet until gctop is done
	env $4 "$CSV" 4 4 "$2" 1.5 60 20 >"$WORK/$name.truth" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 50 dotnet_socket_exists "$DPID"
	"$GCTOP_BIN" -p "$DPID" --json -d 0.5 -n 600 >"$WORK/$name.json" 2>"$WORK/$name.err" &
	GPID=$!
	wait_until 900 grep -q busy_end "$WORK/$name.truth"
	sleep 2.5
	kill -TERM "$GPID"
	wait "$GPID"
	rc=$?
	check "$name: gctop exits 0 on SIGTERM (status $rc: $(head -c 300 "$WORK/$name.err"))" [ "$rc" -eq 0 ]
	kill "$DPID"
	wait "$DPID" 2>/dev/null
	rm -f /tmp/dotnet-diagnostic-"$DPID"-*-socket
	comparator "$name" compare "$name" "$WORK/$name.json" "$WORK/$name.truth" "$3"
}

run_case server-datas 31 30 "DOTNET_gcServer=1 DOTNET_gcConcurrent=1 DOTNET_GCDynamicAdaptationMode=1"
run_case server 31 30 "DOTNET_gcServer=1 DOTNET_gcConcurrent=1 DOTNET_GCDynamicAdaptationMode=0"
run_case workstation 16 16 "DOTNET_gcServer=0 DOTNET_gcConcurrent=1"
