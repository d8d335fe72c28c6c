#!/bin/sh
# Odd terminals: NO_COLOR, ASCII locales, TERM=dumb, no terminal at all,
# the target exiting under the view, and the terminal going away.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
require_java
start_workload

# Colour by default on a colour terminal, none with NO_COLOR.
start_gctop -p "$JPID"
wait_screen " Memory " 10
tm capture-pane -p -e >"$WORK/colour"
check "colours are used on a colour terminal" grep -q "$(printf '\033')\[[0-9;]*3[0-7]m" "$WORK/colour"
check "UTF-8 locale: block glyphs" grep -q "█" "$WORK/colour"
tm send-keys q
wait_exit 5 >/dev/null
new_server

rm -f "$WORK/status"
tm new-session -d -x 100 -y 30 "NO_COLOR=1 LC_ALL=C LANG=C $GCTOP_BIN -p $JPID; $(status_to gctop-exit "$WORK/status"); sleep 60"
check "NO_COLOR, ASCII locale: the dashboard comes up" wait_screen " Memory " 10
check "NO_COLOR, ASCII locale: and draws another sample" wait_samples 1 5
tm capture-pane -p -e >"$WORK/mono"
screen >"$WORK/mono.txt"
# PATTERN is absent from a captured dashboard (not from an empty capture).
mono_lacks() { grep -q " Memory " "$WORK/mono.txt" && ! grep -q "$1" "$WORK/mono"; }
check "NO_COLOR: no colour escapes" mono_lacks "$(printf '\033')\[[0-9;]*3[0-7]m"
check "NO_COLOR: still bold and reverse for emphasis" grep -q "$(printf '\033')\[[0-9;]*[17]m" "$WORK/mono"
check "ASCII locale: no block glyphs" mono_lacks '█'
check "ASCII locale: ASCII memory bar (# used, = committed)" grep -Eq "#{2,}={2,}" "$WORK/mono.txt"
tm send-keys q
status=$(wait_exit 5)
check "exit status 0 (got '$status')" test "$status" = 0
new_server

# TERM=dumb and a stdout that is no terminal both switch to text.
TERM=dumb "$GCTOP_BIN" -p "$JPID" -d 0.5 -n 2 >"$WORK/dumb.out" 2>"$WORK/dumb.err" </dev/null
check "TERM=dumb prints text, not a screen" grep -q "$JPID" "$WORK/dumb.out"
check "TERM=dumb says why" grep -q "printing text" "$WORK/dumb.err"
check "TERM=dumb output has no escape sequences" sh -c "! grep -q '$(printf '\033')' '$WORK/dumb.out'"
rm -f "$WORK/status"
tm new-session -d -x 100 -y 30 "$GCTOP_BIN -p $JPID -d 0.5 -n 2 > $WORK/pipe.out 2>$WORK/pipe.err; $(status_to gctop-exit "$WORK/status"); sleep 60"
status=$(wait_exit 10)
check "stdout not a terminal: text, status 0 (got '$status')" test "$status" = 0
check "stdout not a terminal: the figures are there" grep -q "$JPID" "$WORK/pipe.out"
new_server

# The terminal goes away (ssh drops): gctop gets SIGHUP and leaves at once.
tm new-session -d -x 100 -y 30 "exec $GCTOP_BIN -p $JPID"
wait_screen " Memory " 10
gpid=$(tm display -p '#{pane_pid}')
new_server
wait_until 30 process_gone "$gpid"
check "gctop exits when its terminal goes away (pid '$gpid')" sh -c "[ -n '$gpid' ] && ! kill -0 '$gpid' 2>/dev/null"

# The target exits: the last figures stay, marked EXITED, and gctop idles.
rm -f "$WORK/status"
start_gctop -p "$JPID"
wait_screen "^ LIVE " 10
# Two samples make a rate: wait for it rather than for a guessed time.
wait_screen "rate [0-9.]+ [KMG]iB/s" 10
kill "$JPID"
check "the header says EXITED" wait_screen "^ EXITED " 10
# (the last interval's rate, a bound where it was one: on a loaded machine
# the estimate misses collection intervals)
check "the last figures stay on screen" grep -Eq "rate (≥|>=|≤|<=)?[0-9.]+ [KMG]iB/s before it exited" "$(screen >"$WORK/e"; echo "$WORK/e")"
gpid=$(pgrep -f "^$GCTOP_BIN -p $JPID\$" | head -1)
# gctop's CPU time in ns, all its threads (schedstat's first field: time on
# a CPU, not the 10 ms ticks stat charges whoever runs at a tick, which a
# busy machine scatters): over 2 s at most 50 ms (2.5%), where a spinning
# gctop gets a fair share of a core, hundreds of ms, however busy it is.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ n += $1 } END { if (NR) print n }'; }
c1=$(cpu_ns "$gpid")
sleep 2
c2=$(cpu_ns "$gpid")
check "an exited target does not make gctop spin (cpu ${c1:-?} -> ${c2:-?} ns, at most 50 ms in 2 s)" \
	sh -c "[ -n '$c1' ] && [ -n '$c2' ] && [ \$(($c2 - $c1)) -le 50000000 ]"
tm send-keys q
status=$(wait_exit 5)
check "q still exits with status 0 (got '$status')" test "$status" = 0
