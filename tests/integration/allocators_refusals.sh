#!/bin/sh
# JVMs gctop must not (or cannot) load its agent into get one clear sentence,
# and are never signalled into a thread dump.
. tests/lib.sh
require_java
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

# refuse JAVA_BIN LABEL FLAG EXPECTED_WORDS
refuse() {
	start_java "$WORK/$2.log" -Xmx64m "$3" -cp "$classes" AllocSites 20 30
	java_pid=$JPID
	if ! wait_for_hsperf "$java_pid" 10; then
		fail "$2: the JVM published no perf data: $(head -c 300 "$WORK/$2.log")"
		return
	fi
	"$GCTOP_BIN" -p "$java_pid" --allocators=agent --json -n 1 >"$WORK/$2.out" 2>"$WORK/$2.err"
	rc=$?
	check "$2: gctop fails (status $rc)" [ "$rc" -ne 0 ]
	check "$2: one sentence naming the cause: $(cat "$WORK/$2.err")" grep -q -- "$4" "$WORK/$2.err"
	check "$2: nothing on stdout" [ ! -s "$WORK/$2.out" ]
	sleep 0.5
	check "$2: no thread dump in the JVM's output" sh -c "! grep -q 'Full thread dump' '$WORK/$2.log'"
	check "$2: the JVM still runs" kill -0 "$java_pid"
	kill "$java_pid"
}

refuse java jdk17-disable-attach -XX:+DisableAttachMechanism "DisableAttachMechanism"
refuse java jdk17-no-dynamic-agents -XX:-EnableDynamicAgentLoading "EnableDynamicAgentLoading"

j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
if [ -x "$j25" ]; then
	# JDK 21+ answers a refused load with status 0 and the reason as text.
	PATH="$(dirname "$j25"):$PATH" refuse java jdk25-no-dynamic-agents -XX:-EnableDynamicAgentLoading "EnableDynamicAgentLoading"
else
	skip_unless_ci runtime "JDK 25 is not installed at $j25"
fi
