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
# Read from gctop --json (-d 1 for 72 samples) and from --serve's /metrics.
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
for mode in heapmax far maximal; do
	FAKE_JVM=""
	start_fake_jvm jdk17-Serial.hsperfdata "Implausible$mode" || exit 0
	eval "PID_$mode=$FAKE_JVM"
	FILES="$FILES $FAKE_JVM_FILE" PIDS="$PIDS,$FAKE_JVM"
	"$JVM_PY" tests/integration/security_fake_jvm_live.py "$FAKE_JVM_FILE" "$mode" 80 2>"$WORK/mover.$mode.err" &
	MOVERS="$MOVERS $!"
	"$GCTOP_BIN" --json -p "$FAKE_JVM" -d 1 -n 72 >"$WORK/$mode.json" 2>"$WORK/$mode.err" &
	eval "GCTOP_$mode=$!"
done
FAKE_JVM=""
PIDS=${PIDS#,}
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$PIDS" 2>"$WORK/serve.err" &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"

for mode in heapmax far maximal; do
	eval "g=\$GCTOP_$mode"
	wait "$g"
	rc=$?
	check "$mode: gctop --json exits 0 ($(head -c 200 "$WORK/$mode.err"))" [ "$rc" -eq 0 ]
done
port=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
curl -s --max-time 5 "http://127.0.0.1:$port/metrics" >"$WORK/metrics" 2>"$WORK/curl.err"
kill "$SPID" 2>/dev/null

# The last sample of each: 60 s and more of points, 20 of them at least.
comparator implausible python3 - "$WORK" "$PID_heapmax" "$PID_far" "$PID_maximal" <<'PY'
import json, sys
work, pids = sys.argv[1], dict(zip(("heapmax", "far", "maximal"), sys.argv[2:5]))
def say(ok, what):
    print("%s: security_implausible: %s" % ("PASS" if ok else "FAIL", what), flush=True)
last = {}
for mode in pids:
    lines = [json.loads(l) for l in open("%s/%s.json" % (work, mode)) if l.strip()]
    last[mode] = lines[-1]["live_set"] if lines else {}
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
metrics = open(work + "/metrics").read()
say("gctop_target_info{" in metrics, "--serve served the fake JVMs")
bad = [l for l in metrics.splitlines()
       if l.startswith(("gctop_live_set_exhaustion_seconds", "gctop_live_set_growth_bytes_per_second"))
       and ('pid="%s"' % pids["maximal"] in l or 'pid="%s"' % pids["heapmax"] in l and "exhaustion" in l)]
say(not bad, "--serve: no growth or exhaustion series from the implausible counters: %s" % bad[:3])
PY
