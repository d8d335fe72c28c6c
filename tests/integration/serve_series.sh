#!/bin/sh
# The man page's series per process (METRICS, "Series per process") are a
# real scrape's: a HotSpot JVM with G1 and a .NET process that has
# collected, served by gctop --serve with its defaults
# (tests/integration/serve_series.py counts them).
. tests/lib.sh
. tests/integration/serve_common.shlib
require_java
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
start_sleepy_jvm
# 10 MB/s for 120 s: it collects in its first second, every generation
# within a few
start_dotnet GcAlloc 2 10 120 || { fail "tests/dotnet/GcAlloc did not start: $(head -c 300 "$WORK/GcAlloc.out")"; exit 0; }
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$JPID,$DPID" 2>"$WORK/gctop.err" &
CHILD_PIDS="$CHILD_PIDS $!"
wait_until 100 grep -qs 'serving http' "$WORK/gctop.err" || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
# Both are served with every figure they will have: the JVM's first rates
# (process_cpu_time needs two samples), the .NET process's heap by
# generation after its collections, and its allocation and pause totals,
# which come with the runtime's counter polls (on a loaded machine after
# the heap's: a scrape before them lacked 6 series).
whole() {
	curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.txt" &&
		grep -q "^process_cpu_time_seconds_total{pid=\"$JPID\"" "$WORK/scrape.txt" &&
		grep -q "^process_cpu_time_seconds_total{pid=\"$DPID\"" "$WORK/scrape.txt" &&
		[ "$(grep -c "^dotnet_gc_last_collection_heap_size_bytes{pid=\"$DPID\"" "$WORK/scrape.txt")" -ge 3 ] &&
		grep -q "^dotnet_gc_collections_total{pid=\"$DPID\".*gen2" "$WORK/scrape.txt" &&
		grep -q "^gctop_allocated_bytes_total{pid=\"$DPID\"" "$WORK/scrape.txt" &&
		grep -q "^gctop_gc_pause_time_seconds_total{pid=\"$DPID\"" "$WORK/scrape.txt"
}
check "gctop serves the JVM and the .NET process with their figures" wait_until 300 whole
comparator serve_series python3 tests/integration/serve_series.py man/gctop.1 "$PORT" "$JPID" "$DPID"
