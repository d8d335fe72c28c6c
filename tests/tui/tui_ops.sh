#!/bin/sh
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

start_gctop -p "$JPID" --ops gctop.tui.ops
# 32 KiB an operation: 31.x to 33.x KiB is within the 5% jvm_ops.sh holds
wait_screen "per op 3[1-3]\.[0-9] KiB/operations +[0-9.]+ operations/s" 10
ok=$?
check "the allocation pane shows bytes per operation ($(screen | grep -E 'per op' | head -1))" [ "$ok" -eq 0 ]
tm send-keys q
status=$(wait_exit 5)
check "q ends gctop with status 0 ($status)" [ "$status" = 0 ]

new_server
rm -f "$WORK/status"
start_gctop -p "$JPID" --ops no.such.counter
# the pane cuts the reason at its edge
wait_screen "per op n/a \(no\.such\.counter: the JVM publishes" 10
ok=$?
check "a counter the JVM does not publish: n/a with its name and why ($(screen | grep -E 'per op' | head -1))" [ "$ok" -eq 0 ]
tm send-keys q
status=$(wait_exit 5)
check "q ends gctop with status 0 ($status)" [ "$status" = 0 ]
