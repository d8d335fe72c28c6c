#!/bin/sh
# test-lane: measuring
# The live set read-only from perf data (issue 28) on leaking JVMs: a static
# map growing by a known number of bytes a second among steady churn and
# objects that die old (tests/java/LeakWorkload.java), on G1 and Parallel
# (JDK 17) and generational ZGC (JDK 25, when installed), side by side.
# gctop's live_set.growth_bps must be within 15 % of the workload's own
# count of retained bytes; the G1 run leaks until OutOfMemoryError, and the
# time to exhaustion gctop projected at its first sample that had one must be
# within 20 % of when it died (tolerances in tests/java/live_check.py).
#
# The runs take about 140 s (10 s of them the workloads' warm-up) because the trend is n/a until its points span a
# minute (GT_LIVE_SET_MIN_SPAN_NS): the G1 heap must outlive that by enough
# for a projection to be worth checking. Why each run's flags:
#   G1: a fixed -XX:InitiatingHeapOccupancyPercent=20 starts concurrent
#       cycles (and so points) from the first seconds rather than once old
#       passes the adaptive threshold.
#   Parallel: its points come only from full collections, which come when
#       old fills; a small old (-XX:NewRatio=1) and objects that die old fast
#       (MaxTenuringThreshold=1, a 32 MiB cache turned over every 4 s) make
#       them come every few seconds. Its run and ZGC's last as long as
#       G1's takes to die (110 s of leak), so that their points span the
#       minute well past the first full collection.
#   ZGC: no objects that die old. ZGC relocates an old page only once
#       enough of it is garbage, so they stay in old used after a cycle,
#       accumulating, and lift the growth: measured +9 % to +17 % over
#       the leak's own rate with 2 MiB/s of them (5 runs), a limit of the
#       figure the man page states; here the leak alone is checked.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
GCTOP_SAMPLES=80 # every 2 s: longer than any run (gctop ends with its JVM)

# start_run LABEL JAVA "JVM FLAGS" "WORKLOAD ARGS": the workload, its output
# in $WORK/LABEL.out.
start_run() {
	label=$1 javabin=$2
	# shellcheck disable=SC2086 # the flags are words
	"$javabin" $3 -cp "$CLASSES" LeakWorkload $4 >"$WORK/$label.out" 2>&1 &
	CHILD_PIDS="$CHILD_PIDS $!"
	eval "PID_$label=$!"
}

# watch_run LABEL: once the workload has warmed up, a gctop watching it,
# its samples in $WORK/LABEL.json.
watch_run() {
	label=$1
	eval "pid=\$PID_$label"
	wait_until 300 grep -q '^phase steady' "$WORK/$label.out" 2>/dev/null
	python3 tests/java/live_check.py watch "$WORK/$label.json" \
		"$GCTOP_BIN" -p "$pid" --json -d 2 -n $GCTOP_SAMPLES 2>"$WORK/$label.err" &
	CHILD_PIDS="$CHILD_PIDS $!"
	eval "WATCH_$label=$!"
}

# finish_run LABEL [oom]: waits for the workload (it ends by itself, or by
# OutOfMemoryError), then for gctop to see it gone, then checks.
finish_run() {
	label=$1
	eval "pid=\$PID_$label watch=\$WATCH_$label"
	wait "$pid"
	rc=$?
	wait "$watch"
	if [ "${2:-}" = oom ] && [ "$rc" -ne 3 ]; then
		fail "$label: the workload did not die of OutOfMemoryError (exit $rc): $(tail -c 300 "$WORK/$label.out")"
		return
	fi
	comparator "live_check.py ($label)" python3 tests/java/live_check.py check "$WORK/$label.out" "$WORK/$label.json" "$label" ${2:-}
}

# LEAK_KB_PER_S SECONDS THREADS BASE_MB TURNOVER_MB TURNOVER_S WARM_S (gctop
# starts once the caches are in the old generation, LeakWorkload.java)
start_run g1 java "-Xmx256m -Xms256m -XX:+UseG1GC -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=20" \
	"1536 300 2 40 16 8 10"
start_run parallel java "-Xmx256m -Xms256m -XX:+UseParallelGC -XX:NewRatio=1 -XX:MaxTenuringThreshold=1" \
	"512 110 2 20 32 4 10"
[ -x "$JDK25/java" ] && start_run zgc25 "$JDK25/java" "-Xmx256m -Xms256m -XX:+UseZGC" "1024 110 2 40 0 8 10"
watch_run g1
# --doctor on the dying JVM, from its warm-up's end for 80 s (the trend
# needs points over a minute): it reports about 40 s before the death
# (about 120 s on), exiting with the status of a finding that names the
# leak; status 8 would mean the JVM died first.
"$GCTOP_BIN" --doctor -p "$PID_g1" -d 80 >"$WORK/g1.doctor" 2>"$WORK/g1.doctor.err" &
DOCTOR=$!
CHILD_PIDS="$CHILD_PIDS $DOCTOR"
watch_run parallel
[ -x "$JDK25/java" ] && watch_run zgc25
wait "$DOCTOR"
rc=$?
check "g1: --doctor before the death exits with its finding's status (status $rc, its findings' $(doctor_status "$WORK/g1.doctor"); $(head -c 200 "$WORK/g1.doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/g1.doctor")" -a "$rc" -ge 13 ]
check "g1: ... naming live-set-growth and printing the live set ($(grep -m1 '^Live:' "$WORK/g1.doctor"))" \
	sh -c 'grep -q "live-set-growth" "$1" && grep -q "^Live: .* growth .* exhaustion in" "$1"' _ "$WORK/g1.doctor"
finish_run g1 oom
finish_run parallel
if [ -x "$JDK25/java" ]; then
	finish_run zgc25
else
	missing_runtime "Temurin 25 (generational ZGC, $JDK25)"
fi
