#!/bin/sh
# test-lane: measuring
# gctop's shares in a GC storm, against the runtime's own pause total: a
# Server GC service (tests/dotnet/GcStorm, 4 heaps, non-concurrent, 8 MB
# gen0 budget a heap) with 1 GB of small live objects and a blocking,
# compacting full collection 1 s after the one before through its storm,
# pinned to one CPU and held to half of it, so that single pauses last
# 3-10 s.
# gctop --json and -b watch it at 1 s intervals through a quiet phase, 20 s
# of storm and a quiet phase, while paced requests put part of the
# allocation on the large object heap.
#
# Checks:
#   every pause share and large-object allocation share of every interval,
#   in JSON and in -b's text, is within [0, 1] (gctop credited a whole pause,
#   and the LOH bytes of a GC, to the interval that read them: 103% to 288%,
#   alloc_share 1.65 to 7.07 in the field; here 323% to 833%, LOH 202% to
#   23692%)
#   the pause time of the intervals, summed, is GC.GetTotalPauseDuration's
#   growth between the first and the last sample +-5%: a pause is split
#   across the intervals it spans, none is lost or counted twice. Both ends
#   lie in the quiet phases (each as of its pause.age_s: gctop reads the
#   runtime's own counter), where the workload's 50 ms reports place the
#   runtime's figure within a few milliseconds.
#   the storm was one: the runtime's longest single pause is over 1 s, and
#   gctop saw a pause over 1 s
#   the alloc-per-op finding's collections and requests are the workload's
#   own counts between the counter polls gctop read the requests as of, +-2
#   each (a request in flight, a GC within a report's 50 ms, at either
#   end): the runtime's counter thread stops with the program, so polls come
#   late, and gctop used to drop the collections of the intervals whose
#   poll had not arrived while counting their requests in the next
# About 50 s (the live heap takes 10-20 s to build on the loaded CPU).
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
command -v taskset >/dev/null 2>&1 || { skip_unless_ci runtime "taskset (util-linux) is missing; it starves the workload's CPU"; exit 0; }
exe=$(dotnet_program GcStorm) || { fail "cannot build tests/dotnet/GcStorm (log: $WORK/dotnet-build-GcStorm.log)"; exit 0; }
PORT=$((20000 + $$ % 20000))

DOTNET_gcServer=1 DOTNET_GCHeapCount=4 DOTNET_GCNoAffinitize=1 DOTNET_gcConcurrent=0 DOTNET_GCgen0size=0x800000 \
	taskset -c 0 "$exe" "$PORT" 1024 3 20 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 600 grep -qs '^ready' "$WORK/truth"
grep -q '^ready' "$WORK/truth" || { fail "the workload did not build its live heap in 60 s ($(tail -c 300 "$WORK/truth"))"; exit 0; }
# The starved CPU: half of CPU 0 for the workload, through the cpu
# controller's quota (5 ms in every 10 ms, the slices a busy loop beside it
# on that CPU left it). The busy loop itself, where no cpu group can be
# made here: it held the starvation as well, but burnt CPU for the whole
# storm, a core the suite's other lanes wanted (the test took 34 s of CPU
# with it and 19-20 s with the quota, on the same loaded machine).
# cpu_group: makes a cpu cgroup below this shell's own, sets GROUP and
# QUOTA_FILE (cgroup v1: cpu.cfs_quota_us, its period 10 ms; v2: cpu.max),
# the group unlimited until the quota is written.
cpu_group() {
	if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		path=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "cpu") { sub(/^[^:]*:[^:]*:/, ""); print; exit } }' /proc/self/cgroup)
		parent="/sys/fs/cgroup/cpu${path%/}" QUOTA_FILE=cpu.cfs_quota_us QUOTA=5000
	elif [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		parent="/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)" QUOTA_FILE=cpu.max QUOTA="5000 10000"
		parent=${parent%/}
		grep -qw cpu "$parent/cgroup.subtree_control" 2>/dev/null || return 1
	else
		return 1
	fi
	GROUP="$parent/gctop-storm-$$"
	mkdir "$GROUP" 2>/dev/null || return 1
	CGROUP_MADE=$GROUP
	[ "$QUOTA_FILE" = cpu.max ] || echo 10000 >"$GROUP/cpu.cfs_period_us" 2>/dev/null || return 1
}
if cpu_group && echo "$DPID" >"$GROUP/cgroup.procs" && echo "$QUOTA" >"$GROUP/$QUOTA_FILE"; then
	starved="a quota of $QUOTA on $QUOTA_FILE"
else
	starved="a busy loop beside it (no cpu cgroup)"
	taskset -c 0 sh -c 'while :; do :; done' &
	CHILD_PIDS="$CHILD_PIDS $!"
fi
# a request a second, 200 KB in small arrays and 2 MB on the LOH
python3 -c '
import sys, time, urllib.request
start = time.time()
i = 0
while time.time() - start < 40:
    time.sleep(max(0, start + i - time.time()))
    try:
        urllib.request.urlopen(sys.argv[1], timeout=30).read()
    except OSError:
        pass
    i += 1' "http://127.0.0.1:$PORT/" >"$WORK/req.log" 2>&1 &
CHILD_PIDS="$CHILD_PIDS $!"
"$GCTOP_BIN" -p "$DPID" --json -d 1 -n 70 >"$WORK/out.json" 2>"$WORK/err.json" &
JPID=$!
"$GCTOP_BIN" -p "$DPID" -b -d 1 -n 70 >"$WORK/out.txt" 2>"$WORK/err.txt" &
BPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $BPID"
# the storm's end can run late by a pause; the last pause figure, 2.5 s
# old, must be as of the quiet after it
wait_until 700 grep -qs quiet_end "$WORK/truth"
sleep 3
kill "$JPID" "$BPID" 2>/dev/null
wait "$JPID" "$BPID" 2>/dev/null
check "the workload ran its phases, starved by $starved ($(grep phase "$WORK/truth" | tr '\n' ' '))" \
	grep -q quiet_end "$WORK/truth"

comparator "of the storm" python3 - "$WORK/out.json" "$WORK/out.txt" "$WORK/truth" <<'PY'
import json, re, sys
from datetime import datetime
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
text = open(sys.argv[2]).read()
lines = [json.loads(l) for l in open(sys.argv[3]) if l.startswith("{")]
rep = [x for x in lines if "pause_ns" in x]
phase = {x["phase"]: x["wall_ms"] for x in lines if "phase" in x}
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_storm: " + what, flush=True)
def ms(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp() * 1000
def truth(wall):
    # the last report at or before wall: the runtime's total only grows
    # when a pause ends, and no report comes during one
    r = [x for x in rep if x["wall_ms"] <= wall]
    return r[-1]["pause_ns"] if r else None

shares = [x["pause"]["share"] for x in g if x["pause"]["share"] is not None]
loh = [x["large_objects"]["alloc_share"] for x in g
       if x.get("large_objects") and x["large_objects"].get("alloc_share") is not None]
check(len(shares) >= 15, "gctop --json gave %d intervals with a pause share" % len(shares))
check(all(0 <= s <= 1 for s in shares), "every JSON pause.share is within [0, 1] (max %s)" % max(shares, default=None))
check(len(loh) >= 2, "the LOH share was measured in %d intervals (those with a GC)" % len(loh))
check(all(0 <= s <= 1 for s in loh),
      "every JSON large_objects.alloc_share is within [0, 1] (%d of them, max %s)" % (len(loh), max(loh, default=None)))
tp = [float(v) for v in re.findall(r"^Pause: +([0-9.]+)% of interval", text, re.M)]
tl = [float(v) for v in re.findall(r"^Large: .*\(([0-9.]+)% of alloc\)", text, re.M)]
check(len(tp) >= 15 and all(0 <= v <= 100 for v in tp + tl),
      "every -b pause share (%d, max %s%%) and LOH share (%d, max %s%%) is within 0-100%%"
      % (len(tp), max(tp, default=None), len(tl), max(tl, default=None)))

longest = max((x["longest_ns"] for x in rep), default=0)
seen = max((x["pause"]["max_ms"] or 0 for x in g), default=0)
check(longest > 1e9 and seen > 1000,
      "a single pause lasted over 1 s (the runtime's longest %.2f s, gctop's %.2f s)" % (longest / 1e9, seen / 1e3))

# collections per request over the history, against the workload's own
# counts at the moments gctop read the requests as of (the runtime's
# counter polls: each sample's time less alloc.age_s)
def last_report(wall, key):
    r = [x for x in rep if x["wall_ms"] <= wall]
    return r[-1][key] if r else None
per_op = [f for f in g[-1].get("findings") or [] if f["id"] == "alloc-per-op"]
polled = [x for x in g if x.get("ops") and x["alloc"]["age_s"] is not None]
if per_op and len(polled) >= 2:
    ev = per_op[0]["evidence"]
    a, b = polled[0], polled[-1]
    at = lambda x: ms(x) - x["alloc"]["age_s"] * 1000
    req = last_report(at(b), "requests") - last_report(at(a), "requests")
    gcs = last_report(at(b), "gcs") - last_report(at(a), "gcs")
    # the hosting counter counts a request when it starts, the workload
    # when it ends: one in flight at either end; a GC that starts within
    # the 50 ms between the workload's report and the poll
    ok = abs(ev["operations"] - req) <= 2 and abs(ev["collections"] - gcs) <= 2
    check(ok, "collections per request %.3f (%d over %d), the workload's over the same polls %d over %d "
          "(+-2 each)" % (ev["collections_per_op"], ev["collections"], ev["operations"], gcs, req))
else:
    check(False, "gctop gave an alloc-per-op finding over the requests (%s)" % [f["id"] for f in g[-1].get("findings") or []])

# the intervals' pause time, summed, against the runtime's growth between
# the moments gctop's first and last pause figures are as of (each sample's
# time less pause.age_s: the runtime's own counter, read as of its polls)
def asof(x):
    return ms(x) - 1000 * (x["pause"]["age_s"] or 0)
counted = [i for i, x in enumerate(g) if x["pause"]["total_s"] is not None]
first, last = g[counted[0] if counted else 0], g[-1]
quiet = "storm_start" in phase and "storm_end" in phase and asof(first) < phase["storm_start"] and asof(last) > phase["storm_end"]
check(quiet, "gctop's first and last pause figures are as of the quiet phases")
ours = sum(x["pause"]["share"] * x["interval_s"] for x in g[counted[0] + 1 if counted else 1:] if x["pause"]["share"] is not None)
t0, t1 = truth(asof(first)), truth(asof(last))
ok = t0 is not None and t1 is not None and t1 > t0 and abs(ours - (t1 - t0) / 1e9) <= 0.05 * (t1 - t0) / 1e9
check(ok, "the intervals' pause time adds up to %.3f s, the runtime's total grew %s s (+-5%%)"
      % (ours, None if t0 is None or t1 is None else round((t1 - t0) / 1e9, 3)))
PY
