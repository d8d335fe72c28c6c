#!/bin/sh
# test-lane: timed
# sanitizer: yes
# (Its bounds, a second or less of wall time measured from outside gctop,
# have no clock of gctop's own to come from: in the timed lane no other
# test's workload shares the two cores with them.)
# A hostile diagnostics socket cannot hold gctop: a fake .NET process (it maps
# a libcoreclr.so and serves /tmp/dotnet-diagnostic-PID-START-socket, as the
# target's own user) dribbles its replies a byte at a time. Each IPC command
# has one deadline for the whole exchange, SIGINT and SIGTERM end gctop
# within 1 s while it waits, and an exit-time StopTracing is bounded too.
# (Before: -p PID --json ran past 53 s ignoring both signals, -l and the
# picker stalled for the whole reply, StopTracing held the exit 38.9 s.)
. tests/lib.sh
. tests/integration/security_fake_dotnet.shlib

# run_timed LIMIT_S gctop-args...: runs gctop (killed after LIMIT_S), sets
# RC and MS (elapsed milliseconds).
run_timed() {
	limit=$1
	shift
	t0=$(now_ms)
	timeout -s KILL "$limit" "$GCTOP_BIN" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
	MS=$(($(now_ms) - t0))
}

start_fake dribble 0.25 || exit 0

# One deadline for ProcessInfo (2 s), not 2 s per byte of a 150-byte reply.
run_timed 20 -p "$FAKE" --json -n 1
check "-p --json ends within 4 s against a dribbling socket (took $MS ms, status $RC: $(cat "$WORK/err"))" \
	[ "$MS" -lt 4000 -a "$RC" -ne 137 -a "$RC" -ne 0 ]
check "-p --json says why in one sentence" [ "$(grep -c . "$WORK/err")" -eq 1 ]

for sig in INT TERM; do
	signal_after "$sig" 0.7 -p "$FAKE" --json
	check "SIG$sig ends -p --json within 1 s while the target dribbles (took $MS ms, status $RC)" \
		[ "$MS" -lt 1000 -a "$RC" -eq 0 ]
	signal_after "$sig" 0.7 -b -p "$FAKE"
	check "SIG$sig ends -b within 1 s while the target dribbles (took $MS ms, status $RC)" \
		[ "$MS" -lt 1000 -a "$RC" -eq 0 ]
done

# The list asks each .NET process for ProcessInfo within 300 ms in all (the
# bound leaves room for the other processes on a busy machine; before: 36 s).
run_timed 60 -l
check "-l ends within 5 s with a dribbling socket (took $MS ms, status $RC)" [ "$MS" -lt 5000 -a "$RC" -eq 0 ]
check "-l does not list the fake process whose reply never completed" sh -c "! grep -q '^ *$FAKE ' '$WORK/out'"
stop_fake

# StopTracing at exit: 500 ms for the whole answer, however slowly it comes.
start_fake stop 0.45 || exit 0
run_timed 30 -p "$FAKE" --json -n 1
check "-n 1 prints its sample (status $RC: $(head -c 200 "$WORK/err"))" grep -q '"runtime":"dotnet"' "$WORK/out"
check "exit-time StopTracing is bounded: -n 1 took $MS ms (< 3000)" [ "$MS" -lt 3000 ]
for sig in INT TERM; do
	signal_after "$sig" 1.5 -p "$FAKE" --json
	check "SIG$sig ends a session within 1 s though StopTracing dribbles (took $MS ms, status $RC)" \
		[ "$MS" -lt 1000 -a "$RC" -eq 0 ]
done
