#!/bin/sh
# A newcomer's first two commands: on a machine without the build's
# packages, make (the build alone, which installs nothing) says in one
# sentence which ones and how to install them (instead of a compiler error
# about json-c/json.h); make demo, quit with q, ends with status 0. (make
# check installs them: tests/static/fresh_machine.sh.)
. tests/lib.sh
require_tmux
require_java

# no pkg-config modules at all, as on a fresh machine
# (run by make check: no "Entering directory" lines from the outer make)
env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make --no-print-directory -n PKG_CONFIG=/bin/false >"$WORK/out" 2>&1
rc=$?
check "make without the packages stops (status $rc)" [ "$rc" -ne 0 ]
check "and names the packages and the commands, in one sentence ($(cat "$WORK/out"))" \
	grep -q 'needs the Debian packages libncurses-dev libproc2-dev libcgroup-dev libjson-c-dev libmicrohttpd-dev to build; "make check" and "make demo" install them, or run "sh .ci/install-deps.sh" as root' "$WORK/out"
check "and says nothing else" [ "$(grep -c . "$WORK/out")" -eq 1 ]
make -n clean PKG_CONFIG=/bin/false >/dev/null 2>&1
check "make clean still works" [ $? -eq 0 ]

TMUX_SOCK="gctop-demo$$"
tm() { tmux -L "$TMUX_SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; cleanup' EXIT INT TERM
tm new-session -d -x 100 -y 30 "make -s demo; $(status_to demo-exit "$WORK/status"); sleep 30"
i=0
until tm capture-pane -p 2>/dev/null | grep -q " Memory " || [ "$i" -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
check "make demo opens gctop on the demo workload" sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | grep -q 'Demo'"
sleep 1
tm send-keys q
wait_for_file "$WORK/status" 15
check "quitting with q ends make demo with status 0 ($(cat "$WORK/status" 2>/dev/null))" grep -q '^demo-exit=0$' "$WORK/status"
