#!/bin/sh
# A watcher never holds its target: a .NET service opened from the picker
# (once left as it is, once with the dashboard frozen) ends on its own
# schedule. The picker's rows hold EventPipe sessions; while a dashboard
# shows, nobody reads them, so they must be closed, or the runtime blocks
# writing to a full socket and the process cannot exit.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_dotnet
exe=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }

# How long the service allocates, and the slack it gets to end: it ends by
# itself after RUN_S, so it is alive at least that long; an unread session
# holds it far longer (37 s for a 20 s service in the report).
RUN_S=14
SLACK_S=6

# start_service: a GcAlloc with a tiny gen0 budget, hundreds of collections a
# second, so its GC events fill an unread socket within a second or two.
start_service() {
	DOTNET_GCgen0size=0x100000 "$exe" 150 "$RUN_S" >"$WORK/svc.log" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	DSTART=$(date +%s)
}

# ends_on_schedule: the service is gone within RUN_S + SLACK_S of its start.
ends_on_schedule() {
	while kill -0 "$DPID" 2>/dev/null; do
		[ $(($(date +%s) - DSTART)) -gt $((RUN_S + SLACK_S)) ] && return 1
		sleep 0.2
	done
	wait "$DPID" 2>/dev/null
	return 0
}

# open_from_picker: selects the service's row (PID order) and opens it,
# once its row has live figures, i.e. the picker's session is streaming.
open_from_picker() {
	wait_screen "^ *$DPID .* [0-9.]+ [KMG]iB/s" 20 || return 1
	# s cycles the sort keys; the PID order does not move between refreshes
	n=0
	until screen | grep -q "sorted by PID"; do
		[ "$n" -ge 5 ] && return 1
		tm send-keys s
		sleep 0.3
		n=$((n + 1))
	done
	row=$(screen | awk -v pid="$DPID" 'NR > 2 && $1 == pid { print NR - 3; exit }')
	tm send-keys Home
	i=0
	while [ "$i" -lt "${row:-0}" ]; do tm send-keys Down; i=$((i + 1)); done
	# the picker's session keeps streaming a while before Enter
	sleep 2
	tm send-keys Enter
	wait_screen "PID $DPID " 10
}

start_gctop
start_service
if open_from_picker; then
	pass "the service opened from the picker"
	check "a service opened from the picker ends on its own schedule (${RUN_S}s + ${SLACK_S}s)" ends_on_schedule
else
	fail "could not open the service from the picker: $(screen | head -5)"
fi
tm send-keys q
check "q goes back to the picker" wait_screen "pick a process" 5

start_service
if open_from_picker; then
	tm send-keys p
	check "p freezes the display" wait_screen "^ FROZEN " 5
	check "a service watched with a frozen display ends on its own schedule" ends_on_schedule
else
	fail "could not open the second service from the picker: $(screen | head -5)"
fi
tm send-keys q q
status=$(wait_exit 5)
check "q in the picker exits with status 0 (got '$status')" test "$status" = 0
