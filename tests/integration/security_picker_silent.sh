#!/bin/sh
# test-lane: timed
# sanitizer: yes
# (Its bounds, a second or less of wall time measured from outside gctop,
# have no clock of gctop's own to come from: in the timed lane no other
# test's workload shares the two cores with them.)
# The picker answers keys while it lists and opens processes: 4 fake .NET
# processes, run as a user made for the test, accept every diagnostics
# connection and never answer, so each listing waits out 4 ProcessInfo
# deadlines (1.2 s, longer than the picker's 1 s refresh), and a fifth
# answers ProcessInfo (so it is listed) but not CollectTracing, so its open
# waits out its 2 s deadline, from the round after the first listing. Both
# run on the fleet's worker: the picker shows the real JVM meanwhile, and q
# (1.5 s after the JVM shows, within that open) ends gctop within 100 ms of
# the time it takes without the fakes. (Before: the listing ran on the
# screen's loop, each refresh found the next one already due, and q went
# unanswered for good; with the listing alone on a worker, the open still
# held q for up to 2 s.)
#
# The key's time is measured from just before tmux send-keys to the moment
# the shell in the pane runs after gctop exits, beside the silent sockets
# and, before they start, without them (the baseline, the median of three:
# tmux, the pty, the shell and gctop's own exit, which under
# LeakSanitizer's exit-time scan is some 200 ms); beside them gctop may
# take 100 ms more than the baseline.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
. tests/integration/security_common.shlib
require_root
. tests/integration/security_fake_dotnet.shlib
trap 'tm kill-server 2>/dev/null; fake_cleanup; sec_cleanup' EXIT INT TERM
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }

make_test_user
FAKE_AS="setpriv --reuid=$SEC_UID --regid=$SEC_GID --clear-groups"
N_SILENT=4
# The bound beyond the baseline (the issue's goal: keys answered within 100 ms).
KEY_MS=100

java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID"
wait_for_hsperf "$JPID" 20 || { fail "the JVM published no perf data"; exit 0; }

# run_in_pane DONEFILE COMMAND: COMMAND in a fresh 100x30 pane; when it
# exits, the pane's shell writes "STATUS NANOSECONDS" to DONEFILE.
run_in_pane() {
	new_server
	rm -f "$1"
	tm new-session -d -x 100 -y 30 "$2; echo \"\$? \$(date +%s%N)\" > $1.tmp; mv $1.tmp $1; sleep 60"
}

# key_ms DONEFILE KEY: sends KEY and prints the ms from just before the send
# to the time in DONEFILE (empty when none came within 5 s).
key_ms() {
	t0=$(date +%s%N)
	tm send-keys "$2"
	wait_for_file "$1" 5 || return 0
	echo $((($(cut -d' ' -f2 "$1") - t0) / 1000000))
}

# picker_q WHAT: starts the picker, which must show the JVM within 10 s,
# and 1.5 s later sends q; sets MS (empty when gctop did not exit within 5 s).
picker_q() {
	run_in_pane "$WORK/status" "$GCTOP_BIN"
	t0=$(now_ms)
	if ! wait_screen "SleepyHeap" 10; then
		fail "the picker did not show the JVM within 10 s $1: $(screen | head -5)"
		exit 0
	fi
	SHOWN_MS=$(($(now_ms) - t0))
	# Beside the fakes the worker is busy now: the first listing took
	# 1.2 s, and the held open, asked for at the next round, takes 2 s.
	sleep 1.5
	MS=$(key_ms "$WORK/status" q)
}

base=""
for k in 1 2 3; do
	picker_q "without silent sockets"
	[ -n "$MS" ] || { fail "q did not end the picker within 5 s without silent sockets"; exit 0; }
	base="$base $MS"
done
base=$(echo $base | tr ' ' '\n' | sort -n | sed -n 2p)

start_fakes "$N_SILENT" silent 0 || exit 0
start_fake hold 0 || exit 0
# The picker opens a process once it is 3 s old: the held open then comes
# at the round after the first listing.
sleep 3
picker_q "beside $N_SILENT silent sockets"
pass "the picker shows the JVM within $SHOWN_MS ms beside $N_SILENT silent sockets"
ms=$MS
if [ -z "$ms" ]; then
	fail "q did not end the picker within 5 s beside $N_SILENT silent sockets"
else
	check "q ends the picker in $ms ms, within ${KEY_MS} ms of the baseline's $base ms, beside $N_SILENT silent sockets and one open held" \
		[ "$ms" -le $((base + KEY_MS)) ]
	check "gctop's status after q is 0 (was $(cut -d' ' -f1 "$WORK/status"))" [ "$(cut -d' ' -f1 "$WORK/status")" = 0 ]
fi
