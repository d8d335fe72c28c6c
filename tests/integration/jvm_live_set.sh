#!/bin/sh
# test-lane: measuring
# The live set read-only from perf data (issue 28) on leaking JVMs: a static
# map growing by a known number of bytes a second among steady churn and
# objects that die old (tests/java/LeakWorkload.java), on G1 and Parallel
# (JDK 17) and generational ZGC (JDK 25, when installed), side by side.
# gctop's live_set.growth_bps must be within 15 % of the workload's own
# count of retained bytes, and the limit it projects to must be the JVM's
# own (the old generation's maximum by its memory pools); on G1 and
# Parallel the time to exhaustion gctop projected at its first sample that
# had one must be within 20 % of the time the live set it reported takes to
# reach that limit at the workload's own rate, and on G1 the live-set-growth
# finding must come with 30 s of room left at least, in --json and in
# --doctor (tolerances in tests/java/live_check.py).
#
# No JVM is let die: how the projection compares with a real
# OutOfMemoryError is measured once, by make bench's leak-death section
# (bench/leak_death.py, bench/README.md), where a G1 run that leaked to its
# death made this test 140 s long. Each run ends once gctop has had a
# growth for a few samples; its trend is n/a until its points span a
# minute (GT_LIVE_SET_MIN_SPAN_NS), so the runs take about 75 s after the
# workloads' 10 s warm-up, whatever the machine. Why each run's flags:
#   G1: a fixed -XX:InitiatingHeapOccupancyPercent=20 starts concurrent
#       cycles (and so points) from the first seconds rather than once old
#       passes the adaptive threshold.
#   Parallel: its points come only from full collections, which come when
#       old fills; a small old (-XX:NewRatio=1) and objects that die old fast
#       (MaxTenuringThreshold=1, a 32 MiB cache turned over every 4 s) make
#       them come every 10-15 s, so it is the last to span the minute.
#   ZGC: no objects that die old. ZGC relocates an old page only once
#       enough of it is garbage, so they stay in old used after a cycle,
#       accumulating, and lift the growth: measured +9 % to +17 % over
#       the leak's own rate with 2 MiB/s of them (5 runs), a limit of the
#       figure the man page states; here the leak alone is checked, and
#       its projection, which carries that lift, is not held.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
# Samples with a growth a run waits for before it ends its workload: the
# last of them is the one whose growth is checked.
GROWN_SAMPLES=3

# start_run LABEL JAVA "JVM FLAGS" "WORKLOAD ARGS": the workload, its output
# in $WORK/LABEL.out.
start_run() {
	label=$1 javabin=$2
	# shellcheck disable=SC2086 # the flags are words
	"$javabin" $3 -cp "$CLASSES" LeakWorkload $4 >"$WORK/$label.out" 2>&1 &
	CHILD_PIDS="$CHILD_PIDS $!"
	eval "PID_$label=$!"
}

# watch_run LABEL: once the workload has warmed up, a gctop watching it
# every 2 s until it ends, its samples in $WORK/LABEL.json.
watch_run() {
	label=$1
	eval "pid=\$PID_$label"
	wait_until 300 grep -q '^phase steady' "$WORK/$label.out" 2>/dev/null
	python3 tests/java/live_check.py watch "$WORK/$label.json" \
		"$GCTOP_BIN" -p "$pid" --json -d 2 -n 100 2>"$WORK/$label.err" &
	CHILD_PIDS="$CHILD_PIDS $!"
	eval "WATCH_$label=$!"
}

# finish_run LABEL [project]: once gctop has had a growth for
# GROWN_SAMPLES samples (or the workload's time is up), ends the workload,
# waits for gctop to see it gone, then checks.
finish_run() {
	label=$1
	eval "pid=\$PID_$label watch=\$WATCH_$label"
	# 120 s at most: past the time any run's workload leaks
	wait_until 1200 matching_at_least "$WORK/$label.json" '"growth_bps":[0-9]' "$GROWN_SAMPLES"
	kill "$pid" 2>/dev/null
	wait "$pid"
	wait "$watch"
	comparator "live_check.py ($label)" python3 tests/java/live_check.py check "$WORK/$label.out" "$WORK/$label.json" "$label" ${2:-}
}

# LEAK_KB_PER_S SECONDS THREADS BASE_MB TURNOVER_MB TURNOVER_S WARM_S (gctop
# starts once the caches are in the old generation, LeakWorkload.java).
# SECONDS is a bound the runs end well before; G1's keeps it short of its
# death (about 120 s of this leak).
start_run g1 java "-Xmx256m -Xms256m -XX:+UseG1GC -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=20" \
	"1536 100 2 40 16 8 10"
start_run parallel java "-Xmx256m -Xms256m -XX:+UseParallelGC -XX:NewRatio=1 -XX:MaxTenuringThreshold=1" \
	"512 110 2 20 32 4 10"
[ -x "$JDK25/java" ] && start_run zgc25 "$JDK25/java" "-Xmx256m -Xms256m -XX:+UseZGC" "1024 110 2 40 0 8 10"
watch_run g1
# --doctor on the leaking JVM, from its warm-up's end for 75 s (the trend
# needs points over a minute; G1's come every 2-3 s): it exits with the
# status of a finding that names the leak.
"$GCTOP_BIN" --doctor -p "$PID_g1" -d 75 >"$WORK/g1.doctor" 2>"$WORK/g1.doctor.err" &
DOCTOR=$!
CHILD_PIDS="$CHILD_PIDS $DOCTOR"
watch_run parallel
[ -x "$JDK25/java" ] && watch_run zgc25
wait "$DOCTOR"
rc=$?
check "g1: --doctor exits with its finding's status (status $rc, its findings' $(doctor_status "$WORK/g1.doctor"); $(head -c 200 "$WORK/g1.doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/g1.doctor")" -a "$rc" -ge 13 ]
check "g1: ... naming live-set-growth and printing the live set ($(grep -m1 '^Live:' "$WORK/g1.doctor"))" \
	sh -c 'grep -q "live-set-growth" "$1" && grep -q "^Live: .* growth .* exhaustion in" "$1"' _ "$WORK/g1.doctor"
finish_run g1 project
finish_run parallel project
if [ -x "$JDK25/java" ]; then
	finish_run zgc25
else
	missing_runtime "Temurin 25 (generational ZGC, $JDK25)"
fi
