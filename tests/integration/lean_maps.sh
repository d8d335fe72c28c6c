#!/bin/sh
# A gctop that does not serve is as light as top (issue 40): -b against a
# real JVM, -l, --json, --help, --doctor, -r and --compare of a recording
# and the interactive view (tmux) map none of
# --serve's libraries (libmicrohttpd, GnuTLS and what it brings, libyaml,
# libcrypt, zlib; tests/integration/lean_maps.py reads each one's
# /proc/PID/maps), and --serve, which loads them when it starts
# (frontends/serve_libs.h), holds them and answers /metrics; without
# libmicrohttpd --serve exits 1 with one sentence and --help still runs.
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
command -v tmux >/dev/null 2>&1 || missing_runtime "tmux"
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm

comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop -b -d 1 -n 30 -p JVM" \
	"$GCTOP_BIN" -b -d 1 -n 30 -p "$JPID"
comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop -l" "$GCTOP_BIN" -l
comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop --json -n 1 -p JVM" \
	"$GCTOP_BIN" --json -n 1 -p "$JPID"
comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop --help" "$GCTOP_BIN" --help
comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop --doctor -d 1 -p JVM" \
	"$GCTOP_BIN" --doctor -d 1 -p "$JPID"
# a recording of the JVM, replayed and compared
"$GCTOP_BIN" -b -d 0.5 -n 3 -p "$JPID" -w "$WORK/rec.ndjson" >/dev/null 2>"$WORK/rec.err"
if [ -s "$WORK/rec.ndjson" ]; then
	comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop -r FILE -b" \
		"$GCTOP_BIN" -r "$WORK/rec.ndjson" -b
	comparator lean_maps python3 tests/integration/lean_maps.py blocked "gctop --compare FILE FILE" \
		"$GCTOP_BIN" --compare "$WORK/rec.ndjson" "$WORK/rec.ndjson"
else
	fail "gctop -w recorded nothing to replay: $(cat "$WORK/rec.err")"
fi

# The interactive view, watching the JVM, in a tmux server of this test's
# own: the pane's process is gctop (exec).
tm() { tmux -L "gctop-lean$$" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; cleanup' EXIT INT TERM
screen_shows_jvm() { tm capture-pane -p | grep -q "PID $JPID"; }
tm new-session -d -x 100 -y 30 "exec $GCTOP_BIN -p $JPID"
if wait_until 150 screen_shows_jvm; then
	comparator lean_maps python3 tests/integration/lean_maps.py pid "the interactive view" \
		"$(tm list-panes -F '#{pane_pid}')"
else
	fail "the interactive view did not show the JVM within 15 s: $(tm capture-pane -p | head -n 5)"
fi
tm kill-server 2>/dev/null

"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$JPID" 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -qs 'serving http' "$WORK/gctop.err"; }
if ! wait_until 100 serving; then
	fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"
	exit 0
fi
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
scrape() { curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.txt" && grep -q "^gctop_target_info{pid=\"$JPID\"" "$WORK/scrape.txt"; }
check "gctop --serve answers /metrics with the JVM" wait_until 100 scrape
comparator lean_maps python3 tests/integration/lean_maps.py serving "gctop --serve" "$GPID"

# --serve without libmicrohttpd (a mount namespace of this test's own, where
# the file the server loaded is empty): status 1 and one sentence naming the
# Debian package, while the other runs go on without it.
lib=$(awk '$6 ~ /\/libmicrohttpd\.so/ {print $6; exit}' "/proc/$GPID/maps")
if [ -z "$lib" ]; then
	fail "the serving gctop's maps name no libmicrohttpd file to hide"
elif ! unshare -m true 2>/dev/null; then
	skip_unless_ci namespace "unshare -m is not allowed here; cannot hide libmicrohttpd from a --serve"
else
	timeout 20 unshare -m sh -c 'mount --bind /dev/null "$1" && exec "$2" --serve 127.0.0.1:0' - "$lib" "$GCTOP_BIN" \
		>/dev/null 2>"$WORK/missing.err"
	rc=$?
	check "--serve without libmicrohttpd exits 1 (got $rc)" [ "$rc" -eq 1 ]
	one_sentence() {
		[ "$(grep -c . "$WORK/missing.err")" -eq 1 ] &&
			grep -q 'libmicrohttpd\.so\.12.*Debian package libmicrohttpd12' "$WORK/missing.err"
	}
	check "and says so in one sentence naming the package: $(cat "$WORK/missing.err")" one_sentence
	unshare -m sh -c 'mount --bind /dev/null "$1" && exec "$2" --help' - "$lib" "$GCTOP_BIN" >"$WORK/help.out" 2>&1
	rc=$?
	check "gctop --help runs without libmicrohttpd (status $rc)" [ "$rc" -eq 0 ]
fi
