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
# Two lanes run side by side: the scripts that hold gctop's figures to a
# runtime's own, and those that time gctop's answers against bounds of a
# second or less in wall time (marked "# test-lane: measuring" in their
# first lines), one after the other, so that no two measuring workloads
# share the 2 cores of the machine CI runs on; and every other test beside
# them. The tests must
# pass on a busy machine anyway; what the lanes keep apart is two workloads
# that each load the cores. GCTOP_TEST_LANES=1 runs everything in one lane.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${GCTOP_BUILD:=build}"
export GCTOP_BUILD
GCTOP_BIN="$PWD/$GCTOP_BUILD/gctop"
export GCTOP_BIN
log_dir="$GCTOP_BUILD/test-logs"
mkdir -p "$log_dir"
pass=0 fail=0 skip=0
# The longest test takes a few minutes on 2 busy cores.
test_deadline=${GCTOP_TEST_DEADLINE:-900}

run_one() {
	name=$1
	shift
	log="$log_dir/$(echo "$name" | tr '/' '_').log"
	started=$(date +%s)
	# A deadline, so that a test that hangs (a gctop that never exits)
	# fails with a reason instead of holding the suite: timeout signals the
	# test's whole process group, its workloads too.
	timeout -k 10 "$test_deadline" "$@" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - started))
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
	printf '%-48s %3d passed %3d failed %3d skipped %4ds\n' "$name" "$p" "$f" "$s" "$took"
	echo "$took $name" >>"$timings"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

selected() {
	[ -z "${GCTOP_TESTS:-}" ] && return 0
	case "$1" in *$GCTOP_TESTS*) return 0 ;; esac
	return 1
}

measuring() {
	[ "${GCTOP_TEST_LANES:-2}" != 1 ] && head -n 30 "$1" | grep -q '^# test-lane: measuring'
}

# run_lane measuring|other: the lane's tests; its totals go to $totals.LANE.
run_lane() {
	pass=0 fail=0 skip=0
	causes="$totals.causes.$1"
	: >"$causes"
	timings="$totals.timings.$1"
	: >"$timings"
	if [ "$1" = other ]; then
		for t in "$GCTOP_BUILD"/tests/test_* "$GCTOP_BUILD"/tests/replay_fuzz_*; do
			[ -x "$t" ] || continue
			selected "$t" || continue
			case "$t" in
			*/replay_fuzz_*) corpus="tests/fuzz/corpus/${t##*/replay_fuzz_}"; run_one "$t" "$t" "$corpus" ;;
			*) run_one "$t" "$t" ;;
			esac
		done
	fi
	for t in tests/static/*.sh tests/integration/*.sh tests/tui/*.sh; do
		[ -f "$t" ] || continue
		selected "$t" || continue
		if measuring "$t"; then lane=measuring; else lane=other; fi
		[ "$lane" = "$1" ] && run_one "$t" sh "$t"
	done
	echo "$pass $fail $skip" >"$totals.$1"
}

totals="$log_dir/totals.$$"
run_lane other &
other=$!
trap 'kill $other 2>/dev/null; exit 130' INT TERM
run_lane measuring
wait "$other"
read -r p1 f1 s1 <"$totals.measuring"
read -r p2 f2 s2 <"$totals.other" || { p2=0 f2=1 s2=0; echo "FAIL: tests/run.sh: the second lane left no totals"; }
pass=$((p1 + p2)) fail=$((f1 + f2)) skip=$((s1 + s2))
if [ "$skip" -gt 0 ]; then
	echo "skipped by cause: $(cat "$totals.causes.measuring" "$totals.causes.other" 2>/dev/null |
		sort | uniq -c | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')"
fi
# Where the suite's time goes: the ten slowest tests, each lane's wall time.
echo "slowest tests:"
sort -rn "$totals.timings.measuring" "$totals.timings.other" 2>/dev/null | head -n 10 |
	awk '{ printf "  %5ds  %s\n", $1, $2 }'
rm -f "$totals.measuring" "$totals.other" "$totals.causes.measuring" "$totals.causes.other" \
	"$totals.timings.measuring" "$totals.timings.other"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
