#!/bin/sh
# test-lane: measuring
# gctop's estimated allocation rate against the exact bytes the workload's
# JVM reports (ThreadMXBean) over the same wall-clock window: within 10 %
# for G1 and Parallel, with small objects and with humongous 3-4 MiB
# arrays (the issue's requirement). The comparison is in compare_alloc.py.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
TOLERANCE=0.10
# The busy phase outlasts gctop's samples on any machine: the JVM is stopped
# once gctop is done and the workload has reported past its last sample (a
# fixed 7 s for 6 s of samples ran out on a loaded machine).
BUSY=60

# run_one LABEL JAVA GC_FLAG MODE
run_one() {
	label=$1 javabin=$2 flag=$3 mode=$4
	log="$WORK/$label.log"
	"$javabin" -Xmx128m "$flag" -cp "$CLASSES" AllocWorkload "$mode" 120 $BUSY 1 >"$log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$log" 2>/dev/null
	"$GCTOP_BIN" -p "$pid" --json -d 0.5 -n 13 >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	# the comparison interpolates the workload's reports (every 100 ms)
	# around gctop's last sample: one more report, then stop the JVM
	wait_for_more "$log" '^alloc ' 2 50
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$rc" -ne 0 ]; then
		fail "$label: gctop exited with $rc: $(cat "$WORK/$label.err")"
		return
	fi
	src=$(json_get "$WORK/$label.json" -1 'd["alloc"]["source"]')
	check "$label: allocation labelled as an estimate ($src)" [ "$src" = "estimate" ]
	if result=$(python3 tests/java/compare_alloc.py "$WORK/$label.json" "$log" $TOLERANCE); then
		pass "$label: $result"
	else
		fail "$label: $result"
	fi
}

run_one jdk17-G1-small java -XX:+UseG1GC small
run_one jdk17-G1-humongous java -XX:+UseG1GC humongous
run_one jdk17-Parallel-small java -XX:+UseParallelGC small
run_one jdk17-Parallel-humongous java -XX:+UseParallelGC humongous

# G1's humongous estimate: old-generation growth between pauses.
large=$(json_get "$WORK/jdk17-G1-humongous.json" -1 'sum(1 for l in lines[1:] if (l["large_objects"]["alloc_rate_bps"] or 0) > 0)')
check "jdk17-G1-humongous: humongous allocation seen in most intervals ($large of 12)" [ "$large" -ge 7 ]
none=$(json_get "$WORK/jdk17-G1-small.json" -1 'd["large_objects"]["alloc_bytes_total"]')
check "jdk17-G1-small: no humongous bytes without humongous arrays ($none)" [ "$none" = "0" ]
reason=$(json_get "$WORK/jdk17-Parallel-small.json" -1 'd["large_objects"] is None and d["large_objects_unavailable"]')
check "jdk17-Parallel-small: large objects n/a with a reason ($reason)" sh -c '[ -n "$1" ] && [ "$1" != False ]' - "$reason"

if [ -x "$JDK25/java" ]; then
	run_one jdk25-G1-humongous "$JDK25/java" -XX:+UseG1GC humongous
	run_one jdk25-Parallel-small "$JDK25/java" -XX:+UseParallelGC small
else
	skip_unless_ci runtime "JDK 25 is not installed at $JDK25"
fi
