#!/bin/sh
# test-lane: measuring
# Findings on a JVM, and gctop --doctor's exit status. MixWorkload puts 90%
# of its bytes in 3 MiB arrays on G1 with 1 MiB regions: humongous, so G1
# starts its collections for them (sun.gc.lastCause "G1 Humongous
# Allocation"), and the g1-humongous finding names the region size. The same
# workload with small arrays only is the control: no such finding. In both,
# --doctor exits with the status of the worst finding it prints (0 none, 12
# info, 13 warning, 14 critical). About 25 s.
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }


# start SHARE: MixWorkload on G1 (2 threads, 150 MiB/s, SHARE of it in 3 MiB arrays), sets MPID
start() {
	java -XX:+UseG1GC -Xmx256m -XX:G1HeapRegionSize=1m -cp "$CLASSES" MixWorkload 2 150 "$1" 3145728 12 0.5 \
		>"$WORK/mix-$1.log" 2>&1 &
	MPID=$!
	CHILD_PIDS="$CHILD_PIDS $MPID"
	wait_until 100 grep -q '^alloc ' "$WORK/mix-$1.log"
}

start 0.9
"$GCTOP_BIN" --doctor -p "$MPID" -d 4 >"$WORK/doctor" 2>"$WORK/err"
rc=$?
# The finding's line and its evidence, both (one check).
humongous_named() {
	grep -Eq '^  (warning|critical) +g1-humongous: [0-9]+% of G1.s collections were started by humongous allocation$' "$1" &&
		grep -Eq '^           evidence: .*region 1.00 MiB, humongous from 512 KiB' "$1"
}
check "humongous: --doctor names the G1 humongous finding as a warning or worse ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor" | tr '\n' ' ' | head -c 400))" \
	humongous_named "$WORK/doctor"
check "humongous: --doctor exits with the worst finding's status ($rc; report says $(doctor_status "$WORK/doctor"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor")" ]
check "humongous: a warning at worst gives 13 or 14 ($rc)" test "$rc" -ge 13 -a "$rc" -le 14
"$GCTOP_BIN" -p "$MPID" --json -d 1 -n 3 >"$WORK/json" 2>"$WORK/err"
comparator "of the JSON findings" python3 - "$WORK/json" <<'PY'
import json, sys
last = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
h = [f for f in last["findings"] if f["id"] == "g1-humongous"]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": jvm_findings: humongous: JSON " + what, flush=True)
check(len(h) == 1 and set(h[0]) == {"id", "severity", "title", "evidence", "advice"},
      "has one g1-humongous finding with id, severity, title, evidence, advice (%s)" % last["findings"])
ev = h[0]["evidence"] if h else {}
check(ev.get("region_bytes") == 1048576 and ev.get("humongous_from_bytes") == 524288,
      "evidence names the 1 MiB region and the 512 KiB threshold (%s)" % ev)
check(ev.get("humongous_collections", 0) >= 2 and ev["humongous_collections"] <= ev.get("collections", -1)
      and 0 < ev.get("window_s", 0) <= 3.5,
      "evidence counts the collections within the watched window (%s)" % ev)
PY
kill "$MPID" 2>/dev/null

start 0
"$GCTOP_BIN" --doctor -p "$MPID" -d 4 >"$WORK/doctor0" 2>"$WORK/err"
rc=$?
check "small arrays: no humongous finding ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor0" | tr '\n' ' ' | head -c 400))" sh -c "! grep -q g1-humongous '$WORK/doctor0'"
check "small arrays: the report says what it watched" grep -Eq "^gctop --doctor: PID $MPID \(hotspot .*GC G1\), watched [0-9.]+ s" "$WORK/doctor0"
check "small arrays: the report prints the live set and the GC's ceiling ($(grep -m1 '^GC cost:' "$WORK/doctor0"))" \
	sh -c 'grep -q "^Live: " "$1" && grep -q "^Old: " "$1" && grep -Eq "^GC cost: GC takes [0-9.]+% of the time \(pauses [0-9.]+% of wall time" "$1"' _ "$WORK/doctor0"
check "small arrays: --doctor exits with the worst finding's status ($rc; report says $(doctor_status "$WORK/doctor0"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor0")" ]
kill "$MPID" 2>/dev/null

"$GCTOP_BIN" --doctor >/dev/null 2>"$WORK/err"
check "--doctor without -p is a usage error (2)" [ $? -eq 2 ]
"$GCTOP_BIN" --doctor -p "$$" -b >/dev/null 2>"$WORK/err"
check "--doctor with -b is a usage error (2)" [ $? -eq 2 ]
"$GCTOP_BIN" --doctor -p 999999999 -d 1 >/dev/null 2>"$WORK/err"
rc=$?
check "--doctor on no process exits 3, not a finding status ($rc)" [ "$rc" -eq 3 ]
