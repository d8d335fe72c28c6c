#!/bin/sh
# test-lane: measuring
# Bytes per request of a real Tomcat (Debian's tomcat10, on JDK 17, its own
# CATALINA_BASE in a temp dir on a free loopback port, an unbuffered access
# log) in gctop --serve, through the agent loaded for the operations
# counter alone (--ops-agent) and a server counter found without an MBean
# named (--ops jmx:requests):
# - without --ops-agent no agent is loaded (the JVM's maps hold no
#   gctop-agent library) and gctop_requests_unavailable_info says why;
# - --doctor --ops-agent loads it and reports; without, --ops jmx: is a
#   usage error and nothing is loaded;
# - with it, under a client's load (4 connections of 100 requests a
#   second for 10 s, 256 KiB each: 100 MiB/s, so that G1's eden, which perf
#   data counts by 1 MiB regions, is off by under 1% over each 2 s
#   interval), every interval's gctop_bytes_per_request is
#   within 5% of the JVM's own allocation (ThreadMXBean's total, polled by
#   the client from a servlet every 100 ms, interpolated at gctop's sample
#   times) divided by the access log's requests ending in that interval;
# - the sample names the counter found (Tomcat's GlobalRequestProcessor);
# - an ObjectName whose values Tomcat quotes, given unquoted, says so,
#   naming the quoted form;
# - a second gctop asking the same agent for another counter takes the
#   first one's away only while it runs;
# - with one 256 KiB buffer a request (4 connections of 50 a second for
#   12 s), which G1 places in eden regions outside the TLABs, three to a
#   1 MiB region: every interval's gctop_bytes_per_request within 5%, or an
#   upper bound (gctop_allocation_eden_waste_max_bytes_total) not under the
#   truth by more than 5%, which over those intervals holds the truth (5%)
#   and is at most 1/3 + 5% wide
#   (3 buffers fit a region; tests/integration/tomcat_bytes_per_request.py
#   says why no read-only bound can be narrower).
# Tomcat runs under -Xcheck:jni: the agent's JNI calls must draw no
# warning. Missing tomcat10: a skip, a failure under CI=true. About 75 s.
. tests/lib.sh
require_java
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
TOMCAT_HOME=/usr/share/tomcat10
JDK17=/usr/lib/jvm/java-17-openjdk-amd64
[ -x "$TOMCAT_HOME/bin/catalina.sh" ] || missing_runtime "Debian's tomcat10 (sh .ci/install-deps.sh installs it)"
[ -x "$JDK17/bin/java" ] || missing_runtime "JDK 17 at $JDK17"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE=$WORK/base
APP=$BASE/webapps/ROOT/WEB-INF
mkdir -p "$BASE/conf" "$BASE/logs" "$BASE/temp" "$BASE/work" "$APP/classes"
cp /etc/tomcat10/web.xml /etc/tomcat10/catalina.properties /etc/tomcat10/logging.properties "$BASE/conf/"
sed "s/PORT/$PORT/" tests/java/tomcat/server.xml >"$BASE/conf/server.xml"
cp tests/java/tomcat/web.xml "$APP/"
"$JDK17/bin/javac" -cp "$TOMCAT_HOME/lib/servlet-api.jar" -d "$APP/classes" tests/java/tomcat/GctopLoadServlet.java \
	>"$WORK/javac.log" 2>&1 || { fail "cannot compile the test servlet: $(head -c 300 "$WORK/javac.log")"; exit 0; }
# catalina.sh run execs the JVM: $! is Tomcat's pid.
JAVA_HOME=$JDK17 CATALINA_HOME=$TOMCAT_HOME CATALINA_BASE=$BASE CATALINA_TMPDIR=$BASE/temp \
	CATALINA_OPTS="-Xmx256m -XX:+UseG1GC -Xcheck:jni" "$TOMCAT_HOME/bin/catalina.sh" run >"$WORK/tomcat.log" 2>&1 &
TPID=$!
CHILD_PIDS="$CHILD_PIDS $TPID"
answers() { curl -sf --max-time 2 "http://127.0.0.1:$PORT/alloc" >/dev/null 2>&1; }
wait_until 300 answers || { fail "Tomcat did not answer on port $PORT: $(tail -c 400 "$WORK/tomcat.log")"; exit 0; }
# gctop loads its agent from a copy in the JVM's /tmp (.gctop-agent-N.so),
# or libgctop-agent.so itself: either in the maps is the agent.
agent_loaded() { grep -q 'gctop-agent' "/proc/$TPID/maps"; }

# serve_start NAME ARGS...: gctop --serve on a free port for Tomcat; sets GPID and GPORT.
serve_start() {
	_err=$WORK/$1.err
	shift
	: >"$_err"
	"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$TPID" --ops jmx:requests "$@" 2>"$_err" &
	GPID=$!
	CHILD_PIDS="$CHILD_PIDS $GPID"
	wait_until 50 grep -q 'serving http' "$_err" || { fail "gctop --serve did not start: $(cat "$_err")"; exit 0; }
	GPORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$_err")
}
# scrape_has FILE SERIES: /metrics into FILE; true when it holds SERIES for Tomcat.
scrape_has() {
	curl -s --max-time 2 "http://127.0.0.1:$GPORT/metrics" >"$1" 2>/dev/null && grep -q "^$2{pid=\"$TPID\"" "$1"
}

# 1. Without the opt-in: no agent, and why.
serve_start plain -d 1
check "without --ops-agent, gctop_requests_unavailable_info says why" \
	wait_until 100 scrape_has "$WORK/plain.txt" gctop_requests_unavailable_info
check "... naming --ops-agent ($(grep -m1 '^gctop_requests_unavailable_info' "$WORK/plain.txt"))" \
	grep -q '^gctop_requests_unavailable_info{.*counter="jmx:requests".*--ops-agent' "$WORK/plain.txt"
check "... and no gctop_requests_total" sh -c '! grep -q "^gctop_requests_total{pid=\"$1\"" "$2"' _ "$TPID" "$WORK/plain.txt"
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null
check "without --ops-agent no agent is loaded into Tomcat" sh -c '! grep -q gctop-agent "/proc/$1/maps"' _ "$TPID"

# 2. --doctor --ops-agent loads it (for the counter alone) and reports as
# ever; --doctor without it refuses --ops jmx: (2).
"$GCTOP_BIN" --doctor -p "$TPID" --ops jmx:requests -d 1 >/dev/null 2>"$WORK/doctor-usage.err"
check "--doctor --ops jmx: without --ops-agent is a usage error naming it (status $?)" \
	grep -q 'add --ops-agent' "$WORK/doctor-usage.err"
check "... and loads nothing" sh -c '! grep -q gctop-agent "/proc/$1/maps"' _ "$TPID"
"$GCTOP_BIN" --doctor -p "$TPID" --ops jmx:requests --ops-agent -d 1 >"$WORK/doctor.txt" 2>"$WORK/doctor.err"
rc=$?
check "--doctor --ops-agent reports (status $rc, its findings' $(doctor_status "$WORK/doctor.txt"); $(head -c 200 "$WORK/doctor.err"))" \
	[ "$rc" = "$(doctor_status "$WORK/doctor.txt")" -a ! -s "$WORK/doctor.err" ]
check "--doctor --ops-agent loaded the agent into Tomcat" agent_loaded

# 3. --serve with it (reusing the agent the doctor loaded): bytes per
# request under load, against the JVM's own truth.
serve_start agent -d 2 --ops-agent
check "with --ops-agent, gctop_requests_total is served" wait_until 150 scrape_has "$WORK/first.txt" gctop_requests_total
python3 tests/integration/tomcat_load.py "$PORT" 10 4 100 6000 "$WORK/alloc.log" >"$WORK/load.out" 2>"$WORK/load.err" &
LPID=$!
CHILD_PIDS="$CHILD_PIDS $LPID"
i=0
while [ $i -lt 28 ] && kill -0 "$LPID" 2>/dev/null; do
	scrape_has "$WORK/scrape.$i" gctop_requests_total || true
	sleep 0.5
	i=$((i + 1))
done
wait "$LPID"
rc=$?
check "the client's load ran without errors ($(cat "$WORK/load.out") requests; $(head -c 300 "$WORK/load.err"))" [ "$rc" -eq 0 ]
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null

comparator tomcat_bytes_per_request python3 tests/integration/tomcat_bytes_per_request.py "$WORK" "$TPID" "$TEST_NAME" \
	"/work" scrape "$WORK/alloc.log" 0.05 128

# 3b. The same with one 256 KiB buffer a request (/buffer): on G1's 1 MiB
# regions not humongous, but too large for the TLABs, so placed in eden
# regions directly, three to a region; perf data counts the fourth's unused
# room with the region, and gctop marks the figure an upper bound.
serve_start buffer -d 2 --ops-agent
check "with --ops-agent, gctop_requests_total is served again" wait_until 150 scrape_has "$WORK/buffer-first.txt" gctop_requests_total
python3 tests/integration/tomcat_load.py "$PORT" 12 4 50 3000 "$WORK/buffer-alloc.log" /buffer \
	>"$WORK/buffer-load.out" 2>"$WORK/buffer-load.err" &
LPID=$!
CHILD_PIDS="$CHILD_PIDS $LPID"
i=0
while [ $i -lt 28 ] && kill -0 "$LPID" 2>/dev/null; do
	scrape_has "$WORK/buffer-scrape.$i" gctop_requests_total || true
	sleep 0.5
	i=$((i + 1))
done
wait "$LPID"
rc=$?
check "the client's /buffer load ran without errors ($(cat "$WORK/buffer-load.out") requests; $(head -c 300 "$WORK/buffer-load.err"))" \
	[ "$rc" -eq 0 ]
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null
comparator tomcat_bytes_per_request python3 tests/integration/tomcat_bytes_per_request.py "$WORK" "$TPID" "$TEST_NAME" \
	"/buffer" buffer-scrape "$WORK/buffer-alloc.log" 0.05 3

# 4. The counter found, and a quoted name given unquoted (the agent is
# there now; --allocators reads it).
"$GCTOP_BIN" --json -p "$TPID" --allocators --ops jmx:requests -d 1 -n 2 >"$WORK/found.json" 2>"$WORK/found.err"
check "the sample names the counter found ($(json_get "$WORK/found.json" -1 "d['ops']"); $(head -c 200 "$WORK/found.err"))" \
	[ "$(json_get "$WORK/found.json" -1 "d['ops']['counter']")" = 'jmx:Catalina:type=GlobalRequestProcessor,*:requestCount' ]
CONN=http-nio-127.0.0.1-$PORT
"$GCTOP_BIN" --json -p "$TPID" --allocators --ops "jmx:Catalina:type=GlobalRequestProcessor,name=$CONN:requestCount" \
	-d 1 -n 2 >"$WORK/quoted.json" 2>/dev/null
check "an unquoted name that exists quoted says so, naming the quoted form ($(json_get "$WORK/quoted.json" -1 "d['ops_unavailable']"))" \
	[ "$(json_get "$WORK/quoted.json" -1 "'Catalina:type=GlobalRequestProcessor,name=\"$CONN\"' in d['ops_unavailable']['reason'] and 'quoted' in d['ops_unavailable']['reason']")" = True ]

# 5. Two gctops, two counters: the first has its own back once the second
# stops. Meanwhile a --serve --ops-agent keeps the perf data's allocation
# figures though the agent samples for them (an exact total coming and
# going would read as counter resets).
serve_start late -d 1 --ops-agent
wait_until 100 scrape_has "$WORK/late.txt" gctop_requests_total
"$GCTOP_BIN" --json -p "$TPID" --allocators --ops jmx:requests -d 1 -n 16 >"$WORK/first.json" 2>"$WORK/first.err" &
APID=$!
CHILD_PIDS="$CHILD_PIDS $APID"
wait_until 100 lines_at_least "$WORK/first.json" 2
"$GCTOP_BIN" --json -p "$TPID" --allocators --ops 'jmx:Catalina:type=ThreadPool,*:currentThreadCount' -d 1 -n 3 \
	>"$WORK/second.json" 2>"$WORK/second.err"
scrape_has "$WORK/late.txt" gctop_target_info
check "--serve --ops-agent keeps the estimate while the agent samples for another gctop ($(grep -m1 "^gctop_target_info{pid=\"$TPID\"" "$WORK/late.txt"))" \
	grep -q "^gctop_target_info{pid=\"$TPID\".*allocation_source=\"estimate\"" "$WORK/late.txt"
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null
check "the second gctop reads its own counter ($(json_get "$WORK/second.json" -1 "d['ops']"))" \
	[ "$(json_get "$WORK/second.json" -1 "d['ops'] is not None")" = True ]
wait "$APID"
check "the first gctop lost its counter while the second ran, and had it back after ($(json_get "$WORK/first.json" 1 \
"[(d['ops'] or {}).get('total', (d['ops_unavailable'] or {}).get('reason', '')[:40]) for d in lines]"))" \
	[ "$(json_get "$WORK/first.json" 1 "any(d['ops'] is None and 'another gctop' in d['ops_unavailable']['reason'] for d in lines) and all(d['ops'] is not None for d in lines[-2:])")" = True ]
kill "$TPID" 2>/dev/null
wait "$TPID" 2>/dev/null
check "-Xcheck:jni found nothing in the agent's calls (the server counters, the quoted name) ($(grep -m1 -A2 'WARNING in native method' "$WORK/tomcat.log" | tr '\n' ' ' | head -c 300))" \
	sh -c '! grep -q "WARNING in native method" "$1"' _ "$WORK/tomcat.log"
