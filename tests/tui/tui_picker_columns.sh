#!/bin/sh
# The picker says which runtime each row is, at 200 and at 80 columns: a
# JVM and a .NET service, their releases as the runtimes report them, the
# collectors named whole where there is room and never cut mid-word where
# there is not; / finds them by the words users type (java, jvm, dotnet,
# .net); the interval stays on screen after the footer's message fades.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
require_dotnet
start_workload
start_dotnet GcAlloc 1 20 60

# The runtimes' own word on their releases.
jvm_version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.vm\.version = \([0-9.]*\).*/\1/p')
net_version=$(dotnet --list-runtimes | sed -n 's/^Microsoft\.NETCore\.App \(10\.[0-9.]*\) .*/\1/p' | sort -V | tail -1)
[ -n "$jvm_version" ] && [ -n "$net_version" ] ||
	{ fail "cannot read the runtimes' releases (java '$jvm_version', .NET '$net_version')"; exit 0; }
jvm_re=$(printf '%s' "$jvm_version" | sed 's/\./\\./g')
net_re=$(printf '%s' "$net_version" | sed 's/\./\\./g')

# picker COLS ROWS: gctop's picker at that size, every second.
picker() {
	new_server
	rm -f "$WORK/status"
	tm new-session -d -x "$1" -y "$2" "$GCTOP_BIN -d 1; $(status_to gctop-exit "$WORK/status"); sleep 120"
}

# filter TEXT: sets the picker's filter (Esc first clears an open one).
filter() {
	tm send-keys / && tm send-keys -l "$1" && tm send-keys Enter
	wait_screen "found match \"$1\"" 5
}

row() { screen | grep -E "^ *$1 "; }
lacks() { ! screen | grep -q -- "$1"; }

picker 200 60
check "the picker lists both runtimes at 200 columns" wait_screen "^ *$DPID " 20
wait_screen "^ *$JPID " 10
check "the head names RUNTIME at 200 columns" wait_screen "PID +USER +RUNTIME +ALLOC/s" 5
check "the JVM row says JVM $jvm_version (got '$(row "$JPID")')" \
	wait_screen "^ *$JPID +[^ ]+ +JVM $jvm_re .* G1 .*TuiWorkload" 5
check "the .NET row says .NET $net_version and Workstation whole (got '$(row "$DPID")')" \
	wait_screen "^ *$DPID +[^ ]+ +\\.NET $net_re .* Workstation .*GcAlloc" 5
check "the interval is on the title line" wait_screen "^gctop: pick a process.* every 1s *$" 5

filter java
check "/java keeps the JVM" wait_screen "^ *$JPID .*TuiWorkload" 5
check "/java drops the .NET service" wait_gone "^ *$DPID " 5
tm send-keys / Escape
filter jvm
check "/jvm keeps the JVM" wait_screen "^ *$JPID .*TuiWorkload" 5
check "/jvm drops the .NET service" wait_gone "^ *$DPID " 5
tm send-keys / Escape
filter dotnet
check "/dotnet keeps the .NET service" wait_screen "^ *$DPID .*GcAlloc" 5
check "/dotnet drops the JVM" wait_gone "^ *$JPID " 5
tm send-keys / Escape
filter .net
check "/.net keeps the .NET service" wait_screen "^ *$DPID .*GcAlloc" 5
check "/.net drops the JVM" wait_gone "^ *$JPID " 5
tm send-keys q
wait_exit 5 >/dev/null

# 80 columns: the filter by PID keeps each row on a screen of 22 rows
# however many other processes this machine runs.
picker 80 24
check "the head names RT at 80 columns" wait_screen "PID +USER +RT +ALLOC/s" 20
filter "$JPID"
check "the JVM row says JVM and G1 at 80 columns (got '$(row "$JPID")')" \
	wait_screen "^ *$JPID +[^ ]+ +JVM .* G1 +TuiWorkload" 10
tm send-keys / Escape
filter "$DPID"
check "the .NET row says .NET and Wkstn at 80 columns (got '$(row "$DPID")')" \
	wait_screen "^ *$DPID +[^ ]+ +\\.NET .* Wkstn +.*GcAlloc" 10
check "no collector is cut mid-word" lacks Workstatio
check "the interval is on the title line at 80 columns" wait_screen "^gctop: pick a process.* every 1s *$" 5
tm send-keys +
check "+ says the new interval on the footer" wait_screen "^interval 2s" 5
check "the footer's message fades" wait_gone "^interval 2s" 10
check "the title still shows the interval after it fades" wait_screen "^gctop: pick a process.* every 2s *$" 2
tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
