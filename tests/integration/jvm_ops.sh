#!/bin/sh
# test-lane: measuring
# Bytes per operation on a JVM (--ops NAME): OpsWorkload publishes its
# operations as a perf-data counter of its own (jdk.internal.perf.PerfCounter)
# while two threads do operations of 32 KiB each, and logs its own truth
# (ThreadMXBean's bytes over the operations it counted). gctop --json
# --ops must give bytes per operation within 5% of that in every interval,
# the same through a recording, its replay and --compare; a counter the JVM
# does not publish is n/a with why, never 0; --doctor --ops exits with the
# status its report calls for, with the alloc-per-op warning where each
# operation starts collections of its own; JDK 25 as JDK 17. About 35 s.
. tests/lib.sh
. tests/integration/jvm_ops.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
COUNTER=gctop.test.ops
EXPORTS="--add-exports java.base/jdk.internal.perf=ALL-UNNAMED"

# start LOG SECONDS: OpsWorkload counting in the perf-data counter.
start() {
	# shellcheck disable=SC2086 # EXPORTS is two words
	ops_start "$1" "$2" "$COUNTER" $EXPORTS
}
judge() { ops_judge "$1" "$2" "$3" "$COUNTER"; }

start ops17.log 18
"$GCTOP_BIN" --json -p "$JPID" --ops "$COUNTER" -d 2 -n 4 -w "$WORK/rec.ndjson" >"$WORK/ops.json" 2>"$WORK/ops.err"
rc=$?
check "gctop --json --ops exits 0 ($(head -c 300 "$WORK/ops.err"))" [ "$rc" -eq 0 ]
judge "JDK 17" "$WORK/ops.json" "$WORK/ops17.log"

# A counter the JVM does not publish: n/a with the name and why, never 0.
"$GCTOP_BIN" --json -p "$JPID" --ops no.such.counter -d 0.5 -n 2 >"$WORK/none.json" 2>"$WORK/none.err"
rc=$?
check "a missing counter is no error (status $rc: $(head -c 300 "$WORK/none.err"))" [ "$rc" -eq 0 -a -s "$WORK/none.json" ]
check "a missing counter: ops null, ops_unavailable names it and says why ($(json_get "$WORK/none.json" -1 "d['ops_unavailable']"))" \
	[ "$(json_get "$WORK/none.json" -1 "d['ops'] is None and d['ops_unavailable']['counter'] == 'no.such.counter' and 'no perf-data counter of this name' in d['ops_unavailable']['reason']")" = True ]
"$GCTOP_BIN" -b -p "$JPID" --ops no.such.counter -d 0.5 -n 1 >"$WORK/none.txt" 2>&1
check "a missing counter in -b: operations n/a with the name and why" \
	grep -q '^Alloc: .*   operations n/a (no.such.counter: the JVM publishes no perf-data counter of this name' "$WORK/none.txt"
"$GCTOP_BIN" -b -p "$JPID" --ops "$COUNTER" -d 0.5 -n 1 >"$WORK/ops.txt" 2>&1
check "-b shows operations per second and bytes per op ($(grep '^Alloc' "$WORK/ops.txt"))" \
	grep -Eq '^Alloc: .*   operations/s [0-9.]+, [0-9.]+ KiB per op$' "$WORK/ops.txt"

"$GCTOP_BIN" --doctor -p "$JPID" -d 2 --ops "$COUNTER" >"$WORK/doctor" 2>"$WORK/doctor.err"
rc=$?
check "--doctor --ops exits with its report's status ($rc; report says $(doctor_status "$WORK/doctor"): $(head -c 200 "$WORK/doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor")" ]
check "32 KiB operations with eden in the tens of MiB: no alloc-per-op finding ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor" | tr '\n' ' '))" \
	sh -c "! grep -q alloc-per-op '$WORK/doctor'"

# The recording keeps the counter: its replay gives the same figures, and
# --compare its median.
ops_check_recording "$WORK/ops.json" "$WORK/rec.ndjson"
kill "$JPID" 2>/dev/null

# 16 MiB operations with an 8 MiB young generation: each operation starts
# collections of its own, the alloc-per-op warning, and --doctor exits 13
# (or 14 with a worse finding), as its report says.
# shellcheck disable=SC2086 # EXPORTS is two words
start_java "$WORK/big.log" $EXPORTS -XX:+UseG1GC -Xmx128m -Xmn8m -cp "$CLASSES" OpsWorkload "$COUNTER" 2 3 16777216 8
BIG=$JPID
wait_until 100 grep -q '^ops ' "$WORK/big.log"
"$GCTOP_BIN" --doctor -p "$BIG" -d 4 --ops "$COUNTER" >"$WORK/doctor-big" 2>"$WORK/doctor-big.err"
rc=$?
check "16 MiB operations: --doctor warns alloc-per-op with the collections per operation ($(grep -E '^Findings|^  [a-z]' "$WORK/doctor-big" | tr '\n' ' ' | head -c 400))" \
	grep -Eq '^  warning +alloc-per-op: each operation allocates (at least )?[0-9.]+ MiB: [1-9][0-9]*\.[0-9]{2} collections per operation$' "$WORK/doctor-big"
check "16 MiB operations: --doctor exits with its report's status ($rc; report says $(doctor_status "$WORK/doctor-big"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor-big")" ]
check "16 MiB operations: a warning at worst gives 13 or 14 ($rc)" test "$rc" -ge 13 -a "$rc" -le 14
kill "$BIG" 2>/dev/null

"$GCTOP_BIN" -p "$$" --json --ops 'bad name' >/dev/null 2>&1
check "--ops with a name that is no counter's is a usage error (2)" [ $? -eq 2 ]

j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ -x "$j25/java" ]; then
	PATH="$j25:$PATH" start ops25.log 9
	"$GCTOP_BIN" --json -p "$JPID" --ops "$COUNTER" -d 2 -n 3 >"$WORK/ops25.json" 2>"$WORK/ops25.err"
	rc=$?
	check "JDK 25: gctop --json --ops exits 0 ($(head -c 300 "$WORK/ops25.err"))" [ "$rc" -eq 0 ]
	judge "JDK 25" "$WORK/ops25.json" "$WORK/ops25.log"
else
	skip_unless_ci runtime "JDK 25 is not installed at $j25"
fi
