#!/bin/sh
# test-lane: measuring
# gctop --census on JVMs (JDK 17 G1, Parallel and ZGC; JDK 25 G1 when it is
# installed) that leak one known type (tests/java/CensusLeak:
# 100 CensusLeak$LeakNode every 50 ms among churn of byte[] and String):
# two censuses 3 s apart, where the type that grew most is the leaking one;
# each census's count of it lies between the workload's own counts read just
# before and just after it (plus one tick of 100: the workload writes its
# count at the end of a tick, and the census's safepoint may fall inside
# one); and jmap -histo:live right after agrees: at least the census's
# count, at most the workload's count after jmap (plus one tick), with the
# same bytes per object. Each census's pause_ms agrees with the JVM's own
# safepoint log (-Xlog:safepoint): at least its GC_HeapInspection
# safepoint's Total (the threads' stopping too: a loaded machine stretched
# it to 0.8 ms of 9), at most every safepoint logged over the exchange (the
# counters it reads, sun.rt.safepointSyncTime and sun.rt.safepointTime,
# count them all), each within 0.1 ms of rounding. Array names are in source form. Also the refusals:
# a process of no runtime (status 4), no -p (status 2).
. tests/lib.sh
require_java
command -v jmap >/dev/null 2>&1 || missing_runtime "jmap"
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
TICK=100
JDK17=$(dirname "$(readlink -f "$(command -v java)")")
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin

# run_one LABEL JAVA_HOME_BIN GC_FLAG: the two censuses and jmap on one JVM,
# in $WORK/LABEL, then the verdict (jvm_census_check.py).
run_one() {
	label=$1 bin=$2 flag=$3 dir="$WORK/$1"
	mkdir -p "$dir"
	"$bin/java" -Xmx256m "$flag" -Xlog:safepoint=info:file="$dir/safepoint.log" \
		-cp "$classes" CensusLeak $TICK "$dir/state" >"$dir/java.log" 2>&1 &
	JPID=$!
	CHILD_PIDS="$CHILD_PIDS $JPID"
	if ! wait_for_hsperf "$JPID" 10 || ! wait_for_file "$dir/state" 10; then
		fail "$label: the workload did not start: $(head -c 300 "$dir/java.log")"
		return
	fi
	census "$dir" 1
	sleep 3
	census "$dir" 2
	"$bin/jmap" -histo:live "$JPID" >"$dir/jmap.txt" 2>&1
	leaked "$dir" >"$dir/after.jmap"
	for n in 1 2; do
		rc=$(cat "$dir/rc.$n")
		check "$label: census $n ran (status $rc: $(cat "$dir/census.$n.err"))" [ "$rc" -eq 0 ]
	done
	"$GCTOP_BIN" --census -p "$JPID" >"$dir/census.txt" 2>&1
	text_rc=$?
	check "$label: the text table ran (status $text_rc) and names the leaking type" \
		grep -q 'CensusLeak\$LeakNode' "$dir/census.txt"
	kill "$JPID"
	wait "$JPID" 2>/dev/null
	comparator "jvm_census_check.py ($label)" python3 tests/integration/jvm_census_check.py "$dir" $TICK "$label"
}
leaked() { sed -n 's/^leaked //p' "$1/state"; }

# census DIR N: a census into DIR/census.N.json, the workload's count and
# the safepoint log's length before and after
census() {
	leaked "$1" >"$1/before.$2"
	wc -l <"$1/safepoint.log" >"$1/log_before.$2"
	"$GCTOP_BIN" --census -p "$JPID" --json >"$1/census.$2.json" 2>"$1/census.$2.err"
	echo $? >"$1/rc.$2"
	leaked "$1" >"$1/after.$2"
	wc -l <"$1/safepoint.log" >"$1/log_after.$2"
}

run_one jdk17-G1 "$JDK17" -XX:+UseG1GC
run_one jdk17-Parallel "$JDK17" -XX:+UseParallelGC
run_one jdk17-Z "$JDK17" -XX:+UseZGC
if [ -x "$JDK25/java" ]; then
	run_one jdk25-G1 "$JDK25" -XX:+UseG1GC
else
	skip_unless_ci runtime "JDK 25 is not installed at $JDK25; its class histogram not checked"
fi

# Refusals: one sentence and the documented status.
sleep 30 &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"
"$GCTOP_BIN" --census -p "$SPID" >/dev/null 2>"$WORK/norun.err"
rc=$?
check "a process of no runtime: status 4 ($rc: $(cat "$WORK/norun.err"))" [ "$rc" -eq 4 ]
"$GCTOP_BIN" --census --json >/dev/null 2>"$WORK/nop.err"
rc=$?
check "no -p: status 2 ($rc: $(cat "$WORK/nop.err"))" [ "$rc" -eq 2 ]

# A JVM that refuses attach: one sentence saying so, status 1, no signal.
start_java "$WORK/noattach.log" -Xmx64m -XX:+DisableAttachMechanism -cp "$classes" CensusLeak 1 "$WORK/state2"
if wait_for_hsperf "$JPID" 10; then
	"$GCTOP_BIN" --census -p "$JPID" >/dev/null 2>"$WORK/noattach.err"
	rc=$?
	check "a JVM started with -XX:+DisableAttachMechanism: status 1 ($rc: $(cat "$WORK/noattach.err"))" \
		sh -c '[ "$1" -eq 1 ] && grep -q "DisableAttachMechanism, so gctop cannot take a census" "$2"' - "$rc" "$WORK/noattach.err"
	check "and it was not signalled (no thread dump)" [ -z "$(grep 'Full thread dump' "$WORK/noattach.log")" ]
else
	fail "the JVM without attach published no perf data: $(head -c 300 "$WORK/noattach.log")"
fi
