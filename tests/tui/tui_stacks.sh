#!/bin/sh
# The stacks behind an allocation site on the screen: on a .NET workload
# that serializes a large string with System.Text.Json, Tab to the
# top-allocators pane marks its top site; Enter opens the overlay with that
# site's top stacks (System.Text.Json frames among them, shares shown); Esc
# closes it and the dashboard is back.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
start_dotnet JsonText 1 100 40

start_gctop -p "$DPID" --allocators
if ! wait_screen "Serialize +[0-9.]+ [KMG]iB/s" 15; then
	fail "the top-allocators pane did not list the site: $(screen | tail -12)"
	exit 0
fi
# The focused pane marks its selected site with > in its first column.
site_marked() { screen | grep -Eq '>(\.\.|Program\.)[^ ]*Serialize '; }
tab_until site_marked
check "Tab to the top-allocators pane marks its top site" site_marked
tm send-keys Enter
check "Enter opens the stacks overlay" wait_screen "gctop stacks behind a site" 5
check "the overlay names the site in source form" wait_screen "^ Program\.<Main>\\\$\.Serialize +\([0-9.]+% of sampled bytes" 2
check "the top stack has a share and a sample count" wait_screen "^ +[0-9.]+%  stack 1 of [0-9]+, [0-9]+ samples" 2
check "the top stack names System.Text.Json frames" wait_screen "^ +System\.Text\.Json\." 2
check "the footer says how to close it" wait_screen "q/Esc close stacks" 2
tm send-keys Escape
check "Esc closes the overlay" wait_gone "gctop stacks behind a site" 5
check "the dashboard is back with the pane" wait_screen "7 Top allocators" 5
check "the site is still marked" site_marked
tm send-keys q
status=$(wait_exit 5)
check "q exits with status 0 (got '$status')" test "$status" = 0
