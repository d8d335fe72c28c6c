#!/bin/sh
# test-lane: measuring
# .NET's live set (issue 28) on a leaking program (tests/dotnet/Leak: a
# static list growing by 2.5 MB a second, paced by the clock, among churn
# on two threads with short-lived, large and medium-lived objects; every
# gen2 GC is the runtime's own). Workstation GC under a 320 MiB hard limit
# and Server GC beside it. Against the program's own truth: each live set
# is a gen2 GC's PromotedBytes (GC.GetGCMemoryInfo) of the same kind
# (blocking or background); the growth is within 15% of the program's own
# rate of retained bytes, first and last. Under the hard limit: the limit
# gctop projects to is that one; the exhaustion projected part-way (the
# first sample that has one) is within 20% of the time the live set it
# reported takes to reach the limit at the program's rate, at least 20 s
# ahead; the live-set-growth finding comes with 30 s of room left at
# least, in --json and in --doctor. Measured: growth 2.50 MB/s first,
# 2.43 last (Workstation, rate 2.5), 3.10 and 3.18 MB/s in two runs
# (Server, rate 3.0).
#
# No program is let die: .NET dies before the live set reaches the hard
# limit (at 91-94% of it), so a projection to the limit errs late by the
# time the live set takes to grow over the rest (measured 13% on a death
# 52.7 s after a projection of 59.6 s). That is measured once, by make
# bench's leak-death section (bench/leak_death.py, bench/README.md); run
# here to the death, this test took 134 s. Each program ends once its
# gctop has had a growth for a few samples, about 75 s in: the trend needs
# points over at least a minute (model/live_set.h), and --doctor watches
# 80 s for them. The two programs run side by side.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program Leak) || { fail "cannot build tests/dotnet/Leak (log: $WORK/dotnet-build-Leak.log)"; exit 0; }

RATE=2500000
CHURN=15000000
# 320 MiB: the program dies at about 305 MB, 120 s in
HARD_LIMIT=335544320
# Samples with a growth a run waits for before it ends its program: the
# last of them is the one whose growth is checked.
GROWN_SAMPLES=3

# start_case NAME RATE SECONDS ENV...: the program (it ends by itself after
# SECONDS, a bound the test ends it well before) and gctop --json beside
# it every 2 s until it ends, in the background; sets LEAK and GCTOP.
start_case() {
	name=$1 rate=$2 secs=$3
	shift 3
	env "$@" "$exe" "$rate" 2 "$secs" "$CHURN" >"$WORK/truth-$name" 2>&1 &
	LEAK=$!
	CHILD_PIDS="$CHILD_PIDS $LEAK"
	wait_until 100 dotnet_socket_exists "$LEAK"
	"$GCTOP_BIN" -p "$LEAK" --json -d 2 -n 100 >"$WORK/out-$name.json" 2>"$WORK/err-$name" &
	GCTOP=$!
	CHILD_PIDS="$CHILD_PIDS $GCTOP"
}

# end_case NAME LEAK GCTOP: once gctop has had a growth for GROWN_SAMPLES
# samples (or the program's time is up), ends the program; gctop then
# exits 8, its target gone.
end_case() {
	# 120 s at most: past the time either program runs
	wait_until 1200 matching_at_least "$WORK/out-$1.json" '"growth_bps":[0-9]' "$GROWN_SAMPLES"
	kill "$2" 2>/dev/null
	wait "$2" 2>/dev/null
	wait "$3"
	rc=$?
	check "$1: gctop exits 8, the target gone ($(head -c 300 "$WORK/err-$1"))" [ "$rc" -eq 8 ]
}

# GCConserveMemory, the GC's setting for processes short of memory, makes
# its gen2s regular (every 6-7 s here, from the first): without it they
# come at steps of 1.7-1.8 times the live set, so the first point past a
# minute, and with it the first projection, fell anywhere from 150 to 260
# MB of the 320 MiB (measured).
start_case workstation "$RATE" 100 DOTNET_gcServer=0 DOTNET_GCHeapHardLimit=$(printf '0x%x' "$HARD_LIMIT") \
	DOTNET_GCConserveMemory=9
wks_leak=$LEAK wks_gctop=$GCTOP
# --doctor on the leaking program for 80 s from its start (the trend needs
# points over a minute): it exits with the status of a finding that names
# the leak.
"$GCTOP_BIN" --doctor -p "$wks_leak" -d 80 >"$WORK/doctor" 2>"$WORK/doctor.err" &
DOCTOR=$!
CHILD_PIDS="$CHILD_PIDS $DOCTOR"
start_case server 3000000 110 DOTNET_gcServer=1
srv_leak=$LEAK srv_gctop=$GCTOP

wait "$DOCTOR"
rc=$?
check "workstation: --doctor exits with its finding's status (status $rc, its findings' $(doctor_status "$WORK/doctor"); $(head -c 200 "$WORK/doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor")" -a "$rc" -ge 13 ]
check "workstation: ... naming live-set-growth and printing the live set ($(grep -m1 '^Live:' "$WORK/doctor"))" \
	sh -c 'grep -q "live-set-growth" "$1" && grep -q "^Live: .* growth .* exhaustion in" "$1"' _ "$WORK/doctor"
end_case workstation "$wks_leak" "$wks_gctop"
end_case server "$srv_leak" "$srv_gctop"

comparator "dotnet_live_check.py (workstation)" python3 tests/integration/dotnet_live_check.py "$TEST_NAME" workstation "$WORK/out-workstation.json" \
	"$WORK/truth-workstation" "$HARD_LIMIT"
comparator "dotnet_live_check.py (server)" python3 tests/integration/dotnet_live_check.py "$TEST_NAME" server "$WORK/out-server.json" "$WORK/truth-server"
