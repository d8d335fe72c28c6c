#!/bin/sh
# Runs every test and prints one closing line: "N passed, N failed, N skipped",
# after the ten slowest tests and a line that counts the skips by cause ("skipped by cause: nuget 2,
# runtime 1"; tests/lib.sh's skip and skip_unless_ci name the cause,
# "unstated" counts the SKIP lines that name none).
#
# Each test (a unit binary under $GCTOP_BUILD/tests, a script under
# tests/integration or tests/tui) prints lines "PASS: name", "FAIL: name: why"
# or "SKIP: name: why". A test program that exits non-zero without printing a
# FAIL line counts as one failure, so a crash is never silent.
# GCTOP_TESTS=pattern runs only the tests whose path matches the pattern.
# A test that runs past GCTOP_TEST_DEADLINE seconds (900) is stopped and fails.
#
# Four lanes and a third workload lane (README, "The tests' lanes", says
# why), each one test after another:
# - timed: the scripts marked "# test-lane: timed" in their first 30 lines,
#   which time gctop's answers against wall-clock bounds of a second or so,
#   measured from outside gctop. They run first, with no other test's
#   workload beside them: the measuring and other lanes start once they
#   are done.
# - measuring: the scripts marked "# test-lane: measuring", which hold
#   gctop's figures to a runtime's own over the same window, a comparison
#   another process's load does not move;
# - other: every other script that starts a workload (a JVM, a .NET
#   program, a server);
#   these two run side by side with a third lane that takes scripts of
#   both (three workloads at once: most of them wait far more than they
#   compute), and a lane that has run its own scripts takes the others'
#   not yet started;
# - light: the unit tests and the fuzz corpus replays beside the timed
#   lane, then the static checks and the terminal tests that start no
#   runtime (a recording, a fake one) beside the workload lanes.
# The tests must pass on a busy machine anyway; what the lanes keep apart
# is more than three workloads that compute at once, and a timed test from
# any workload. GCTOP_TEST_LANES=1 runs everything in one lane.
#
# GCTOP_SUITE=sanitizer (make check-asan) runs the tests only a build under
# ASan+UBSan can add to: every unit test and fuzz corpus replay, and the
# scripts marked "# sanitizer: yes" in their first 30 lines (every test
# that feeds gctop hostile or crafted input, and one run of each front
# end; tests/static/sanitizer_lane.sh checks the marks).
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/interpreter.sh
: "${GCTOP_BUILD:=build}"
export GCTOP_BUILD
GCTOP_BIN="$PWD/$GCTOP_BUILD/gctop"
export GCTOP_BIN
log_dir="$GCTOP_BUILD/test-logs"
mkdir -p "$log_dir"
pass=0 fail=0 skip=0
# The longest test takes a few minutes on 2 busy cores.
test_deadline=${GCTOP_TEST_DEADLINE:-900}

# cpu_of FILE: the CPU seconds (user and system) of every child a shell
# had waited for when its `times` went to FILE.
cpu_of() {
	awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t }' "$1"
}

run_one() {
	name=$1
	shift
	log="$log_dir/$(echo "$name" | tr '/' '_').log"
	started=$(date +%s)
	# A deadline, so that a test that hangs (a gctop that never exits)
	# fails with a reason instead of holding the suite: timeout signals the
	# test's whole process group, its workloads too.
	# The test runs in a subshell of its own, whose only child it is, and
	# whose `times` is then what the test cost the machine (its workloads
	# are its children, waited for at its end). The lane shell's `times`
	# is not: the shell that runs the timed and measuring lanes is also
	# the parent of the background lanes, and its wait for a test reaps a
	# lane that ends meanwhile, whose whole CPU then landed on that test
	# (tomcat_requests read 777 s of CPU in 66 s when the light lane
	# ended beside it).
	(
		timeout -k 10 "$test_deadline" "$@" >"$log" 2>&1
		echo "$?" >"$log.rc"
		times >"$log.times"
	)
	rc=$(cat "$log.rc" 2>/dev/null) || rc=1
	took=$(($(date +%s) - started))
	cpu=$(cpu_of "$log.times")
	rm -f "$log.times" "$log.rc"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL: $name: did not finish within ${test_deadline}s (GCTOP_TEST_DEADLINE; log: $log)" >>"$log"
	fi
	p=$(grep -c '^PASS: ' "$log")
	f=$(grep -c '^FAIL: ' "$log")
	s=$(grep -c '^SKIP: ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name: exited with status $rc without saying why (log: $log)" >>"$log"
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		echo "FAIL: $name: asserted nothing (log: $log)" >>"$log"
		f=1
	fi
	grep -E '^(FAIL|SKIP): ' "$log"
	# Each skip's cause, one a line: the word in brackets after the name.
	grep '^SKIP: ' "$log" | sed -n 's/^SKIP: [^ ]*: \[\([a-z0-9_-]*\)\].*/\1/p; t; s/.*/unstated/p' >>"$causes"
	printf '%-48s %3d passed %3d failed %3d skipped %4ds %4ds cpu\n' "$name" "$p" "$f" "$s" "$took" "$cpu"
	echo "$took $cpu $name" >>"$timings"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

selected() {
	[ -z "${GCTOP_TESTS:-}" ] && return 0
	case "$1" in *$GCTOP_TESTS*) return 0 ;; esac
	return 1
}

marked() { head -n 30 "$2" | grep -q "^# $1\$"; }

# starts_runtime SCRIPT: the script runs a JVM or a .NET program (every
# such test calls require_java or require_dotnet, tests/lib.sh).
starts_runtime() { grep -qE '^[[:space:]]*require_(java|dotnet)' "$1"; }

# lane_of SCRIPT: the lane a test script runs in.
lane_of() {
	if [ "${GCTOP_TEST_LANES:-4}" = 1 ]; then
		echo one
	elif marked 'test-lane: timed' "$1"; then
		echo timed
	elif marked 'test-lane: measuring' "$1"; then
		echo measuring
	else
		case "$1" in
		tests/static/*) echo light ;;
		tests/tui/*) if starts_runtime "$1"; then echo other; else echo light; fi ;;
		*) echo other ;;
		esac
	fi
}

# wanted SCRIPT: whether this suite runs the script.
wanted() {
	[ "${GCTOP_SUITE:-all}" != sanitizer ] || marked 'sanitizer: yes' "$1"
}

# claim SCRIPT: true for the one lane that takes a script the measuring
# and the other lane may both run (mkdir is atomic), so that no script
# runs twice.
claim() { mkdir "$claims/$(echo "$1" | tr '/' '_')" 2>/dev/null; }

# scripts_of LANE RUNNER: run_one for each wanted script of LANE not yet
# claimed by another lane (RUNNER: the lane that runs them).
scripts_of() {
	for t in tests/static/*.sh tests/integration/*.sh tests/tui/*.sh; do
		[ -f "$t" ] || continue
		selected "$t" || continue
		wanted "$t" || continue
		[ "$(lane_of "$t")" = "$1" ] || continue
		case "$2" in timed | light | one) ;; *) claim "$t" || continue ;; esac
		run_one "$t" sh "$t"
	done
}

# The measuring and other lanes wait for $timed_done (below), which the
# timed lane leaves when it is done.
wait_for_timed() { while [ ! -e "$timed_done" ]; do sleep 1; done; }

# run_lane timed|measuring|other|light|one: the lane's tests; its totals
# go to $totals.LANE. The measuring and other lanes start once the timed
# one is done and, their own scripts run, take each other's not yet
# started, so that both cores keep working to the end.
run_lane() {
	pass=0 fail=0 skip=0
	causes="$totals.causes.$1"
	: >"$causes"
	timings="$totals.timings.$1"
	: >"$timings"
	if [ "$1" = light ] || [ "$1" = one ]; then
		for t in "$GCTOP_BUILD"/tests/test_* "$GCTOP_BUILD"/tests/replay_fuzz_*; do
			[ -x "$t" ] || continue
			selected "$t" || continue
			case "$t" in
			*/replay_fuzz_*) corpus="tests/fuzz/corpus/${t##*/replay_fuzz_}"; run_one "$t" "$t" "$corpus" ;;
			*) run_one "$t" "$t" ;;
			esac
		done
	fi
	case "$1" in
	measuring) wait_for_timed; scripts_of measuring measuring; scripts_of other measuring ;;
	other | third | fourth | fifth | sixth) wait_for_timed; scripts_of other "$1"; scripts_of measuring "$1" ;;
	# the static checks build (third_runtime compiles a copy of the tree)
	# and the terminal tests drive tmux: after the timed lane, whose
	# bounds took 148 ms for 25 beside them
	light) wait_for_timed; scripts_of light light ;;
	*) scripts_of "$1" "$1" ;;
	esac
	echo "$pass $fail $skip" >"$totals.$1"
}

totals="$log_dir/totals.$$"
claims="$totals.claims"
timed_done="$totals.timed-done"
rm -rf "$claims" "$timed_done"
mkdir "$claims" || exit 1
started_suite=$(date +%s)
# Workloads at once after the timed lane: most of them wait on a trend or
# a pace far more than they compute (the suite's workload tests used 620 s
# of CPU over 4,615 s of their wall time; a JVM's live set 0.27 of a core,
# a .NET one 0.1, Tomcat under wrk 0.4), so lanes beyond the measuring and
# other ones keep the 2 cores busy (README, "The tests' lanes"): a third
# by default; GCTOP_WORKLOAD_LANES=N runs N (third, fourth, ...). Four,
# beside a CPU hog and other JVM tests, took 1,100 s where three had taken
# 1,126 s beside the hog alone (the cores were the limit), and terminal
# tests missed their moments.
workload_lanes=${GCTOP_WORKLOAD_LANES:-3}
extra_lanes=$(echo "third fourth fifth sixth" | cut -d' ' -f1-$((workload_lanes > 2 ? workload_lanes - 2 : 1)))
[ "$workload_lanes" -gt 2 ] || extra_lanes=""
if [ "${GCTOP_TEST_LANES:-4}" = 1 ]; then
	lanes=one
	run_lane one
else
	lanes="timed measuring other light"
	run_lane light &
	waits=$!
	# No lane of its own for tests that wait: one (ten scripts) took a
	# quiet make check from 15 min 16 s to 14 min 33 s, but beside a CPU
	# hog dotnet_gc then failed in two runs of two (its rates, pauses and
	# fragmentation, with a fourth workload beside it); a second one with
	# fifteen more scripts failed thirteen checks quiet.
	for lane in other $extra_lanes; do
		[ "$lane" = other ] || lanes="$lanes $lane"
		run_lane "$lane" &
		waits="$waits $!"
	done
	trap 'kill $waits 2>/dev/null; exit 130' INT TERM
	run_lane timed
	: >"$timed_done"
	run_lane measuring
	for p in $waits; do wait "$p"; done
fi
pass=0 fail=0 skip=0
for lane in $lanes; do
	read -r p f s <"$totals.$lane" || { p=0 f=1 s=0; echo "FAIL: tests/run.sh: the lane $lane left no totals"; }
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
if [ "$skip" -gt 0 ]; then
	echo "skipped by cause: $(for lane in $lanes; do cat "$totals.causes.$lane"; done 2>/dev/null |
		sort | uniq -c | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')"
fi
# Where the suite's time goes: the ten slowest tests, each lane's total
# and the suite's wall time.
echo "slowest tests:"
for lane in $lanes; do cat "$totals.timings.$lane"; done 2>/dev/null | sort -rn | head -n 10 |
	awk '{ printf "  %5ds  %4ds cpu  %s\n", $1, $2, $3 }'
for lane in $lanes; do
	awk -v lane="$lane" '{ s += $1; c += $2; n++ } END { printf "lane %s: %d tests, %ds, %ds cpu\n", lane, n, s, c }' "$totals.timings.$lane"
done
echo "suite: $(($(date +%s) - started_suite))s wall, $(for lane in $lanes; do cat "$totals.timings.$lane"; done 2>/dev/null |
	awk '{ c += $2 } END { printf "%d", c }')s cpu${GCTOP_SUITE:+ ($GCTOP_SUITE)}"
for lane in $lanes; do
	rm -f "$totals.$lane" "$totals.causes.$lane" "$totals.timings.$lane"
done
rm -rf "$claims" "$timed_done"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
