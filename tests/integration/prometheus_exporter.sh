#!/bin/sh
# test-lane: measuring
# gctop --serve scraped by a real Prometheus (Debian's 2.42): the series
# Prometheus stores are held against the workloads' own truth, within the
# tolerances of the --json tests:
#   JVM allocation over a window inside the busy phase: +-10% of the bytes
#   ThreadMXBean counted (jvm_alloc_rate.sh, tests/java/compare_alloc.py)
#   .NET allocation over a window with quiet edges: +-5% of
#   GC.GetTotalAllocatedBytes; collections per generation: +-1 of
#   GC.CollectionCount; pause time: +-15% of GC.GetTotalPauseDuration, less
#   the background GCs' final marks as the runtime times them (dotnet_gc.sh)
# Each stored counter value is paired with gctop_sample_timestamp_seconds of
# the same scrape, so the truth is read at the moment gctop sampled, as the
# --json tests read it at "time".
# Also: Prometheus parses the OpenMetrics text (the target is up, no scrape
# error), promtool accepts a classic-text scrape, a process that exits
# leaves /metrics by the next round, one that starts appears within a round
# of being old enough to open, and gctop killed with SIGKILL leaves no
# EventPipe session in the .NET process. Connections are counted between
# this test's gctop and the process only (tests/lib.sh, gctop_ends): another
# gctop or dotnet-counters watching the machine holds some too.
. tests/lib.sh
. tests/integration/prometheus_common.shlib
require_prometheus
require_java
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
GCALLOC=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
RATE_MB=40

metrics() { curl -s --max-time 2 "http://127.0.0.1:$GPORT/metrics" >"$WORK/scrape.txt" 2>/dev/null; }
has_pid() { metrics && grep -q "^gctop_target_info{pid=\"$1\"" "$WORK/scrape.txt"; }
lacks_pid() { metrics && ! grep -q "pid=\"$1\"" "$WORK/scrape.txt"; }

# Prometheus first (prometheus_common.shlib).
prometheus_start
wait_until 150 prom_ready || { fail "prometheus did not become ready: $(tail -3 "$WORK/prometheus.log")"; exit 0; }

# The workloads: a JVM allocating 20 MB/s for 20 s; a .NET process idle 6 s,
# allocating 5 s, idle up to 32 s (quiet edges for its totals, and alive for
# the ends of gctop below, which end it); a shell that becomes a JVM when told to (its pid is
# known, for -p, before it is one).
java -Xmx128m -XX:+UseG1GC -cp "$CLASSES" AllocWorkload small 20 20 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
env GCALLOC_GCLOG=1 DOTNET_gcServer=0 "$GCALLOC" "$RATE_MB" 5 0 6 32 >"$WORK/dotnet.truth" 2>&1 &
DPID=$!
sh -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec java -Xmx64m -cp "$2" SleepyHeap 8' sh "$WORK/go" "$CLASSES" \
	>"$WORK/new.log" 2>&1 &
NPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $DPID $NPID"
wait_until 100 dotnet_socket_exists "$DPID" || fail "the .NET workload has no diagnostics socket"

"$GCTOP_BIN" --serve "$GPORT" -p "$JPID,$DPID,$NPID" -d 1 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
check "gctop serves on 127.0.0.1 by default ($(cat "$WORK/gctop.err"))" grep -q "serving http://127.0.0.1:$GPORT/metrics" "$WORK/gctop.err"


# Prometheus parses the OpenMetrics text; promtool accepts the classic text.
check "Prometheus scrapes gctop with no error ($(head -c 300 "$WORK/targets.json" 2>/dev/null))" wait_until 50 target_up
ctype=$(curl -s --max-time 2 -o /dev/null -w '%{content_type}' -H 'Accept: application/openmetrics-text;version=1.0.0' \
	"http://127.0.0.1:$GPORT/metrics")
check "OpenMetrics when asked ($ctype)" [ "${ctype%%;*}" = "application/openmetrics-text" ]
curl -s --max-time 2 "http://127.0.0.1:$GPORT/metrics" >"$WORK/classic.txt"
promtool check metrics <"$WORK/classic.txt" >"$WORK/promtool.log" 2>&1
rc=$?
promtool_clean() { [ "$rc" -eq 0 ] && [ ! -s "$WORK/promtool.log" ] && grep -q "pid=\"$JPID\"" "$WORK/classic.txt"; }
check "promtool check metrics passes on a classic scrape ($(head -c 300 "$WORK/promtool.log"))" promtool_clean

# A new process: its pid was given with -p while it was still a shell.
touch "$WORK/go"
listed() { "$GCTOP_BIN" -l 2>/dev/null | grep -q "^ *$NPID "; }
if wait_until 100 listed; then
	t0=$(date +%s%N)
	if wait_until 20 has_pid "$NPID"; then
		ms=$((($(date +%s%N) - t0) / 1000000))
		pass "a new JVM appears in /metrics ${ms} ms after gctop -l lists it (within one 1 s round and the round's work)"
	else
		fail "a new JVM listed by gctop -l is not in /metrics after 2 s"
	fi
else
	fail "the new JVM never became listable: $(cat "$WORK/new.log")"
fi

# Sessions are read continuously while serving: gctop holds one EventPipe
# stream (one connection) in the .NET process. Each round's listing also
# asks the runtime for its ProcessInfo over a short connection of its own,
# so the steady count is the least of a second's readings.
least_connections() {
	_least=
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		_c=$(gctop_connections "$1" "$2")
		if [ -z "$_least" ] || [ "$_c" -lt "$_least" ]; then _least=$_c; fi
		sleep 0.1
	done
	echo "$_least"
}
dn_conns=$(least_connections "$GPID" "$DPID")
check ".NET process holds gctop's one EventPipe session ($dn_conns connections with gctop while serving)" \
	[ "$dn_conns" -eq 1 ]

# Nothing was loaded into the JVM, and no attach was asked of it (the JVM
# starts its Attach Listener thread at the first request).
no_agent() { ! grep -q 'gctop-agent' "/proc/$JPID/maps" && ! cat /proc/"$JPID"/task/*/comm | grep -q 'Attach Listener'; }
check "gctop --serve loaded nothing into the JVM and asked for no attach" no_agent

# The JVM workload ends: its series leave /metrics by the next round, and
# Prometheus marks them stale.
wait "$JPID" 2>/dev/null
check "an exited JVM leaves /metrics within a round" wait_until 20 lacks_pid "$JPID"
# (marked stale at its next scrape, a second later)
check "Prometheus has no current series of the exited JVM" \
	wait_until 30 python3 tests/integration/prometheus_compare.py absent "$PPORT" "$JPID"
comparator "prometheus_compare.py (JVM)" python3 tests/integration/prometheus_compare.py jvm "$PPORT" "$JPID" "$WORK/jvm.ndjson"
if result=$(python3 tests/java/compare_alloc.py "$WORK/jvm.ndjson" "$WORK/jvm.log" 0.10); then
	pass "JVM: gctop_allocated_bytes_total as stored by Prometheus vs ThreadMXBean: $result"
else
	fail "JVM: gctop_allocated_bytes_total as stored by Prometheus vs ThreadMXBean: $result"
fi

# .NET: wait until Prometheus has stored a sample of gctop's from 4 s or
# more after the allocating ends (the comparison's window ends at the first
# one: gctop's pause total is the runtime's as of 2.5 s before its sample),
# then kill gctop with SIGKILL: the runtime must see its session's
# connection close and drop it.
busy_end_ms() { sed -n 's/.*"phase":"busy_end","wall_ms":\([0-9]*\).*/\1/p' "$WORK/dotnet.truth"; }
stored_past() {
	curl -s --max-time 2 "http://127.0.0.1:$PPORT/api/v1/query" \
		--data-urlencode "query=gctop_sample_timestamp_seconds{pid=\"$DPID\"}" >"$WORK/stored.json" &&
		python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["data"]["result"]
sys.exit(0 if r and float(r[0]["value"][1]) * 1000 > float(sys.argv[2]) else 1)' "$WORK/stored.json" "$1" 2>/dev/null
}
wait_until 300 grep -q '"phase":"busy_end"' "$WORK/dotnet.truth" || fail "the .NET workload never ended its allocating phase"
wait_until 100 stored_past $(($(busy_end_ms) + 4000)) ||
	fail "Prometheus stored no sample of the .NET workload from 4 s after its allocating: $(head -c 300 "$WORK/stored.json")"
ends=$(gctop_ends "$GPID" "$DPID")
kill -9 "$GPID"
wait "$GPID" 2>/dev/null
check "gctop killed with SIGKILL leaves no EventPipe session in the .NET process (its ends $(echo $ends) closed)" \
	wait_until 50 ends_closed "$DPID" "$ends"

# SIGTERM ends gctop --serve cleanly: status 0, its session closed.
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$DPID" 2>"$WORK/gctop2.err" &
G2=$!
CHILD_PIDS="$CHILD_PIDS $G2"
# the session: a connection there in two readings 0.3 s apart (a listing's
# ProcessInfo connection lasts milliseconds)
session_ends() {
	gctop_ends "$G2" "$DPID" | sort >"$WORK/ends1"
	sleep 0.3
	gctop_ends "$G2" "$DPID" | sort >"$WORK/ends2"
	comm -12 "$WORK/ends1" "$WORK/ends2" >"$WORK/ends"
	[ -s "$WORK/ends" ]
}
if wait_until 50 session_ends; then
	ends=$(cat "$WORK/ends")
	kill -TERM "$G2"
	wait "$G2"
	rc=$?
	check "gctop --serve ends with status 0 on SIGTERM ($rc: $(cat "$WORK/gctop2.err"))" [ "$rc" -eq 0 ]
	check "and its EventPipe session is closed (its end $(echo $ends) closed)" wait_until 30 ends_closed "$DPID" "$ends"
else
	fail "a second gctop --serve opened no session in the .NET process: $(cat "$WORK/gctop2.err")"
fi
# The workload's truth is still from the quiet after its allocating, and
# no gctop reads it any more: it ends here rather than at the end of its
# idle time (a bound for the two gctops above).
kill "$DPID"
wait "$DPID" 2>/dev/null
comparator "prometheus_compare.py (.NET)" python3 tests/integration/prometheus_compare.py dotnet "$PPORT" "$DPID" "$WORK/dotnet.truth" dotnet-workstation
kill "$PROM" 2>/dev/null
# The runtime leaves its socket behind when killed: remove those of ours.
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
