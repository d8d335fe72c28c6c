#!/bin/sh
# sanitizer: yes
# A .NET process cannot grow gctop's memory by declaring event kinds: a fake
# one (security_fake_dotnet.py metaflood, as an unprivileged user) declares
# 16,383 kinds of 100 fields with long names, some 38 MB of metadata. gctop
# keeps at most GT_NETTRACE_META_BUDGET (1 MiB) of metadata per stream and
# ends that session with one sentence; its high-water mark (VmHWM) may grow
# by that budget and one block of stream buffer per target, measured from
# the mark with the session running and the stream still silent. (Before:
# every kind kept room for 128 fields, 7.6 MB -> 138 MB for one target and
# 532 MB for --serve with four.)
. tests/lib.sh
. tests/integration/security_fake_dotnet.shlib
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
RUSAGE="$PWD/$GCTOP_BUILD/bench/rusage"
[ -x "$RUSAGE" ] || { fail "$RUSAGE is missing; run make test-bins"; exit 0; }
export RUSAGE

BUDGET_KB=1024 # GT_NETTRACE_META_BUDGET
# The bounds are the plain build's: ASan's redzones and quarantine (freed
# blocks held back) inflate every allocation (one session +1.9 MB, four
# +10.6 MB under make check-asan), so there only the rest is checked.
ASAN=""
grep -qa __asan_init "$GCTOP_BIN" && ASAN=1

# check_growth WHAT LIMIT_KB: the VmHWM growth BASE -> PEAK stays under LIMIT_KB.
check_growth() {
	grew=$((PEAK - BASE))
	if [ -n "$ASAN" ]; then
		skip sanitizer "$1: VmHWM grew by $grew KB under ASan, whose allocations the bound is not for"
		return
	fi
	check "$1: VmHWM grew by $grew KB (from $BASE KB to $PEAK KB), under $2 KB" [ "$grew" -lt "$2" ]
}
# Beside the budget, per target: the stream buffer (a 116 KB block in
# 64 KiB reads), the read buffer and malloc's rounding.
SLACK_KB=1024

# measure TARGETS gctop-args...: sets BASE, PEAK (KB) and STATUS.
measure() {
	targets=$1
	shift
	rm -f "$FAKE_DIR/go" "$FAKE_DIR/ready.log"
	ERR="$WORK/err" "$PY" tests/integration/security_meta_flood_run.py "$FAKE_DIR" "$targets" 120 \
		"$GCTOP_BIN" "$@" >"$WORK/measure" 2>&1
	BASE=$(sed -n 's/^base //p' "$WORK/measure")
	PEAK=$(sed -n 's/^peak //p' "$WORK/measure")
	STATUS=$(sed -n 's/^status //p' "$WORK/measure")
}

start_fake metaflood 0 || exit 0
measure 1 -p "$FAKE" --json
check "one session: the flood got under way ($(tr "\n" " " <"$WORK/measure") $(head -c 300 "$WORK/err"))" \
	[ "${BASE:--1}" -gt 0 -a "${PEAK:--1}" -gt 0 ]
check_growth "one session (budget $BUDGET_KB KB + $SLACK_KB KB)" $((BUDGET_KB + SLACK_KB))
check "one session: gctop ends with status 7 (got $STATUS)" [ "$STATUS" = 7 ]
check "one session: one sentence that names the limit ($(head -c 300 "$WORK/err"))" \
	sh -c "[ \$(grep -c . '$WORK/err') -eq 1 ] && grep -q 'process $FAKE is unreadable: .*1024 KiB of event metadata, the limit for one stream' '$WORK/err'"
stop_fake

# --serve with four such processes: each session ends alone, gctop stays up.
PIDS=""
FAKES=""
for i in 1 2 3 4; do
	start_fake metaflood 0 || exit 0
	PIDS="${PIDS:+$PIDS,}$FAKE"
	FAKES="$FAKES $FAKE"
	cp "$FAKE_DIR/ready" "$WORK/ready.$i"
done
measure 4 --serve 127.0.0.1:0 -p "$PIDS"
check "--serve: the floods got under way ($(tr "\n" " " <"$WORK/measure") $(head -c 300 "$WORK/err"))" \
	[ "${BASE:--1}" -gt 0 -a "${PEAK:--1}" -gt 0 ]
check_growth "--serve, 4 targets (4 x ($BUDGET_KB + $SLACK_KB) KB)" $((4 * (BUDGET_KB + SLACK_KB)))
check "--serve keeps running after the four sessions ended (status $STATUS)" [ "$STATUS" = running ]
for f in $FAKES; do kill "$f" 2>/dev/null; wait "$f" 2>/dev/null; done
for i in 1 2 3 4; do rm -f "$(cat "$WORK/ready.$i")"; done
FAKE=""
