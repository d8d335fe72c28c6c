#!/bin/sh
# sanitizer: yes
# Strings from a target reach no terminal raw: a fake JVM (a program named
# java, as nobody) whose perf data names a main class and flags full of
# escape sequences (OSC title set, clear screen, an unterminated OSC, raw
# and UTF-8 C1 CSI, invalid UTF-8). -b, -l, --json and -l --json carry no
# control byte and only valid UTF-8; in tmux neither -b nor the picker sets
# the pane's title. A second, well-named fake JVM's row is still listed.
. tests/lib.sh
. tests/tui/tui_common.shlib
. tests/integration/security_fake_jvm.shlib
trap 'tm kill-server 2>/dev/null; stop_fake_jvm; [ -n "${PLAIN:-}" ] && kill "$PLAIN" 2>/dev/null; rm -f "${PLAIN_FILE:-}"; fake_jvm_cleanup; cleanup' EXIT INT TERM
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# The unterminated OSC comes last, as in the attack on -l that swallowed
# the next row and the next command's output.
EVIL='\x1b]0;PWNED\x07\x1b[2J\x1b[HEvil\x9b31m\xc2\x9b1m\xff\xc0\xaf\xed\xa0\x80Main\x1b]2;SWALLOW arg1'
start_fake_jvm jdk17-G1.hsperfdata "$EVIL" '-Xmx64m\x1b]0;FLAGS\x07 -Xms8m' || exit 0
EVIL_PID=$FAKE_JVM
# A well-behaved second fake JVM, listed after the hostile one or before it.
FAKE_JVM=""
start_fake_jvm jdk17-Serial.hsperfdata 'PlainMain arg' || exit 0
PLAIN=$FAKE_JVM PLAIN_FILE=$FAKE_JVM_FILE
FAKE_JVM=$EVIL_PID FAKE_JVM_FILE=$JVM_PERF_DIR/$EVIL_PID

# run_clean LABEL gctop-args...: gctop succeeds and its output is clean.
run_clean() {
	label=$1
	shift
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$label: exit $rc: $(head -c 300 "$WORK/err")"
	elif why=$(clean "$WORK/out" 2>&1); then
		pass "$label: no control characters, valid UTF-8"
	else
		fail "$label: $why"
	fi
}

run_clean "-b" -b -p "$EVIL_PID" -n 1
check "-b still names the main class" grep -q "Evil.*Main" "$WORK/out"
run_clean "--json" --json -p "$EVIL_PID" -n 1
run_clean "-l" -l
check "-l lists the hostile JVM" grep -q "^ *$EVIL_PID .*Evil" "$WORK/out"
check "-l still lists the other JVM" grep -q "^ *$PLAIN .*PlainMain" "$WORK/out"
run_clean "-l --json" -l --json
# Without a UTF-8 locale the text is plain ASCII: a terminal in another
# character set may take any byte from 0x80 to 0x9f for a control.
LC_ALL=C "$GCTOP_BIN" -l >"$WORK/out" 2>"$WORK/err"
check "-l in the C locale prints ASCII only" sh -c "! LC_ALL=C grep -q '[^ -~]' '$WORK/out'"

# In a terminal: tmux takes OSC 0/2 as the pane's title.
require_tmux
# A pane tall enough for both: on a host with many JVMs (another test's,
# another gctop's) -l's list scrolled -b's header out of 30 rows
tm new-session -d -x 150 -y 200 "$GCTOP_BIN -b -p $EVIL_PID -n 1; $GCTOP_BIN -l; $(status_to done "$WORK/status"); sleep 60"
check "-l and -b ran in the pane" wait_for_file "$WORK/status" 30
title=$(tm display -p '#{pane_title}')
check "-b and -l leave the terminal's title alone (title: $title)" sh -c "! echo '$title' | grep -Eq 'PWNED|FLAGS|SWALLOW'"
check "the screen was not cleared: -b's header is still there" sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | grep -q '^gctop - '"
check "-l's row of the other JVM is on the screen" sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | grep -q 'PlainMain'"

new_server
rm -f "$WORK/status"
start_gctop
if wait_screen "^ *$EVIL_PID " 15; then
	title=$(tm display -p '#{pane_title}')
	check "the picker leaves the title alone (title: $title)" sh -c "! echo '$title' | grep -Eq 'PWNED|FLAGS|SWALLOW'"
	check "the picker shows the other JVM's row" wait_screen "^ *$PLAIN " 5
else
	fail "the picker does not list the hostile JVM: $(screen | head -5)"
fi
tm send-keys q
