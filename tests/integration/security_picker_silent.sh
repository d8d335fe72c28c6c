#!/bin/sh
# The picker answers keys while it lists processes: 4 fake .NET processes,
# run as a user made for the test, accept every diagnostics connection and
# never answer, so each listing waits out 4 ProcessInfo deadlines (1.2 s,
# longer than the picker's 1 s refresh). The listing runs on a worker: the
# picker shows the real JVM meanwhile, and q ends gctop about as fast as
# tmux delivers a key to a program that only waits for one. (Before: the
# listing ran on the screen's loop, each refresh found the next one already
# due, and q went unanswered for good.)
#
# The key's time is measured from just before tmux send-keys to the moment
# the shell in the pane runs after the program exits, for gctop and for a
# program that exits on its first key (the baseline: tmux, the pty and the
# shell, the median of three); gctop may take 100 ms more than that.
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
i=0
while [ "$i" -lt "$N_SILENT" ]; do
	start_fake silent 0 || exit 0
	i=$((i + 1))
done

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

# The baseline: a program that exits on its first key.
base=""
for k in 1 2 3; do
	rm -f "$WORK/raw"
	run_in_pane "$WORK/base" "$PY -c 'import sys, tty; tty.setraw(0); open(\"$WORK/raw\", \"w\").close(); sys.stdin.read(1)'"
	wait_for_file "$WORK/raw" 10 || { fail "the baseline program did not start"; exit 0; }
	rm -f "$WORK/raw"
	ms=$(key_ms "$WORK/base" x)
	[ -n "$ms" ] || { fail "the baseline program did not exit on a key"; exit 0; }
	base="$base $ms"
done
base=$(echo $base | tr ' ' '\n' | sort -n | sed -n 2p)

run_in_pane "$WORK/status" "$GCTOP_BIN"
t0=$(now_ms)
if wait_screen "SleepyHeap" 10; then
	pass "the picker shows the JVM within $(($(now_ms) - t0)) ms beside $N_SILENT silent sockets"
else
	fail "the picker did not show the JVM within 10 s: $(screen | head -5)"
fi
# A listing is under way now (each takes 1.2 s, and one starts every second).
sleep 1.5
ms=$(key_ms "$WORK/status" q)
if [ -z "$ms" ]; then
	fail "q did not end the picker within 5 s beside $N_SILENT silent sockets"
else
	check "q ends the picker in $ms ms, within ${KEY_MS} ms of the baseline's $base ms, beside $N_SILENT silent sockets" \
		[ "$ms" -le $((base + KEY_MS)) ]
	check "gctop's status after q is 0 (was $(cut -d' ' -f1 "$WORK/status"))" [ "$(cut -d' ' -f1 "$WORK/status")" = 0 ]
fi
