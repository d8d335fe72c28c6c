#!/bin/sh
# gctop's JFR chunk reader (collectors/hotspot/jfr/) against the JDK's own
# reader on fresh recordings: AllocSites (tests/java) runs a few seconds
# under -XX:StartFlightRecording with the JDK's `profile` settings on JDK
# 17 (G1, Parallel and ZGC: each collector has events of its own in the
# metadata) and, where installed, Temurin 25 (G1); test_jfr_real --dump reads every
# chunk of the file, and jfr_reader_check.py holds each event of the five
# types gctop reads (allocation samples with their whole stacks,
# collections, pause phases, heap summaries, threads' allocation totals)
# to `jfr print --json` of the same file: the same counts and the same
# fields, times and durations to the ns.
. tests/lib.sh
require_java
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
dumper="$PWD/$GCTOP_BUILD/tests/test_jfr_real"
[ -x "$dumper" ] || { fail "$dumper is not built"; exit 1; }
EVENTS=jdk.ObjectAllocationSample,jdk.GarbageCollection,jdk.GCPhasePause,jdk.GCHeapSummary,jdk.ThreadAllocationStatistics

# record_and_compare LABEL JDK_BIN [JVM_OPTION]: a recording of about 4 s,
# read both ways.
record_and_compare() {
	label=$1 bin=$2 option=${3:--XX:+UseG1GC}
	rec="$WORK/$label.jfr"
	"$bin/java" -Xmx96m "$option" -XX:StartFlightRecording:filename="$rec",settings=profile -cp "$classes" \
		AllocSites 50 4 >"$WORK/$label.log" 2>&1
	rc=$?
	check "$label: the JVM recorded (status $rc: $(tail -n 1 "$WORK/$label.log" | tr -d '\n'))" \
		sh -c "[ $rc -eq 0 ] && [ -s '$rec' ]"
	"$dumper" --dump "$rec" >"$WORK/$label.ours" 2>"$WORK/$label.err"
	rc=$?
	check "$label: gctop's reader read every chunk (status $rc: $(head -n 1 "$WORK/$label.err" | tr -d '\n'))" [ "$rc" -eq 0 ]
	"$bin/jfr" print --json --stack-depth 64 --events "$EVENTS" "$rec" >"$WORK/$label.truth" 2>"$WORK/$label.jfrerr"
	rc=$?
	check "$label: jfr print read it (status $rc)" [ "$rc" -eq 0 ]
	comparator jfr_reader_check python3 tests/integration/jfr_reader_check.py "$label" "$WORK/$label.ours" "$WORK/$label.truth"
}

j17=$(dirname "$(readlink -f "$(command -v java)")")
record_and_compare jdk17-g1 "$j17"
record_and_compare jdk17-parallel "$j17" -XX:+UseParallelGC
record_and_compare jdk17-zgc "$j17" -XX:+UseZGC
j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ -x "$j25/java" ]; then
	record_and_compare jdk25-g1 "$j25"
else
	skip_unless_ci runtime "JDK 25 is not installed at $j25"
fi
