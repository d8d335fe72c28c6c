#!/bin/sh
# test-lane: measuring
# gctop's collections, pause time, heap and old-generation figures against jstat -gc (and -gccapacity) read at
# the same moment (one jstat read just before gctop's, one just after), for every collector of JDK 17 (and generational ZGC on
# JDK 25 when it is installed). The workload allocates, then holds still so
# both tools read the same counters; tolerances are in compare_jstat.py.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
XMX_MB=128

# run_one LABEL JAVA JSTAT GC_FLAG
run_one() {
	label=$1 javabin=$2 jstatbin=$3 flag=$4
	log="$WORK/$label.log"
	"$javabin" -Xmx${XMX_MB}m "$flag" -cp "$CLASSES" AllocWorkload small 100 1.5 6 >"$log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^phase quiet' "$log" 2>/dev/null
	if ! grep -q '^phase quiet' "$log"; then
		fail "$label: the workload did not reach its quiet phase: $(head -c 300 "$log")"
		return
	fi
	"$jstatbin" -gc "$pid" >"$WORK/$label.before" 2>&1
	"$GCTOP_BIN" -p "$pid" --json -n 1 >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	"$jstatbin" -gc "$pid" >"$WORK/$label.after" 2>&1
	"$jstatbin" -gccapacity "$pid" >"$WORK/$label.cap" 2>&1
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$rc" -ne 0 ]; then
		fail "$label: gctop exited with $rc: $(cat "$WORK/$label.err")"
		return
	fi
	comparator "compare_jstat.py ($label)" python3 tests/java/compare_jstat.py "$WORK/$label.json" "$WORK/$label.before" "$WORK/$label.after" $((XMX_MB * 1024 * 1024)) "$label" "$WORK/$label.cap"
}

run_one jdk17-G1 java jstat -XX:+UseG1GC
run_one jdk17-Parallel java jstat -XX:+UseParallelGC
run_one jdk17-Serial java jstat -XX:+UseSerialGC
run_one jdk17-Z java jstat -XX:+UseZGC
run_one jdk17-Shenandoah java jstat -XX:+UseShenandoahGC
if [ -x "$JDK25/java" ]; then
	run_one jdk25-Z "$JDK25/java" "$JDK25/jstat" -XX:+UseZGC
	run_one jdk25-G1 "$JDK25/java" "$JDK25/jstat" -XX:+UseG1GC
else
	skip_unless_ci runtime "JDK 25 is not installed at $JDK25; generational ZGC not checked"
fi
