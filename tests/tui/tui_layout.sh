#!/bin/sh
# Panes sized by what they hold, at 140x45 on a .NET target with 26
# allocation sites of six types (tests/dotnet/ManySites): the top-allocators
# pane (36 rows with its title, method line and headings) is longer than the
# room the plain flow left it under the memory pane (34 rows with its title
# at most: it was cut, while a graph stretched in another column). Now it
# gets a column of its own from the top of the body and shows every site,
# and the memory pane moves beside the pauses graph.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_dotnet
exe=$(dotnet_program ManySites) || { fail "cannot build tests/dotnet/ManySites (log: $WORK/dotnet-build-ManySites.log)"; exit 0; }

"$exe" 40 60 >"$WORK/sites.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID" || { fail "the .NET workload opened no diagnostics socket"; exit 0; }
tm new-session -d -x 140 -y 45 "$GCTOP_BIN -p $DPID --allocators; $(status_to gctop-exit "$WORK/status"); sleep 60"
if ! wait_screen "LIVE +PID $DPID" 15; then
	fail "the dashboard did not come up: $(screen | head -3)"
	exit 0
fi

# every_site: all 26 sites by frame and the six array types are listed.
every_site() {
	screen >"$WORK/screen"
	[ "$(grep -Eo 'Sites\.S[0-9]{2} ' "$WORK/screen" | sort -u | wc -l)" -eq 26 ] &&
		[ "$(grep -Eo 'System\.(Byte|Int32|Int64|Char|Double|Object)\[\]' "$WORK/screen" | sort -u | wc -l)" -eq 6 ]
}
check "the pane lists all 26 sites by frame and the 6 types" wait_until 200 every_site
screen >"$WORK/screen"

# column TITLE: the screen column (in characters) a pane's title starts at,
# -1 when it is not shown; row TITLE: its screen row.
column() {
	python3 -c 'import sys
for line in open(sys.argv[1], encoding="utf-8"):
    if sys.argv[2] in line:
        print(line.index(sys.argv[2])); break
else:
    print(-1)' "$WORK/screen" "$1"
}
row() {
	awk -v t="$1" 'index($0, t) { print NR; exit }' "$WORK/screen"
}
check "the list is shown whole (no scroll position in its title)" \
	sh -c "! grep -Eq 'Top allocators +[0-9]+-[0-9]+ of [0-9]+ lines' '$WORK/screen'"
check "the list starts at the top of the body, beside the allocation pane" \
	test "$(row '7 Top allocators')" = "$(row '2 Allocation')"
check "the list has its column to itself (the memory pane is elsewhere)" \
	test "$(column '6 Memory')" -lt "$(column '7 Top allocators')"
check "the memory pane shares the pauses pane's column" test "$(column '6 Memory')" = "$(column '4 Pauses')"
# The rows of the list's column that hold it: 26 + 6 sites, 2 headings and
# the method line, more than the 33 it had at most under the memory pane.
rows=$(python3 -c 'import sys
c = int(sys.argv[2]) - 2   # the pane starts two columns before its title
print(sum(1 for line in open(sys.argv[1], encoding="utf-8") if line[c:].strip() and
          any(k in line[c:] for k in ("Sites.S", "System.", "frame", "by type", "samples in"))))' \
	"$WORK/screen" "$(column '7 Top allocators')")
check "the list takes $rows rows, more than the 33 it had at most under the memory pane" test "$rows" -gt 33

tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
