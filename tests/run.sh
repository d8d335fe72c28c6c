#!/bin/sh
# Runs every test and prints one closing line: "N passed, N failed, N skipped".
#
# Each test (a unit binary under $GCTOP_BUILD/tests, a script under
# tests/integration or tests/tui) prints lines "PASS: name", "FAIL: name: why"
# or "SKIP: name: why". A test program that exits non-zero without printing a
# FAIL line counts as one failure, so a crash is never silent.
# GCTOP_TESTS=pattern runs only the tests whose path matches the pattern.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${GCTOP_BUILD:=build}"
export GCTOP_BUILD
GCTOP_BIN="$PWD/$GCTOP_BUILD/gctop"
export GCTOP_BIN
log_dir="$GCTOP_BUILD/test-logs"
mkdir -p "$log_dir"
pass=0 fail=0 skip=0

run_one() {
	name=$1
	shift
	log="$log_dir/$(echo "$name" | tr '/' '_').log"
	started=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - started))
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
	printf '%-48s %3d passed %3d failed %3d skipped %4ds\n' "$name" "$p" "$f" "$s" "$took"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

selected() {
	[ -z "${GCTOP_TESTS:-}" ] && return 0
	case "$1" in *$GCTOP_TESTS*) return 0 ;; esac
	return 1
}

for t in "$GCTOP_BUILD"/tests/test_* "$GCTOP_BUILD"/tests/replay_fuzz_*; do
	[ -x "$t" ] || continue
	selected "$t" || continue
	case "$t" in
	*/replay_fuzz_*) corpus="tests/fuzz/corpus/${t##*/replay_fuzz_}"; run_one "$t" "$t" "$corpus" ;;
	*) run_one "$t" "$t" ;;
	esac
done
for t in tests/static/*.sh tests/integration/*.sh tests/tui/*.sh; do
	[ -f "$t" ] || continue
	selected "$t" || continue
	run_one "$t" sh "$t"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
