#!/bin/sh
# test-lane: measuring
# Sampled allocators' shares against the workload's own bytes: SizeMix
# (tests/java) allocates in two threads a known mix, sizes from 16 B to
# just under half a G1 region ("mix"), or issue 42's plain program (a
# 256 KiB buffer, then a request string: "shape"), and prints its bytes per
# type and per frame, checked against its ThreadMXBean bytes. gctop's
# by-type and by-frame shares over its 10 s window must be within 2 points
# of the workload's over the same window.
#
# The shape runs on the default JDK (17 here) with the agent attached by
# gctop, as the issue's user ran it: that JVM's sampler put the sample of
# each thread's first allocation after a collection on the request's
# StringBuilder (9.7% of the bytes by type, 0.01% in truth), which the
# agent now leaves out. Its other errors (JDK-8356372, fixed in 25) no
# weight undoes, so the mix is measured on JDK 25 only, and before 25 the
# source says biased.
#
# On JDK 25 the interval is fixed at 256 KiB (the agent's interval=
# option, loaded with -agentpath as allocators_agentpath.sh does) so that
# objects from 64 KiB up are near it, where the weight matters:
# max(size, interval) counted a 256 KiB object at 63% of its bytes
# (byte[] came 7 points low, int[] 2.3 points high).
. tests/lib.sh
require_java
j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
agent="$PWD/$GCTOP_BUILD/libgctop-agent.so"
[ -f "$agent" ] || { fail "$agent is not built"; exit 1; }

# run_mode LABEL JAVA MODE RATE_MIB_S MIN_SAMPLES [AGENT_OPTIONS]: the
# workload paced at RATE, with the agent loaded at start-up with
# AGENT_OPTIONS, else attached by gctop (its adaptive interval); gctop's
# 12th output has a full window, and the workload's next reading closes it.
run_mode() {
	label=$1 javabin=$2 mode=$3 rate=$4 least=$5
	load=""
	[ -n "${6:-}" ] && load="-agentpath:$agent=$6"
	JAVA_BIN=$javabin start_sizemix "$WORK/$label.log" $load -cp "$classes" SizeMix "$mode" 2 60 "$rate"
	[ -n "$load" ] && wait_for_file "/proc/$JPID/root/tmp/.gctop-seg-$JPID" 10
	wait_for_hsperf "$JPID" 10 || { fail "$label: the JVM published no perf data: $(head -c 300 "$WORK/$label.log")"; return; }
	"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 12 >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	check "$label: gctop --allocators ran (status $rc: $(head -c 200 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	wait_for_more "$WORK/$label.log" '^truth ' 2 50
	comparator "shares_$label" python3 tests/java/compare_shares.py "$TEST_NAME: $label" "$WORK/$label.json" \
		"$WORK/$label.log" 2 "$least"
	kill "$JPID" 2>/dev/null
	wait "$JPID" 2>/dev/null || :
}

# start_sizemix LOG ARGS...: as start_java, with $JAVA_BIN, G1 and 512 MiB
# (the issue's program).
start_sizemix() {
	log=$1
	shift
	"$JAVA_BIN" -Xmx512m -XX:+UseG1GC "$@" >"$log" 2>&1 &
	JPID=$!
	CHILD_PIDS="$CHILD_PIDS $JPID"
}

# The issue's program on the JDK it ran (17 here), attached as a user
# would: each thread's first sample after a collection, which that JVM's
# sampler puts on the object after the safepoint (the request's
# StringBuilder took 9.7% of the bytes), is left out; the source says
# the rest may be biased.
run_mode shape-default "$(command -v java)" shape 4096 1000
feature=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
want=jvmti-sampled
[ "${feature:-0}" -lt 25 ] && want=jvmti-biased
check "shape-default: the source on JDK $feature is $want" \
	[ "$(json_get "$WORK/shape-default.json" -1 "d['top_allocators']['source']")" = "$want" ]

[ -x "$j25/java" ] || { skip "JDK 25 is not installed at $j25: the mix of sizes is not measured"; exit 0; }
run_mode mix "$j25/java" mix 1024 5000 interval=262144
run_mode shape "$j25/java" shape 1024 5000 interval=262144
