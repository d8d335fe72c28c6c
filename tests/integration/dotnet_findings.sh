#!/bin/sh
# test-lane: measuring
# Findings on .NET: an ASP.NET Core app whose every request allocates one
# 60 MB array (the large object heap) triggers gen2 collections with reason
# AllocLarge, which the loh-gen2 finding reports with its counts; the same
# app allocating 1 MB per request in 10 KB arrays is the control, without
# that finding. --doctor exits with the status of the worst finding it
# prints. Requests are paced at 5 a second. About 30 s.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }
PORT=$((20000 + $$ % 20000))


# run_case NAME BYTES_PER_REQUEST ARRAY_BYTES: the app, paced requests, and
# gctop --doctor over 6 s of them; the report in $WORK/doctor-NAME, its status in RC
run_case() {
	"$exe" "$PORT" "$2" "$3" >"$WORK/app-$1.log" 2>&1 &
	APID=$!
	CHILD_PIDS="$CHILD_PIDS $APID"
	wait_until 100 grep -q listening "$WORK/app-$1.log"
	python3 -c '
import sys, time, urllib.request
start = time.time()
for i in range(45):
    time.sleep(max(0, start + i / 5.0 - time.time()))
    urllib.request.urlopen(sys.argv[1], timeout=10).read()' "http://127.0.0.1:$PORT/" >"$WORK/req-$1.log" 2>&1 &
	RPID=$!
	CHILD_PIDS="$CHILD_PIDS $RPID"
	"$GCTOP_BIN" --doctor -p "$APID" -d 6 >"$WORK/doctor-$1" 2>"$WORK/err-$1"
	RC=$?
	wait "$RPID"
	rc=$?
	check "$1: the requests were answered ($(head -c 200 "$WORK/req-$1.log"))" [ "$rc" -eq 0 ]
	kill "$APID" 2>/dev/null
	wait "$APID" 2>/dev/null
	PORT=$((PORT + 1))
}

run_case large 60000000 60000000
check "large: --doctor reports gen2 collections triggered by AllocLarge as a warning ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor-large" | tr '\n' ' ' | head -c 400))" \
	grep -Eq '^  warning +loh-gen2: [0-9]+% of gen2 collections were triggered by large-object allocation \(AllocLarge\)' \
	"$WORK/doctor-large"
# its evidence: the gen2 collections counted, at least half of them AllocLarge
comparator "of the large case's evidence" python3 - "$WORK/doctor-large" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"loh-gen2: .*\n +evidence: gen2 collections (\d+), alloc large gen2 collections (\d+), alloc large share ([0-9.]+)%, window ([0-9.]+) s", text)
ok = m is not None and int(m.group(1)) >= 2 and int(m.group(2)) * 2 >= int(m.group(1)) and 4 <= float(m.group(4)) <= 7
print(("PASS" if ok else "FAIL") + ": dotnet_findings: large: the evidence counts gen2 and AllocLarge collections over the watched window (%s)"
      % ((m.groups() if m else "no evidence line"),), flush=True)
PY
check "large: --doctor exits with the worst finding's status ($RC; report says $(doctor_status "$WORK/doctor-large"))" \
	[ "$RC" = "$(doctor_status "$WORK/doctor-large")" ]
check "large: a warning at worst gives 13 or 14 ($RC)" test "$RC" -ge 13 -a "$RC" -le 14

run_case small 1000000 10000
check "small arrays: no AllocLarge finding ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor-small" | tr '\n' ' ' | head -c 400))" sh -c "! grep -q loh-gen2 '$WORK/doctor-small'"
check "small arrays: --doctor exits with the worst finding's status ($RC; report says $(doctor_status "$WORK/doctor-small"))" \
	[ "$RC" = "$(doctor_status "$WORK/doctor-small")" ]
