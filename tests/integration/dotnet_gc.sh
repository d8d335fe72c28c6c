#!/bin/sh
# test-lane: measuring
# gctop against a .NET 10 process that allocates at a steady, known rate and
# prints its own truth once a second (GC.GetTotalAllocatedBytes,
# GC.CollectionCount, GC.GetTotalPauseDuration, GC.GetGCMemoryInfo): under
# Workstation GC, under Server GC with DATAS, and with pinned (POH) buffers.
#
# The workload idles before and after its allocating phase, so totals over
# gctop's window can be held against the workload's own figures taken in the
# quiet at both ends. Tolerances (each stated where it is used):
#   allocated bytes over the window, and the rate while allocating over the
#   runtime's own poll intervals: +-5%
#   collections per generation (GC.CollectionCount): +-1
#   pause time over the window, each end as of its pause.age_s: +-3% of
#   GC.GetTotalPauseDuration
#   LOH, POH and fragmentation after the last GC: equal to GC.GetGCMemoryInfo
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
GCALLOC=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }

RATE_MB=40

# compare NAME GCTOP_NDJSON TRUTH_NDJSON [pinned]
compare() {
	comparator "of $1" python3 - "$@" <<'PY'
import json, os, sys
name, gfile, tfile = sys.argv[1:4]
RATE = float(os.environ["RATE"])
pinned = len(sys.argv) > 4
from datetime import datetime
g = [json.loads(l) for l in open(gfile) if l.strip()]
lines = [json.loads(l) for l in open(tfile) if l.strip().startswith("{")]
t = [x for x in lines if "t_ns" in x]
phase = {x["phase"]: x["wall_ms"] for x in lines if "phase" in x}
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_gc: %s: %s" % (name, what), flush=True)
def ms(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp() * 1000
# gctop's window: its last sample with an allocation figure before the
# allocating starts, and its first sample 2.5 s after it ends (the counter is
# polled every second) that has seen every collection (below); the
# workload's own window: its last reports before those two samples.
before = [x for x in g if ms(x) < phase.get("busy_start", 0) - 100 and x["alloc"]]
after = [x for x in g if ms(x) > phase.get("busy_end", 1e18) + 2500]
if not before or not after or len(t) < 4:
    check(False, "no gctop sample in the quiet before (%d) or after (%d) the allocating phase, %d reports" % (len(before), len(after), len(t)))
    sys.exit(0)
# Events reach gctop a little after the runtime wrote them (more on a
# loaded machine), so its first sample in the quiet may not have the last
# collection yet: the window ends at the first quiet sample that has seen
# as many collections as the runtime reported by then, and the truth it is
# compared with is the runtime's last report before that sample.
def report_at(wall):
    r = [x for x in t if x["wall_ms"] <= wall]
    return r[-1] if r else t[0]
first = before[-1]
t0 = report_at(ms(first))
caught_up = [x for x in after if x["generations"][0]["collections_inclusive"] - first["generations"][0]["collections_inclusive"] ==
             report_at(ms(x))["gc0"] - t0["gc0"]]
if not caught_up:
    check(False, "no quiet sample saw every collection the runtime reported (gctop %s, the runtime %s)" % (
        [x["generations"][0]["collections_inclusive"] - first["generations"][0]["collections_inclusive"] for x in after],
        [report_at(ms(x))["gc0"] - t0["gc0"] for x in after]))
    sys.exit(0)
last = caught_up[0]
t1 = report_at(ms(last))
# allocation over the window, both sides exact: +-5%
ga = last["alloc"]["bytes_total"] - first["alloc"]["bytes_total"]
ta = t1["alloc"] - t0["alloc"]
check(abs(ga - ta) <= 0.05 * ta, "allocated over the window %d vs the runtime's %d (+-5%%)" % (ga, ta))
check(last["alloc"]["source"] == "exact" and last["alloc"]["since"] == "attach",
      "allocation source exact, counted since attach (%s, %s)" % (last["alloc"]["source"], last["alloc"]["since"]))
# the rate while allocating: the median of gctop's intervals, +-5% of the
# median of the workload's own rate over the same spans (each gctop rate
# covers the runtime's poll interval, rate_span_s, ending age_s before its
# sample; the workload reports once a second, read in between linearly, so
# only spans a second or more inside the allocating phase)
def truth_at(wall):
    for a, b in zip(t, t[1:]):
        if a["wall_ms"] <= wall <= b["wall_ms"]:
            return a["alloc"] + (wall - a["wall_ms"]) / max(1, b["wall_ms"] - a["wall_ms"]) * (b["alloc"] - a["alloc"])
    return None
pairs = []
for x in g:
    al = x["alloc"]
    # no filter on the rate itself: a low one inside the phase is gctop's
    if not al or al["rate_bps"] is None or al["age_s"] is None or not al["rate_span_s"]:
        continue
    w1 = ms(x) - al["age_s"] * 1000
    w0 = w1 - al["rate_span_s"] * 1000
    # a report interval from either end of the allocating phase, where
    # reading the workload's total linearly between its reports holds
    if w0 < phase.get("busy_start", 1e18) + 1000 or w1 > phase.get("busy_end", 0) - 1000:
        continue
    a, b = truth_at(w0), truth_at(w1)
    if a is not None and b is not None:
        pairs.append((al["rate_bps"], (b - a) / al["rate_span_s"]))
if pairs:
    gm = sorted(p[0] for p in pairs)[len(pairs) // 2]
    tm = sorted(p[1] for p in pairs)[len(pairs) // 2]
    check(abs(gm - tm) <= 0.05 * tm, "rate while allocating %.0f B/s vs the runtime's %.0f B/s over the same spans (+-5%%)" % (gm, tm))
else:
    check(False, "no allocating interval seen")
# collections since attach, each GC once by the oldest generation collected
# (exclusive: GC.CollectionCount(k) - GC.CollectionCount(k + 1)), and
# collections_inclusive as GC.CollectionCount(k): +-1
def excl(r, k):
    return r["gc%d" % k] - (r["gc%d" % (k + 1)] if k < 2 else 0)
for k in range(3):
    gk, fk = last["generations"][k], first["generations"][k]
    d, td = gk["collections"] - fk["collections"], excl(t1, k) - excl(t0, k)
    check(abs(d - td) <= 1 and gk["collections_counting"] == "exclusive",
          "gen%d collections over the window %d vs GC.CollectionCount's exclusive %d (+-1), counting %s" % (
              k, d, td, gk["collections_counting"]))
    d, td = gk["collections_inclusive"] - fk["collections_inclusive"], t1["gc%d" % k] - t0["gc%d" % k]
    check(abs(d - td) <= 1, "gen%d collections_inclusive over the window %d vs GC.CollectionCount %d (+-1)" % (k, d, td))
check([c["collections"] for c in last["collectors"]] == [g["collections"] for g in last["generations"][:3]] and
      sum(c["collections"] for c in last["collectors"]) == last["generations"][0]["collections_inclusive"],
      "the collectors count as the generations do, and add up to gen0's inclusive count")
# pause time: the runtime's own counter as of pause.age_s before each
# sample (the man page), between the last sample whose figures are as of the
# quiet before and the last sample (4 s or more after the allocating, its
# figures 2.5 s old): +-3% of GC.GetTotalPauseDuration between those moments
# (the workload's reports before them). Timed from the events, gctop read
# up to the background GCs' final marks low.
def asof(x):
    return ms(x) - 1000 * (x["pause"]["age_s"] or 0)
pall = [x for x in g if x["pause"]["total_s"] is not None]
pa = [x for x in pall if asof(x) < phase["busy_start"] - 100]
pb = [x for x in pall if asof(x) > phase["busy_end"] + 500]
if not pa or not pb:
    check(False, "pause figures as of the quiet before (%d) and after (%d) the allocating" % (len(pa), len(pb)))
else:
    gp = pb[-1]["pause"]["total_s"] - pa[-1]["pause"]["total_s"]
    tp = (report_at(asof(pb[-1]))["pause_ns"] - report_at(asof(pa[-1]))["pause_ns"]) / 1e9
    check(tp > 0 and abs(gp - tp) <= 0.03 * tp,
          "pause over the window %.4f s vs the runtime's %.4f s (+-3%%)" % (gp, tp))
# the longest pause of an interval with pauses, and none (null, not 0) in a
# quiet one; the last pause stays
window = [x for x in g if ms(first) < ms(x) <= ms(last)]
check(last["pause"]["last_ms"] is not None and any(x["pause"]["max_ms"] for x in window) and
      all((x["pause"]["max_ms"] is None) == (x["pause"]["count"] == 0) for x in window),
      "last pause present, and the longest of each interval where it had pauses, null where none (%s)" % (
          [(x["pause"]["count"], x["pause"]["max_ms"]) for x in window]))
# sizes after the last GC, read in the quiet: equal
# (null large objects, the regression these guard against, fails each;
# lo is {} then, so that the checks after them are still decided)
lo = last["large_objects"] or {}
check(lo.get("bytes") == t1["loh"], "LOH %s vs GC.GetGCMemoryInfo gen3 %d" % (lo.get("bytes"), t1["loh"]))
check(lo.get("source") == "loh", "large-object source is loh (%s)" % lo.get("source"))
frag = [x["fragmented_bytes"] for x in last["generations"]]
def gcs(x):
    return [c["collections"] for c in x["generations"][:3]]
check(frag == t1["frag"], "fragmentation per generation %s vs GC.GetGCMemoryInfo %s (gctop's collections then %s, at the window's start %s; "
      "the runtime's last reports: %s)" % (frag, t1["frag"], gcs(last), gcs(first),
      [(x["gc_index"], x["gc0"], x["gc1"], x["gc2"], x["frag"]) for x in t[-4:]]))
if pinned:
    check(lo.get("pinned_bytes") == t1["poh"] and t1["poh"] > 4 << 20,
          "POH %s vs GC.GetGCMemoryInfo gen4 %d" % (lo.get("pinned_bytes"), t1["poh"]))
check(last["memory"]["heap_committed_bytes"] and last["memory"]["heap_committed_bytes"] >= last["memory"]["heap_used_bytes"] * 0.5,
      "GC committed bytes present (%s)" % last["memory"]["heap_committed_bytes"])
check(last["dropped_events"] == 0, "no events dropped (%s)" % last["dropped_events"])
major = os.environ.get("MAJOR", "10")
check(last["runtime"] == "dotnet" and last["runtime_version"].startswith(major + "."),
      "runtime dotnet %s, expected %s.x" % (last["runtime_version"], major))
PY
}

# quiet_after_reported TRUTH: the workload has reported 5 times since its
# allocating ended (once a second: 4 s of the quiet after it).
quiet_after_reported() {
	awk '/"phase":"busy_end"/ { b = 1; next } b && /"t_ns"/ { n++ } END { exit !(n >= 5) }' "$1"
}

# run_case NAME "ENV=VALUE ..." PINNED_MB [pinned]
run_case() {
	name=$1
	truth="$WORK/$name.truth"
	out="$WORK/$name.json"
	# idle 4 s, allocate 5 s, idle 7.5 s; gctop writes an output a second
	# from before the allocating starts until the workload has reported 4 s
	# of the quiet after it (5 reports), then ^C ends it, before the program
	# ends. (A fixed count of outputs ended too early when the runtime,
	# slow to start on a loaded machine, reached Main late: no pause figure
	# was as of the quiet after.)
	env GCALLOC_GCLOG=1 $2 "$GCALLOC" "$RATE_MB" 5 "$3" 4 7.5 >"$truth" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 100 dotnet_socket_exists "$DPID"
	"$GCTOP_BIN" -p "$DPID" --json -d 1 >"$out" 2>"$WORK/$name.err" &
	GPID=$!
	wait_until 600 quiet_after_reported "$truth"
	kill -INT "$GPID"
	wait "$GPID"
	rc=$?
	if [ "$rc" -eq 0 ]; then pass "$name: gctop exits 0"; else fail "$name: gctop exits $rc: $(head -c 300 "$WORK/$name.err")"; fi
	wait "$DPID"
	RATE=$((RATE_MB * 1000000)) MAJOR=${MAJOR:-10} compare "$name" "$out" "$truth" $4
	GC_NAME=$(json_get "$out" -1 'd["gc"]')
	GC_MODE=$(json_get "$out" -1 'd["target"]["gc_mode"]')
}

run_case workstation "DOTNET_gcServer=0" 0
check "workstation: gc is Workstation ($GC_NAME)" [ "$GC_NAME" = Workstation ]
run_case server-datas "DOTNET_gcServer=1 DOTNET_GCDynamicAdaptationMode=1" 0
check "server-datas: gc is Server ($GC_NAME)" [ "$GC_NAME" = Server ]
case "$GC_MODE" in *DATAS*) pass "server-datas: mode names DATAS ($GC_MODE)" ;; *) fail "server-datas: mode lacks DATAS ($GC_MODE)" ;; esac
run_case pinned "DOTNET_gcServer=0" 8 pinned

# .NET 8 and 9: the same program published self-contained, with the runtime
# packs restored from NuGet (the machine's SDK and shared runtime are .NET
# 10). Without NuGet these cases are skipped with a message.
for major in 8 9; do
	if ! GCALLOC=$(dotnet_program_net GcAlloc "$major"); then
		skip_unless_ci nuget "net$major.0: the .NET $major runtime pack cannot be restored here: $GCALLOC"
		continue
	fi
	MAJOR=$major run_case "net$major-workstation" "DOTNET_gcServer=0" 0
	check "net$major-workstation: gc is Workstation ($GC_NAME)" [ "$GC_NAME" = Workstation ]
done

# The runtime leaves its socket behind when killed: remove those of ours.
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
