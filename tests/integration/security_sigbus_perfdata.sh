#!/bin/sh
# sanitizer: yes
# A JVM's owner truncating its perf-data file while gctop reads it: gctop
# ends with status 7 and one sentence (--json, -b), says so on the
# full-screen view, or marks the row (the picker) and carries on; never
# SIGBUS (status 135). The JVM is a fake one
# (a program named java, as nobody) with a real perf-data file.
. tests/lib.sh
. tests/tui/tui_common.shlib
. tests/integration/security_fake_jvm.shlib
trap 'tm kill-server 2>/dev/null; fake_jvm_cleanup; cleanup' EXIT INT TERM

# truncate_under MODE_ARGS...: gctop reads the fake JVM for 1 s, then the
# file is cut to one page; gctop must end with 7 within 3 s.
truncate_under() {
	start_fake_jvm jdk17-G1.hsperfdata || exit 0
	"$GCTOP_BIN" -p "$FAKE_JVM" -d 0.2 "$@" >"$WORK/out" 2>"$WORK/err" &
	g=$!
	(sleep 15; kill -KILL "$g" 2>/dev/null) &
	watchdog=$!
	sleep 1
	truncate -s 4096 "$FAKE_JVM_FILE"
	wait "$g"
	rc=$?
	kill "$watchdog" 2>/dev/null
	if [ "$rc" -eq 7 ] && [ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q "shrank\|truncated" "$WORK/err"; then
		pass "$*: a truncated perf-data file ends gctop with status 7: $(cat "$WORK/err")"
	else
		fail "$*: exit $rc (wanted 7, not 135 = SIGBUS), stderr: $(head -c 300 "$WORK/err")"
	fi
	check "$*: samples were printed before the truncation" [ -s "$WORK/out" ]
	stop_fake_jvm
}

truncate_under --json
truncate_under -b

# Full screen: the dashboard keeps its last figures and says why, as for a
# target that exited; q then ends it.
require_tmux
start_fake_jvm jdk17-G1.hsperfdata || exit 0
start_gctop -p "$FAKE_JVM" -d 0.2
if wait_screen "PID $FAKE_JVM" 10; then
	truncate -s 4096 "$FAKE_JVM_FILE"
	check "the full-screen view says the file was cut short" wait_screen "shrank|cut it short" 5
	check "the full-screen view survives a truncated perf-data file" [ ! -e "$WORK/status" ]
	tm send-keys q
	st=$(wait_exit 3)
	check "q then ends the full-screen view with status 0 (status ${st:-none})" [ "${st:-}" = 0 ]
else
	fail "the dashboard did not come up: $(screen | head -3)"
fi
stop_fake_jvm

# The picker: the row is marked unreadable; the picker goes on and q ends it.
new_server
rm -f "$WORK/status"
start_fake_jvm jdk17-G1.hsperfdata || exit 0
start_gctop
if wait_screen "^ *$FAKE_JVM " 15; then
	# The picker opens a process once it is 3 s old (tui/picker.c), and
	# from then on samples it through the mapping.
	sleep 4.5
	truncate -s 4096 "$FAKE_JVM_FILE"
	sleep 2
	check "the picker survives a truncated perf-data file" [ ! -e "$WORK/status" ]
	tm send-keys q
	st=$(wait_exit 3)
	check "q then ends the picker with status 0 (status ${st:-none})" [ "${st:-}" = 0 ]
else
	fail "the picker does not list the fake JVM: $(screen | head -5)"
fi
