#!/bin/sh
# sanitizer: yes
# PIDs are reused (pid_max is 32768 here), and a JVM that was killed leaves
# its perf-data file behind. A JVM that starts with the PID of such a file
# replaces it within moments; gctop started in those moments waits for the
# new file instead of refusing the JVM as "left by an earlier process".
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }

# an older JVM's file to plant: a real one, of a JVM that started earlier
start_java "$WORK/old.log" -Xmx64m -XX:+UseSerialGC -cp "$classes" TuiWorkload 60
OLD=$JPID
wait_for_hsperf "$OLD" 15 || { fail "the first JVM published no perf data"; exit 0; }
sleep 1
cp "/tmp/hsperfdata_$(id -un)/$OLD" "$WORK/stale"

# the new JVM's PID is known before it execs: plant the old file there
sh -c "sleep 1.5; exec java -Xmx64m -XX:+UseSerialGC -cp '$classes' TuiWorkload 60" >"$WORK/new.log" 2>&1 &
NEW=$!
CHILD_PIDS="$CHILD_PIDS $NEW"
mkdir -p "/tmp/hsperfdata_$(id -un)"
cp "$WORK/stale" "/tmp/hsperfdata_$(id -un)/$NEW"
# gctop as soon as the process is a JVM, while the planted file is still there
i=0
until [ "$(readlink "/proc/$NEW/exe" 2>/dev/null)" != "$(readlink "/proc/$NEW/exe" 2>/dev/null | sed 's|/java$||')" ] || [ "$i" -ge 100 ]; do
	sleep 0.02
	i=$((i + 1))
done
"$GCTOP_BIN" -p "$NEW" --json -n 1 >"$WORK/out.json" 2>"$WORK/err"
rc=$?
check "a JVM starting over an earlier process's file is watched (exit $rc: $(head -c 300 "$WORK/err"))" [ "$rc" -eq 0 ]
pid=$(json_get "$WORK/out.json" 1 'd["pid"]' 2>/dev/null)
check "with its own figures (pid $pid)" [ "$pid" = "$NEW" ]
