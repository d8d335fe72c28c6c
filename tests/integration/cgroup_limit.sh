#!/bin/sh
# A JVM in a memory-limited cgroup of its own: gctop reports the limit set on
# the group, and a working set that matches the kernel's VmRSS.
# Needs a memory cgroup the test may create groups under (v1: the memory
# hierarchy; v2: a group whose subtree has the memory controller); skips
# with the reason where the machine does not allow it.
. tests/lib.sh

LIMIT=$((256 * 1024 * 1024))

[ -x "$GCTOP_BIN" ] || { fail "gctop is not built at $GCTOP_BIN"; exit 0; }
require_java

make_memory_cgroup gctop-test "$LIMIT"

classes=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
# The shell joins the group and then becomes the JVM, so the JVM starts in it.
sh -c 'echo $$ >"$1/cgroup.procs" && exec java -Xms64m -Xmx96m -XX:+UseSerialGC -cp "$2" SleepyHeap 48' \
	sh "$GROUP" "$classes" >"$WORK/java.log" 2>&1 &
JPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID"

wait_until 300 grep -q '^ready' "$WORK/java.log" 2>/dev/null
if ! grep -q '^ready' "$WORK/java.log"; then
	fail "the JVM did not start in the limited group: $(head -c 500 "$WORK/java.log")"
	exit 0
fi
check "the JVM runs in the limited group" grep -q "gctop-test-$$\$" "/proc/$JPID/cgroup"
wait_for_hsperf "$JPID" 10 || { fail "the JVM wrote no perf data"; exit 0; }

"$GCTOP_BIN" -p "$JPID" --json -n 2 -d 0.5 >"$WORK/out.json" 2>"$WORK/err"
status=$?
# Read right after gctop's last sample; the JVM sleeps, so its RSS holds still.
vmrss_kib=$(awk '/^VmRSS:/ { print $2 }' "/proc/$JPID/status")
if [ "$status" -ne 0 ] || [ "$(grep -c . "$WORK/out.json")" -ne 2 ]; then
	fail "gctop -p $JPID --json -n 2 exited $status with $(grep -c . "$WORK/out.json") lines: $(cat "$WORK/err")"
	exit 0
fi
pass "gctop -p PID --json -n 2 prints two samples"

got_limit=$(json_get "$WORK/out.json" -1 'd["memory"]["cgroup_limit_bytes"]')
if [ "$got_limit" = "$LIMIT" ]; then
	pass "memory.cgroup_limit_bytes is the limit set on the group ($LIMIT)"
else
	fail "memory.cgroup_limit_bytes is $got_limit, expected $LIMIT"
fi

got_ws=$(json_get "$WORK/out.json" -1 'd["memory"]["working_set_bytes"]')
if python3 -c "import sys; ws, rss = int(sys.argv[1]), int(sys.argv[2]) * 1024; sys.exit(0 if abs(ws - rss) <= rss * 0.10 else 1)" \
	"$got_ws" "$vmrss_kib" 2>/dev/null; then
	pass "memory.working_set_bytes ($got_ws) is within 10% of VmRSS ($vmrss_kib KiB)"
else
	fail "memory.working_set_bytes is $got_ws, VmRSS is $vmrss_kib KiB: not within 10%"
fi

got_usage=$(json_get "$WORK/out.json" -1 'd["memory"]["cgroup_usage_bytes"]')
if python3 -c "import sys; u = int(sys.argv[1]); sys.exit(0 if 0 < u <= int(sys.argv[2]) else 1)" "$got_usage" "$LIMIT" 2>/dev/null; then
	pass "memory.cgroup_usage_bytes ($got_usage) is the group's, below its limit"
else
	fail "memory.cgroup_usage_bytes is $got_usage, expected a count above 0 and at most $LIMIT"
fi
