#!/bin/sh
# sanitizer: yes
# gctop --list finds a running JVM with its collector, main class and heap;
# gctop -p on a JVM that is still starting waits for it instead of failing.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

# Started and watched at once (busy for 30 s: it must outlive --list below
# on a busy machine; the cleanup ends it): gctop must wait for the perf-data file and
# for the JVM to finish initialising (accessible flag).
start_java "$WORK/w.log" -Xmx48m -XX:+UseSerialGC -cp "$CLASSES" AllocWorkload small 20 30 1
"$GCTOP_BIN" -p "$JPID" --json -n 1 >"$WORK/first.json" 2>"$WORK/first.err"
rc=$?
check "a starting JVM is waited for (exit $rc: $(cat "$WORK/first.err"))" [ "$rc" -eq 0 ]
gc=$(json_get "$WORK/first.json" 1 'd["gc"]')
check "collector named from the counters ($gc)" [ "$gc" = "Serial" ]
flags=$(json_get "$WORK/first.json" 1 'd["target"]["heap_flags"]')
check "heap flags from java.rt.vmArgs ($flags)" [ "$flags" = "-Xmx48m" ]

"$GCTOP_BIN" --list --json >"$WORK/list.json" 2>"$WORK/list.err"
check "--list exits 0" [ $? -eq 0 ]
row=$(python3 - "$WORK/list.json" "$JPID" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line) if line.strip() else None
    if d and d["pid"] == int(sys.argv[2]):
        print(d["gc"], d["main_class"], d["heap_max_bytes"], d["heap_used_bytes"] is not None, d["runtime_version"] is not None)
PY
)
check "--list shows the JVM ($row)" [ "$row" = "Serial AllocWorkload 50331648 True True" ]

# As text, SAMPLER says the JVM offers its flight recorder (JDK 17: jfr,
# the default of --allocators), under its head.
"$GCTOP_BIN" --list >"$WORK/list.txt" 2>"$WORK/list.err"
line=$(grep -E "^ *$JPID " "$WORK/list.txt")
check "--list's text says jfr under SAMPLER for the JVM ('$line')" \
	sh -c 'echo "$1" | grep -Eq "^ *$2 +[^ ]+ +JVM [0-9.]+ +Serial +jfr " && grep -Eq "^ +PID +USER +RUNTIME +GC +SAMPLER " "$3"' _ "$line" "$JPID" "$WORK/list.txt"
