#!/bin/sh
# gctop --serve compresses /metrics for a scraper that takes gzip, as
# node_exporter does (tests/integration/serve_gzip.py says what is held),
# against a real JVM.
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm
"$GCTOP_BIN" --serve 127.0.0.1:0 -d 5 -p "$JPID" 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -qs 'serving http' "$WORK/gctop.err"; }
wait_until 100 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
served() {
	python3 -c 'import sys, urllib.request; sys.exit(0 if (b"gctop_target_info{pid=\"%s\"" % sys.argv[2].encode())
	in urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=2).read() else 1)' "$PORT" "$JPID" 2>/dev/null
}
check "the JVM is served" wait_until 200 served
comparator serve_gzip python3 tests/integration/serve_gzip.py "$PORT" "$JPID"
