#!/bin/sh
# A scrape Prometheus likes, against a real JVM: gctop --serve compresses
# /metrics for a scraper that takes gzip, as node_exporter does, and writes
# only the families --metrics-include and --metrics-exclude leave
# (tests/integration/serve_scrape.py says what is held).
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm
# serve NAME ARGS...: gctop --serve ARGS for the JVM, its stderr in
# $WORK/NAME.err; sets PORT once it serves the JVM, or fails and ends the test.
serve() {
	_err="$WORK/$1.err"
	shift
	"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$JPID" "$@" 2>"$_err" &
	CHILD_PIDS="$CHILD_PIDS $!"
	wait_until 100 grep -qs 'serving http' "$_err" || { fail "gctop --serve $* did not start: $(cat "$_err")"; exit 0; }
	PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$_err")
	check "gctop --serve $* serves the JVM" wait_until 200 served
}
served() {
	python3 -c 'import sys, urllib.request; sys.exit(0 if (b"gctop_target_info{pid=\"%s\"" % sys.argv[2].encode())
	in urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=2).read() else 1)' "$PORT" "$JPID" 2>/dev/null
}
# -d 5: of three scrapes in a row, two share a round (serve_scrape.py)
serve gzip -d 5
comparator serve_scrape python3 tests/integration/serve_scrape.py gzip "$PORT" "$JPID"
serve families --metrics-include 'jvm_*,gctop_target_info,gctop_allocated_bytes_total' \
	--metrics-exclude jvm_memory_limit_bytes
comparator serve_scrape python3 tests/integration/serve_scrape.py families "$PORT" "$JPID"
