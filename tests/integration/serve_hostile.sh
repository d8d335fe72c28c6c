#!/bin/sh
# sanitizer: yes
# gctop --serve with 100 hostile connections held from four loopback
# addresses (127.0.0.10-13, which any local user can bind), each reopened
# as soon as the server drops it (serve_hostile.py): scrapes from 127.0.0.1
# and from a hostile address are each answered within 1 s, and gctop quits
# within 1 s of the signal with them held, sent when the clients have just
# spoken and then stay quiet for 3.9 s. Three runs: all 100 sending a
# header line every 4 s and never ending their request (SIGTERM, then
# SIGINT), and half of them sending nothing at all (SIGTERM). Before, the
# clients held all 32 slots: every scrape waited in the listen queue until
# it timed out, and quitting waited for the clients' next line (3.9 s) or,
# with silent ones among them, a connection's 10 s timeout (0-10 s).
# Times are CLOCK_MONOTONIC, taken by the client.
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm

# field NAME FILE: NAME=value from the summary line
field() { sed -n "s/^summary .*\<$1=\([^ ]*\).*/\1/p" "$2"; }
all_of() { [ "${1:-0}" -eq "${2:-0}" ] && [ "${2:-0}" -gt 0 ]; }
below() { awk -v v="$1" -v l="$2" 'BEGIN { exit !(v != "" && v != "none" && v + 0 < l) }'; }

for run in slow:TERM slow:INT mixed:TERM; do
	kinds=${run%:*} sig=${run#*:}
	log="$WORK/$kinds-$sig.log"
	python3 tests/integration/serve_hostile.py "$GCTOP_BIN" "$JPID" "$sig" --kinds "$kinds" >"$log" 2>&1
	if ! grep -q '^summary ok=' "$log"; then
		fail "$kinds clients, SIG$sig: $(tail -3 "$log")"
		continue
	fi
	summary=$(grep '^summary' "$log")
	ok=$(field ok "$log") of=$(field of "$log")
	check "$kinds clients, SIG$sig: every scrape answered with the target's figures under 100 hostile connections ($ok of $of)" \
		all_of "$ok" "$of"
	check "$kinds clients, SIG$sig: each scrape within 1 s (slowest $(field max_ms "$log") ms)" below "$(field max_ms "$log")" 1000
	check "$kinds clients, SIG$sig: gctop quits within 1 s with them held ($(field quit_ms "$log") ms)" below "$(field quit_ms "$log")" 1000
	check "$kinds clients, SIG$sig: and ends with status 0 ($(field rc "$log"))" [ "$(field rc "$log")" = 0 ]
	# the server's own bound: 32 connections served, as many being closed
	check "$kinds clients, SIG$sig: gctop held at most 64 client connections ($summary)" [ "$(field held "$log")" -le 64 ]
done
