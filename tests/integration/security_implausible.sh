#!/bin/sh
# sanitizer: yes
# Figures that are not absurd: three fake JVMs (programs named java, as
# nobody) whose perf data (Serial GC) a script moves for 75 s, a full
# collection every 3 s (tests/integration/security_fake_jvm_live.py):
#   heapmax  an 8 EiB heap maximum, the live set growing 1 MiB a collection:
#            a limit above the host's memory is no limit, so no exhaustion
#            (before: "exhaustion in 106752228534194.2 d")
#   far      a 1 GiB maximum, the same growth: the exhaustion lies past 10
#            times the trend's span (man page, "Plausibility"), so none
#   maximal  a live set of k * 2^58 bytes: larger than the host's memory,
#            so the live set, its growth and its exhaustion are n/a with
#            "the target's counters are implausible" (before: growth
#            7.2e16 B/s and "exhaustion in 0 s")
#   absurd   no collection, an old generation of 2^60 bytes and eden growing
#            5.6e15 B/s: the heap's, the generations' and the old
#            generation's use above the host's memory, and an allocation
#            rate past any memory's bandwidth (4 TiB/s), are n/a with "the
#            target's counters are implausible" and the rule (before: a
#            1 EiB heap and a 5.6 PB/s allocation rate)
# heapmax's 8 EiB maximum is also past any process's address space (2^57
# bytes): the heap's and the old generation's maximum are n/a (before:
# 8 EiB).
# Read from gctop --json (-d 1 for 72 samples), from --serve's /metrics,
# from gctop -l --json, and from the replay (-r, --json and -b) of
# absurd's recording.
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
MOVERS=""
trap 'for p in $MOVERS; do kill "$p" 2>/dev/null; done; for f in $FILES; do rm -f "$f"; done; fake_jvm_cleanup; cleanup' EXIT INT TERM
[ "$(id -u)" -eq 0 ] && [ -n "$JVM_AS" ] || {
	if [ "${CI:-}" = "true" ]; then fail "must run as root with setpriv under CI=true"; else skip "needs root and setpriv"; fi
	exit 0
}
command -v curl >/dev/null 2>&1 || missing_runtime "curl"

FILES="" PIDS=""
for mode in heapmax far maximal absurd; do
	FAKE_JVM=""
	start_fake_jvm jdk17-Serial.hsperfdata "Implausible$mode" || exit 0
	eval "PID_$mode=$FAKE_JVM"
	FILES="$FILES $FAKE_JVM_FILE" PIDS="$PIDS,$FAKE_JVM"
	"$JVM_PY" tests/integration/security_fake_jvm_live.py "$FAKE_JVM_FILE" "$mode" 80 2>"$WORK/mover.$mode.err" &
	MOVERS="$MOVERS $!"
	# absurd's run is also recorded, for the replay's check
	set -- --json -p "$FAKE_JVM" -d 1 -n 72
	[ "$mode" = absurd ] && set -- "$@" -w "$WORK/absurd.rec"
	"$GCTOP_BIN" "$@" >"$WORK/$mode.json" 2>"$WORK/$mode.err" &
	eval "GCTOP_$mode=$!"
done
FAKE_JVM=""
PIDS=${PIDS#,}
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$PIDS" 2>"$WORK/serve.err" &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"

for mode in heapmax far maximal absurd; do
	eval "g=\$GCTOP_$mode"
	wait "$g"
	rc=$?
	check "$mode: gctop --json exits 0 ($(head -c 200 "$WORK/$mode.err"))" [ "$rc" -eq 0 ]
done
# the replay derives again from the counters as read: the same rules
"$GCTOP_BIN" -r "$WORK/absurd.rec" --json >"$WORK/replay.json" 2>"$WORK/replay.err"
rc=$?
check "gctop -r --json exits 0 ($(head -c 200 "$WORK/replay.err"))" [ "$rc" -eq 0 ]
"$GCTOP_BIN" -r "$WORK/absurd.rec" -b >"$WORK/replay.txt" 2>"$WORK/replay_b.err"
rc=$?
check "gctop -r -b exits 0 ($(head -c 200 "$WORK/replay_b.err"))" [ "$rc" -eq 0 ]
# -l reads the perf data as the movers left it (absurd's old generation
# still holds 2^60 bytes)
"$GCTOP_BIN" -l --json >"$WORK/list.json" 2>"$WORK/list.err"
rc=$?
check "gctop -l --json exits 0 ($(head -c 200 "$WORK/list.err"))" [ "$rc" -eq 0 ]
port=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
curl -s --max-time 5 "http://127.0.0.1:$port/metrics" >"$WORK/metrics" 2>"$WORK/curl.err"
kill "$SPID" 2>/dev/null

# The last sample of each: 60 s and more of points, 20 of them at least.
comparator implausible python3 - "$WORK" "$PID_heapmax" "$PID_far" "$PID_maximal" "$PID_absurd" <<'PY'
import json, sys
work, pids = sys.argv[1], dict(zip(("heapmax", "far", "maximal", "absurd"), sys.argv[2:6]))
def say(ok, what):
    print("%s: security_implausible: %s" % ("PASS" if ok else "FAIL", what), flush=True)
last, whole = {}, {}
for mode in pids:
    lines = [json.loads(l) for l in open("%s/%s.json" % (work, mode)) if l.strip()]
    whole[mode] = lines[-1] if lines else {}
    last[mode] = whole[mode].get("live_set") or {}
def named(sample, figure):
    return [e["why"] for e in sample.get("implausible") or [] if e.get("figure") == figure
            and e.get("why", "").startswith("the target's counters are implausible: ")]
h = last["heapmax"]
say(h.get("points", 0) >= 15 and h.get("growth_bps") is not None,
    "heapmax: a growing live set was measured (points %s, growth %s B/s)" % (h.get("points"), h.get("growth_bps")))
say(h.get("exhaustion_s") is None and "above the host's memory" in (h.get("why") or ""),
    "heapmax: an 8 EiB heap max is no limit: exhaustion %s, why %r" % (h.get("exhaustion_s"), h.get("why")))
f = last["far"]
say(f.get("growth_bps") is not None and f.get("span_s", 0) >= 60,
    "far: growth %s B/s over %s s" % (f.get("growth_bps"), f.get("span_s")))
say(f.get("exhaustion_s") is None and "10 times the span" in (f.get("why") or ""),
    "far: no exhaustion past 10 times the span: exhaustion %s, why %r" % (f.get("exhaustion_s"), f.get("why")))
m = last["maximal"]
say(m.get("growth_bps") is None and m.get("exhaustion_s") is None
    and "the target's counters are implausible" in (m.get("why") or ""),
    "maximal: growth %s, exhaustion %s, why %r" % (m.get("growth_bps"), m.get("exhaustion_s"), m.get("why")))
hm = whole["heapmax"]
say(hm.get("memory", {}).get("heap_max_bytes") is None and (hm.get("live_set") or {}).get("old", {}).get("max_bytes") is None
    and named(hm, "memory.heap") and named(hm, "live_set.old"),
    "heapmax: an 8 EiB maximum is past any address space: heap max %s, old max %s, implausible %s"
    % (hm.get("memory", {}).get("heap_max_bytes"), ((hm.get("live_set") or {}).get("old") or {}).get("max_bytes"),
       hm.get("implausible")))
a = whole["absurd"]
mem, old = a.get("memory") or {}, (a.get("live_set") or {}).get("old") or {}
young = [g for g in a.get("generations") or [] if g.get("name") == "young"]
say(mem.get("heap_used_bytes") is None and old.get("used_bytes") is None and young and young[0].get("used_bytes") is None
    and named(a, "memory.heap") and named(a, "live_set.old") and named(a, "generations[].bytes"),
    "absurd: heap used %s, old used %s, young used %s n/a with the rule: %s"
    % (mem.get("heap_used_bytes"), old.get("used_bytes"), young and young[0].get("used_bytes"), a.get("implausible")))
rates = [l.get("alloc", {}).get("rate_bps") for l in
         (json.loads(x) for x in open("%s/absurd.json" % work) if x.strip())]
# the rate breaks its rule (4 TiB/s), or the total breaks its own first
# (4 TiB/s since the host started: which comes first depends on its uptime)
alloc_rules = named(a, "alloc.rate_bps") + named(a, "alloc.bytes_total")
say(len(rates) >= 60 and all(r is None for r in rates) and alloc_rules,
    "absurd: no allocation rate in %d samples past 4 TiB/s (largest %s), rules %s"
    % (len(rates), max((r for r in rates if r is not None), default=None), alloc_rules))
replayed = [json.loads(l) for l in open(work + "/replay.json") if l.strip()]
r = replayed[-1] if replayed else {}
say(len(replayed) >= 60 and (r.get("memory") or {}).get("heap_used_bytes") is None and named(r, "memory.heap")
    and all((x.get("alloc") or {}).get("rate_bps") is None for x in replayed),
    "replay: %d samples, heap used %s, rates %s, implausible %s"
    % (len(replayed), (r.get("memory") or {}).get("heap_used_bytes"),
       sorted(set(str((x.get("alloc") or {}).get("rate_bps")) for x in replayed))[:3], r.get("implausible")))
text = open(work + "/replay.txt").read()
heap_lines = [l for l in text.splitlines() if l.startswith("Heap:")]
say(heap_lines and heap_lines[-1].startswith("Heap:    used n/a")
    and "N/a:     memory.heap (the target's counters are implausible: " in text,
    "replay -b: %s; N/a lines %s" % (heap_lines[-1:] , [l for l in text.splitlines() if l.startswith("N/a:")][:3]))
listed = [json.loads(l) for l in open(work + "/list.json") if l.strip()]
mine = [e for e in listed if str(e.get("pid")) == pids["absurd"]]
say(len(mine) == 1 and mine[0].get("heap_used_bytes") is None,
    "-l: the absurd JVM's heap used is n/a: %s" % [e.get("heap_used_bytes") for e in mine])
metrics = open(work + "/metrics").read()
say("gctop_target_info{" in metrics, "--serve served the fake JVMs")
bad = [l for l in metrics.splitlines()
       if l.startswith(("gctop_live_set_exhaustion_seconds", "gctop_live_set_growth_bytes_per_second"))
       and ('pid="%s"' % pids["maximal"] in l or 'pid="%s"' % pids["heapmax"] in l and "exhaustion" in l)]
say(not bad, "--serve: no growth or exhaustion series from the implausible counters: %s" % bad[:3])
absurd_series = [l for l in metrics.splitlines() if 'pid="%s"' % pids["absurd"] in l]
heap = [l for l in absurd_series if l.startswith(("gctop_heap_used_bytes", "jvm_memory_used_bytes"))
        and ("gctop_heap" in l or "Eden" in l or "Tenured" in l)]
say(any(l.startswith("gctop_target") for l in absurd_series) and not heap,
    "--serve: no heap, eden or old used series from the absurd JVM: %s" % heap[:3])
maxes = [l for l in metrics.splitlines() if 'pid="%s"' % pids["heapmax"] in l
         and (l.startswith("gctop_heap_max_bytes") or l.startswith("jvm_memory_limit_bytes") and "Tenured" in l)]
say(not maxes, "--serve: no heap or old maximum series from an 8 EiB maximum: %s" % maxes[:3])
PY
