#!/bin/sh
# test-lane: timed
# sanitizer: yes
# (Its bounds, a second or less of wall time measured from outside gctop,
# have no clock of gctop's own to come from: in the timed lane no other
# test's workload shares the two cores with them.)
# The full-screen replay answers while it reads: on a recording of 420,000
# samples (crafted: 10 MiB/s throughout), b 400000 Enter starts a jump that
# reads for seconds, and meanwhile h is answered, q ends gctop within 1 s,
# and so does SIGTERM or SIGHUP (status 19: the terminal went away); a jump that is let run arrives at its
# sample with the recorded figures. A pipe is refused (status 2): the view
# steps back by reading the file again. (Before: b 400000 Enter on 419,720
# samples ignored q, SIGINT, SIGTERM and SIGHUP for 5-11 s.)
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
command -v python3 >/dev/null 2>&1 || missing_runtime "python3"
python3 tests/integration/record_synth.py 420000 >"$WORK/big.ndjson" ||
	{ fail "cannot write the crafted recording"; exit 0; }

# gctop_pid: the pid of the gctop the pane runs.
gctop_pid() { pgrep -P "$(tm list-panes -F '#{pane_pid}')" -x gctop; }

# jump: a fresh gctop on the big recording, b 400000 Enter, and a fifth of
# a second of reading (the whole jump takes 2 s on an idle core here, 5-11 s
# under load); 1 when the replay did not start.
jump() {
	new_server
	rm -f "$WORK/status"
	start_gctop -r "$WORK/big.ndjson"
	wait_screen "replay: sample 2" 10 || { fail "the replay did not start: $(screen | tail -2)"; return 1; }
	tm send-keys b 4 0 0 0 0 0 Enter
	sleep 0.2
}

# not_reading: the footer shows no jump under way.
not_reading() { ! screen | grep -q "reading to sample"; }

# ends_within_1s WHAT [STATUS]: gctop has ended within 1 s of t0, with STATUS (0).
ends_within_1s() {
	wait_for_file "$WORK/status" 10
	ms=$(($(now_ms) - t0))
	st=$(sed 's/gctop-exit=//' "$WORK/status" 2>/dev/null)
	check "$1: gctop ends within 1 s ($ms ms), status ${2:-0} ($st)" [ "$ms" -lt 1000 -a "$st" = "${2:-0}" ]
}

if jump; then
	check "the footer says where the jump is going" wait_screen "reading to sample 400000, at [0-9]+" 1
	tm send-keys h
	t0=$(now_ms)
	wait_screen "q/Esc/h close help" 5
	ms=$(($(now_ms) - t0))
	check "h during the jump shows the help within 1 s ($ms ms)" [ "$ms" -lt 1000 ]
	tm send-keys q
	check "q closes the help" wait_gone "q/Esc/h close help" 2
	t0=$(now_ms)
	tm send-keys q
	ends_within_1s "q during the jump"
fi
if jump; then
	t0=$(now_ms)
	tm send-keys r
	wait_screen "replay: sample 2," 5
	ms=$(($(now_ms) - t0))
	check "r during the jump goes back to the first interval within 1 s instead ($ms ms)" [ "$ms" -lt 1000 ]
	sleep 0.3
	check "and reads no further (the footer says sample 2, not a jump)" not_reading
fi
for sig in TERM HUP INT; do
	jump || continue
	t0=$(now_ms)
	kill -"$sig" "$(gctop_pid)"
	expect=0
	[ "$sig" = HUP ] && expect=19
	ends_within_1s "SIG$sig during the jump" "$expect"
done

# A jump let run arrives, with the figures of the sample it went to.
new_server
rm -f "$WORK/status"
start_gctop -r "$WORK/big.ndjson"
wait_screen "replay: sample 2" 10
tm send-keys b 3 0 0 0 0 Enter
check "b 30000: the jump arrives at sample 30000" wait_screen "replay: sample 30000," 60
check "b 30000: the interval shows the recorded 10 MiB/s" wait_screen "rate 10.0 MiB/s" 2
tm send-keys T
check "T from there reads again from the start and shows sample 29999" wait_screen "replay: sample 29999," 60
tm send-keys q
check "q ends it, status 0" [ "$(wait_exit 5)" = 0 ]
rm -f "$WORK/big.ndjson"

# A pipe: refused with a sentence and status 2.
new_server
rm -f "$WORK/status"
mkfifo "$WORK/pipe"
start_gctop -r "$WORK/pipe"
status=$(wait_exit 5)
check "-r of a pipe in the full-screen view: status 2 ($status)" [ "$status" = 2 ]
check "and says why" wait_screen "not a regular file" 2
