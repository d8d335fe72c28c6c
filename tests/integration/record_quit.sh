#!/bin/sh
# test-lane: timed
# sanitizer: yes
# (Its bounds, a second or less of wall time measured from outside gctop,
# have no clock of gctop's own to come from: in the timed lane no other
# test's workload shares the two cores with them.)
# Quit while a recording is read: -r (-b, --json) and --compare end within
# 1 s of SIGINT, SIGTERM or SIGHUP, with status 0, whatever the input does:
# a pipe fed empty lines, info lines or samples without end, a pipe whose
# writer never writes. (Before: -r of a pipe of `yes ''` never ended,
# one that stayed silent ended with status 1, --compare died by the signal.)
. tests/lib.sh
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
command -v python3 >/dev/null 2>&1 || missing_runtime "python3"
SYNTH=tests/integration/record_synth.py

# feed FIFO WRITER...: a new FIFO with WRITER writing into it (in the background).
feed() {
	fifo=$1
	shift
	rm -f "$fifo"
	mkfifo "$fifo"
	"$@" >"$fifo" 2>/dev/null &
	CHILD_PIDS="$CHILD_PIDS $!"
}

# The endless --json would fill the disk: signal_after's output goes nowhere.
SIGNAL_OUT=/dev/null

# expect_quit WHAT: gctop was still reading when signalled and ended within 1 s with status 0.
expect_quit() {
	check "$1: ends within 1 s with status 0 (still reading when signalled: $ALIVE; took $MS ms, status $RC; $(head -c 200 "$WORK/err"))" \
		[ "$ALIVE" -eq 1 -a "$MS" -lt 1000 -a "$RC" -eq 0 ]
}

for sig in INT TERM HUP; do
	feed "$WORK/blank" python3 "$SYNTH" 0 --blank
	signal_after "$sig" 1 -r "$WORK/blank" -b
	expect_quit "SIG$sig, -r -b of a pipe fed empty lines without end"
done

feed "$WORK/endless" python3 "$SYNTH" 0
signal_after TERM 1 -r "$WORK/endless" --json
expect_quit "SIGTERM, -r --json of a pipe fed samples without end"

feed "$WORK/info" python3 "$SYNTH" 0 --info
signal_after INT 1 -r "$WORK/info" --json
expect_quit "SIGINT, -r --json of a pipe fed info lines (no sample) without end"

# A writer that opens the pipe and never writes: the read waits, and the
# signal must end the wait however close before it lands.
feed "$WORK/silent" sleep 30
signal_after INT 1 -r "$WORK/silent" -b
expect_quit "SIGINT, -r -b of a pipe that stays silent"

feed "$WORK/blank" python3 "$SYNTH" 0 --blank
python3 "$SYNTH" 3 >"$WORK/three.ndjson"
signal_after INT 1 --compare "$WORK/three.ndjson" "$WORK/blank"
expect_quit "SIGINT, --compare of a file and a pipe fed empty lines without end"

# The reading itself is unchanged: a pipe that ends is read to its end.
python3 "$SYNTH" 5 | "$GCTOP_BIN" -r /dev/stdin --json >"$WORK/five.json" 2>"$WORK/err"
rc=$?
check "-r of a pipe that ends prints its 4 intervals, status 0 ($rc: $(head -c 200 "$WORK/err"))" \
	[ "$rc" -eq 0 -a "$(grep -c '"alloc"' "$WORK/five.json")" -eq 4 ]
