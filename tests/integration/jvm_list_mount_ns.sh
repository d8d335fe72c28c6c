#!/bin/sh
# gctop in a mount namespace of its own that has the host's /tmp, as
# systemd's sandboxing (ProtectSystem=, contrib/systemd/gctop.service)
# makes one: a JVM of the host is still listed and served. It was missed:
# the /tmp pass took only JVMs of gctop's mount namespace, and the
# container pass skipped those whose /tmp is gctop's. Needs unshare(1) and
# the right to make a mount namespace (root); skips otherwise.
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
command -v unshare >/dev/null 2>&1 || { skip_unless_ci runtime "unshare(1) is missing"; exit 0; }
unshare -m true 2>/dev/null || { skip_unless_ci namespace "cannot make a mount namespace here (needs root)"; exit 0; }
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm

# (listed once it has finished starting, as without a namespace)
listed() {
	unshare -m "$GCTOP_BIN" --list --json >"$WORK/list.json" 2>"$WORK/list.err" &&
		grep -q "\"pid\":$JPID," "$WORK/list.json"
}
check "gctop --list in its own mount namespace lists the host's JVM ($(head -c 200 "$WORK/list.err"))" \
	wait_until 50 listed

unshare -m "$GCTOP_BIN" --serve 127.0.0.1:0 -d 1 2>"$WORK/serve.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/serve.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/serve.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
served() {
	curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" 2>/dev/null | grep -q "^gctop_target_info{pid=\"$JPID\""
}
check "and gctop --serve there serves it" wait_until 300 served
