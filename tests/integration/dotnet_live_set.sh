#!/bin/sh
# test-lane: measuring
# .NET's live set (issue 28) on a leaking program (tests/dotnet/Leak: a
# static list growing by 2.5 MB a second, paced by the clock, among churn
# on two threads with short-lived, large and medium-lived objects; every
# gen2 GC is the runtime's own). Workstation GC under a 320 MiB hard limit,
# run until it dies of OutOfMemoryException (about 120 s), and Server GC
# beside it for 95 s. Against the program's own truth: each live set is a
# gen2 GC's PromotedBytes (GC.GetGCMemoryInfo) of the same kind (blocking
# or background); the growth is within 15% of the program's own rate of
# retained bytes, first and last; the exhaustion projected part-way (the
# first sample that has one, at least 20 s ahead) within 20% of the time
# the program actually took to die. Measured: growth 2.50 MB/s first,
# 2.43 last (Workstation, rate 2.5), 3.10 and 3.18 MB/s in two runs
# (Server, rate 3.0); the projection 59.6 s ahead, death 52.7 s later:
# 13% late, since .NET dies before the live set reaches the hard limit (at
# 91-94% of it here), and later the nearer the death, which is why the
# check takes the first projection.
#
# Longer than most tests, and why: the trend needs points over at least
# a minute (model/live_set.h), and the projection must come well before
# the death it projects; the two programs run side by side to keep the
# script near two minutes.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program Leak) || { fail "cannot build tests/dotnet/Leak (log: $WORK/dotnet-build-Leak.log)"; exit 0; }

RATE=2500000
CHURN=15000000

# start_case NAME RATE SECONDS SAMPLES ENV...: the program and gctop
# --json beside it every 5 s, in the background; sets LEAK and GCTOP.
start_case() {
	name=$1 rate=$2 secs=$3 samples=$4
	shift 4
	env "$@" "$exe" "$rate" 2 "$secs" "$CHURN" >"$WORK/truth-$name" 2>&1 &
	LEAK=$!
	CHILD_PIDS="$CHILD_PIDS $LEAK"
	wait_until 100 dotnet_socket_exists "$LEAK"
	"$GCTOP_BIN" -p "$LEAK" --json -d 5 -n "$samples" >"$WORK/out-$name.json" 2>"$WORK/err-$name" &
	GCTOP=$!
	CHILD_PIDS="$CHILD_PIDS $GCTOP"
}

# GCConserveMemory, the GC's setting for processes short of memory, makes
# its gen2s regular (every 6-7 s here, from the first): without it they
# come at steps of 1.7-1.8 times the live set, so the first point past a
# minute, and with it the first projection, fell anywhere from 150 to 260
# MB of the 320 MiB; from 260 MB the projection is 75% late (dead at 305
# MB, projected to 335), from a point a minute in 13% (measured).
start_case workstation "$RATE" 200 40 DOTNET_gcServer=0 DOTNET_GCHeapHardLimit=0x14000000 DOTNET_GCConserveMemory=9
wks_leak=$LEAK wks_gctop=$GCTOP
# --doctor on the dying program for 80 s from its start (the trend needs
# points over a minute): it reports about 40 s before the death, with the
# status of a finding that names the leak (8 would mean it died first).
"$GCTOP_BIN" --doctor -p "$wks_leak" -d 80 >"$WORK/doctor" 2>"$WORK/doctor.err" &
DOCTOR=$!
CHILD_PIDS="$CHILD_PIDS $DOCTOR"
start_case server 3000000 100 19 DOTNET_gcServer=1
srv_leak=$LEAK srv_gctop=$GCTOP

wait "$srv_gctop"
rc=$?
check "server: gctop exits 0 ($(head -c 300 "$WORK/err-server"))" [ "$rc" -eq 0 ]
kill "$srv_leak" 2>/dev/null
wait "$srv_leak" 2>/dev/null
wait "$DOCTOR"
rc=$?
check "workstation: --doctor before the death exits with its finding's status (status $rc, its findings' $(doctor_status "$WORK/doctor"); $(head -c 200 "$WORK/doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor")" -a "$rc" -ge 13 ]
check "workstation: ... naming live-set-growth and printing the live set ($(grep -m1 '^Live:' "$WORK/doctor"))" \
	sh -c 'grep -q "live-set-growth" "$1" && grep -q "^Live: .* growth .* exhaustion in" "$1"' _ "$WORK/doctor"
wait "$wks_leak"
rc=$?
check "workstation: the program ends with OutOfMemoryException (exit 3, got $rc)" [ "$rc" -eq 3 ]
wait "$wks_gctop"
rc=$?
check "workstation: gctop exits 8, the target gone ($(head -c 300 "$WORK/err-workstation"))" [ "$rc" -eq 8 ]

comparator "dotnet_live_check.py (workstation)" python3 tests/integration/dotnet_live_check.py "$TEST_NAME" workstation "$WORK/out-workstation.json" \
	"$WORK/truth-workstation" oom
comparator "dotnet_live_check.py (server)" python3 tests/integration/dotnet_live_check.py "$TEST_NAME" server "$WORK/out-server.json" "$WORK/truth-server"
