#!/bin/sh
# A JVM in a memory-limited cgroup of its own: gctop reports the limit set on
# the group, and a working set that matches the kernel's VmRSS.
# Needs a memory cgroup the test may create groups under (v1: the memory
# hierarchy; v2: a group whose subtree has the memory controller); skips
# with the reason where the machine does not allow it.
. tests/lib.sh

LIMIT=$((256 * 1024 * 1024))
GROUP=""

cgroup_cleanup() {
	cleanup
	# The group can only go once its last process has been waited for.
	if [ -n "$GROUP" ] && [ -d "$GROUP" ]; then
		i=0
		while ! rmdir "$GROUP" 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	fi
}
trap cgroup_cleanup EXIT INT TERM

[ -x "$GCTOP_BIN" ] || { fail "gctop is not built at $GCTOP_BIN"; exit 0; }
require_java

# own_memory_group: prints "VERSION DIRECTORY" of this shell's memory cgroup.
own_memory_group() {
	if [ "$(stat -f -c %T /sys/fs/cgroup/memory 2>/dev/null)" = cgroupfs ]; then
		path=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") { sub(/^[^:]*:[^:]*:/, ""); print; exit } }' /proc/self/cgroup)
		[ -n "$path" ] && echo "1 /sys/fs/cgroup/memory${path%/}"
	elif [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		path=$(sed -n 's/^0:://p' /proc/self/cgroup)
		[ -n "$path" ] && echo "2 /sys/fs/cgroup${path%/}"
	fi
}

set -- $(own_memory_group)
if [ $# -ne 2 ]; then
	skip "this machine has no memory cgroup this test can find"
	exit 0
fi
version=$1 parent=$2
if [ "$version" = 2 ] && ! grep -qw memory "$parent/cgroup.subtree_control" 2>/dev/null; then
	skip "the memory controller is not enabled below $parent (cgroup v2), so no limited group can be made"
	exit 0
fi
GROUP="$parent/gctop-test-$$"
if ! mkdir "$GROUP" 2>/dev/null; then
	GROUP=""
	skip "cannot create a cgroup under $parent (cgroup v$version); run as root or with a delegated group"
	exit 0
fi
limit_file=memory.limit_in_bytes
[ "$version" = 2 ] && limit_file=memory.max
if ! echo "$LIMIT" >"$GROUP/$limit_file" 2>/dev/null; then
	skip "cannot set $limit_file in $GROUP"
	exit 0
fi

classes=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
# The shell joins the group and then becomes the JVM, so the JVM starts in it.
sh -c 'echo $$ >"$1/cgroup.procs" && exec java -Xms64m -Xmx96m -XX:+UseSerialGC -cp "$2" SleepyHeap 48' \
	sh "$GROUP" "$classes" >"$WORK/java.log" 2>&1 &
JPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID"

i=0
while ! grep -q '^ready' "$WORK/java.log" 2>/dev/null && [ "$i" -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
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
