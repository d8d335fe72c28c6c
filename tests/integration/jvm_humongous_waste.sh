#!/bin/sh
# test-lane: measuring
# G1 counts a humongous array in whole regions: arrays a little over three
# 1 MiB regions (four regions each), half the bytes in them, four threads
# (tests/java/MixWorkload.java, which prints the region size the JVM chose).
# From perf data alone gctop's allocation must be marked an upper bound whose
# excess bound holds the JVM's own count (ThreadMXBean), its regions' tails
# bound the arrays' known tails, and the arrays' share lie in its range; with
# --allocators the exact figure, within the 5% of jvm_alloc_matrix.sh, and the
# arrays' bytes, tails and share from the agent's samples within 10% of the
# known ones. JDK 17, and Temurin 25 where installed (skipped without it; a
# failure under CI=true). The comparison is in compare_humongous.py.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
TOL=0.05
MIB=1048576
LENGTH=$((3 * MIB + 1000))  # 3 MiB and a little: four regions, a tail of almost one
# The busy phase outlasts gctop's samples; the JVM is stopped once gctop is done.
BUSY=60

# compare LABEL MODE: gctop's figures in $WORK/LABEL-MODE.json against the log
compare() {
	if result=$(cd tests/java && python3 compare_humongous.py "$WORK/$1-$2.json" "$WORK/$1.log" "$2" $TOL $LENGTH); then
		pass "$1 $2: $result"
	else
		fail "$1 $2: $result"
	fi
}

# run LABEL JAVA: perf data alone, then with the agent, on one JVM
run() {
	label=$1 javabin=$2 log="$WORK/$1.log"
	"$javabin" -Xmx256m -XX:+UseG1GC -XX:G1HeapRegionSize=1m -cp "$CLASSES" MixWorkload 4 300 0.5 $LENGTH $BUSY 0.5 \
		>"$log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$log" 2>/dev/null
	for mode in estimate agent; do
		opt=""
		[ $mode = agent ] && opt=--allocators=agent
		# shellcheck disable=SC2086 # opt is empty or one word
		"$GCTOP_BIN" -p "$pid" $opt --json -d 0.25 -n 15 >"$WORK/$label-$mode.json" 2>"$WORK/$label-$mode.err"
		rc=$?
		# the comparison interpolates the workload's reports around gctop's last sample
		wait_for_more "$log" '^alloc ' 2 50
		if [ "$rc" -ne 0 ]; then
			fail "$label $mode: gctop exited with $rc: $(cat "$WORK/$label-$mode.err")"
			continue
		fi
		compare "$label" $mode
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null || true
}

run jdk17 java
if [ -x "$JDK25" ]; then
	run jdk25 "$JDK25"
else
	# Temurin 25 is tested where present (as in the other JDK 25 tests)
	skip_unless_ci runtime "jdk25: JDK 25 is not installed at /usr/lib/jvm/temurin-25-jdk-amd64"
fi
