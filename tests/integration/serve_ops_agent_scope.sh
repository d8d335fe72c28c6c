#!/bin/sh
# gctop --serve --ops jmx:... loads its agent only into the JVMs the user
# chose, never host-wide:
# - a bare --ops-agent with no -p is a usage error (2) naming -p and
#   --ops-agent-match;
# - with --ops-agent-match GLOB and no -p (every JVM of the host served),
#   the JVM whose command line matches gets the agent, a JVM that does not
#   match gets none (its maps hold no gctop-agent library, read after the
#   matching one's agent answered) and is still served, its
#   gctop_requests_unavailable_info naming --ops-agent-match.
# The two JVMs differ only in a system property with this test's pid in
# it, so no other JVM on the machine matches. About 15 s.
. tests/lib.sh
require_java
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }

"$GCTOP_BIN" --serve 127.0.0.1:0 --ops jmx:requests --ops-agent >/dev/null 2>"$WORK/usage.err"
rc=$?
check "a bare --ops-agent with no -p is a usage error naming the ways to choose (status $rc: $(head -c 200 "$WORK/usage.err"))" \
	sh -c '[ "$1" -eq 2 ] && grep -q -- "-p PID" "$2" && grep -q -- "--ops-agent-match GLOB" "$2"' _ "$rc" "$WORK/usage.err"

start_java "$WORK/match.log" -Xmx32m -Dgctop.test.scope=chosen-$$ -cp "$CLASSES" SleepyHeap 4
MPID=$JPID
start_java "$WORK/other.log" -Xmx32m -Dgctop.test.scope=other-$$ -cp "$CLASSES" SleepyHeap 4
OPID=$JPID
wait_for_hsperf "$MPID" 20 && wait_for_hsperf "$OPID" 20 || { fail "the JVMs published no perf data"; exit 0; }

"$GCTOP_BIN" --serve 127.0.0.1:0 -d 1 --ops jmx:requests --ops-agent-match "*-Dgctop.test.scope=chosen-$$ *" \
	2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/gctop.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
agent_in() { grep -q 'gctop-agent' "/proc/$1/maps"; }
# The matching JVM's agent has answered once its reason is no longer that
# gctop is not reading it: then the worker has passed both JVMs.
answered() {
	curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$WORK/scrape.txt" 2>/dev/null &&
		grep -q "^gctop_requests_unavailable_info{pid=\"$OPID\"" "$WORK/scrape.txt" &&
		grep "^gctop_requests_unavailable_info{pid=\"$MPID\"" "$WORK/scrape.txt" | grep -qv 'not reading the agent'
}
check "the matching JVM's agent answers and both JVMs are served" wait_until 300 answered
check "the matching JVM has gctop's agent" agent_in "$MPID"
check "the JVM that does not match has none" sh -c '! grep -q gctop-agent "/proc/$1/maps"' _ "$OPID"
check "... and is served saying why ($(grep -m1 "^gctop_requests_unavailable_info{pid=\"$OPID\"" "$WORK/scrape.txt" | head -c 300))" \
	sh -c 'grep "^gctop_requests_unavailable_info{pid=\"$1\"" "$2" | grep -q -- "--ops-agent-match"' _ "$OPID" "$WORK/scrape.txt"
