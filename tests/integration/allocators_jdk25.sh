#!/bin/sh
# --allocators on a JDK 25 JVM: the load reply in its form and the agent's
# figures.
. tests/lib.sh
require_java
j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
[ -x "$j25/java" ] || { skip_unless_ci runtime "JDK 25 is not installed at $j25"; exit 0; }
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

PATH="$j25:$PATH" start_java "$WORK/java.log" -Xmx128m -cp "$classes" AllocSites 100 40
wait_for_hsperf "$JPID" 10 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 1; }
"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 4 >"$WORK/run.json" 2>"$WORK/run.err"
rc=$?
check "gctop --allocators ran on JDK 25 (status $rc: $(cat "$WORK/run.err"))" [ "$rc" -eq 0 ]
check "the agent samples on JDK 25" [ "$(json_get "$WORK/run.json" -1 "d['top_allocators']['by_frame'][0]['frame']")" = AllocSites.siteA ]
check "the exact total on JDK 25" [ "$(json_get "$WORK/run.json" -1 "d['alloc']['source']")" = exact ]
check "JDK 25 printed its dynamic-agent warning, not a thread dump" sh -c "grep -q 'A JVM TI agent has been loaded dynamically' '$WORK/java.log' && ! grep -q 'Full thread dump' '$WORK/java.log'"
