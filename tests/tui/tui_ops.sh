#!/bin/sh
# test-lane: measuring
# --ops in the full-screen view: the allocation pane shows bytes per
# operation and operations per second from the JVM's own perf-data counter
# (OpsWorkload: 32 KiB an operation, 2000 a second), and a counter the JVM
# does not publish as n/a with its name and why. About 15 s.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_java
require_tmux
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }

start_java "$WORK/java.log" --add-exports java.base/jdk.internal.perf=ALL-UNNAMED -Xmx256m -XX:+UseG1GC \
	-cp "$classes" OpsWorkload gctop.tui.ops 2 2000 32768 20
wait_until 100 grep -q '^ops ' "$WORK/java.log" || { fail "the workload did not start: $(head -c 300 "$WORK/java.log")"; exit 0; }

# shows COUNTER REGEX WHAT: gctop --ops COUNTER in a fresh pane shows
# REGEX on its allocation pane's "per operation" row, and q ends it with status 0.
shows() {
	new_server
	rm -f "$WORK/status"
	start_gctop -p "$JPID" --ops "$1"
	wait_screen "$2" 10
	ok=$?
	check "$3 ($(screen | grep -E 'per operation' | head -1))" [ "$ok" -eq 0 ]
	tm send-keys q
	status=$(wait_exit 5)
	check "$1: q ends gctop with status 0 ($status)" [ "$status" = 0 ]
}

# 32 KiB an operation: 31.x to 33.x KiB is within the 5% jvm_ops.sh holds
shows gctop.tui.ops "per operation 3[1-3]\.[0-9] KiB  [0-9.]+ operations/s" \
	"the allocation pane shows bytes per operation"
# the pane cuts the reason at a word before its edge
shows no.such.counter "per operation n/a \(no\.such\.counter: the JVM[a-z ]*\.\.\." \
	"a counter the JVM does not publish: n/a with its name and why"
