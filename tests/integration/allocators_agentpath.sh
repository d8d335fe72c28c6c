#!/bin/sh
# An agent loaded at start-up with -agentpath: gctop finds its segment and
# uses it without attaching; idle, the agent stops sampling but keeps the
# segment, and a reader's heartbeat resumes it.
. tests/lib.sh
require_java
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
agent="$PWD/$GCTOP_BUILD/libgctop-agent.so"
[ -f "$agent" ] || { fail "$agent is not built"; exit 1; }

start_java "$WORK/java.log" -Xmx128m "-agentpath:$agent=watchdog=2" -cp "$classes" AllocSites 100 40
seg=/proc/$JPID/root/tmp/.gctop-seg-$JPID
wait_for_file "$seg" 10
check "the agent created its segment at start-up" [ -e "$seg" ]
check "the segment is mode 0600" [ "$(stat -c %a "$seg" 2>/dev/null)" = 600 ]
wait_for_hsperf "$JPID" 10
# Past the watchdog time with no reader: dormant, but the file stays.
sleep 3
check "an idle -agentpath agent keeps its segment" [ -e "$seg" ]
ino=$(stat -c %i "$seg")

"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 4 >"$WORK/run.json" 2>"$WORK/run.err"
rc=$?
check "gctop ran against the -agentpath agent ($(cat "$WORK/run.err"))" [ "$rc" -eq 0 ]
check "gctop used the existing segment (no second agent)" [ "$(stat -c %i "$seg" 2>/dev/null)" = "$ino" ]
check "the resumed agent samples" [ "$(json_get "$WORK/run.json" -1 "d['top_allocators']['state'] == 'running' and d['top_allocators']['by_frame'][0]['frame'] == 'AllocSites.siteA'")" = True ]
check "the exact total with -agentpath" [ "$(json_get "$WORK/run.json" -1 "d['alloc']['source']")" = exact ]
check "no thread dump in the JVM's output" sh -c "! grep -q 'Full thread dump' '$WORK/java.log'"

# A normal JVM exit removes the segment.
kill "$JPID"
wait "$JPID" 2>/dev/null
check "the segment is removed when the JVM exits normally" [ ! -e "/tmp/.gctop-seg-$JPID" ]
