#!/bin/sh
# sanitizer: yes
# Issue 10, items 5 and 7: files any local user can plant must not decide
# what root's gctop sees. Another user's /tmp/hsperfdata_<them>/<jvm pid>
# is passed over (it made gctop refuse the real JVM); another user's
# /tmp/.gctop-seg-<jvm pid> is removed by root's --allocators (it made
# sampling fail with a wrong message); and a binary named java with perf
# data of its own is no JVM unless it maps libjvm.so.
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
require_java
make_test_user
build_fake
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
stage_for_others "$classes" || { fail "cannot stage the classes where the test users can read them"; exit 1; }
classes=$STAGED/${classes##*/}

start_java "$WORK/java.log" -Xmx64m -cp "$classes" AllocSites 20 60
wait_for_hsperf "$JPID" 10 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 1; }
# Ready when gctop reads it (the JVM fills its file after creating it).
wait_until 50 "$GCTOP_BIN" -p "$JPID" --json -n 1 >/dev/null 2>&1

# Another user's newer perf-data file with the JVM's pid.
d="/tmp/hsperfdata_$SEC_USER"
mkdir -p "$d"
cp tests/data/hsperfdata/jdk17-G1.hsperfdata "$d/$JPID"
chmod 0600 "$d/$JPID"
chown -R "$SEC_UID:$SEC_GID" "$d"
# Newest by ctime, as the attacker keeps it (the JVM's own file changes too).
chmod 0600 "$d/$JPID"
"$GCTOP_BIN" -p "$JPID" --json -n 1 >"$WORK/planted.out" 2>"$WORK/planted.err"
rc=$?
check "another user's perf-data file does not stop gctop watching the JVM (status $rc: $(head -c 300 "$WORK/planted.err"))" \
	[ "$rc" -eq 0 ]
max=$(json_get "$WORK/planted.out" 1 'd["memory"]["heap_max_bytes"]' 2>/dev/null)
check "the figures are the JVM's own (heap max $max, its -Xmx64m, not the planted file's)" [ "$max" = 67108864 ]
rm -rf "$d"
kill "$JPID"

# Another user's file where the agent of a JVM run by the test user
# publishes its segment (the agent, not root, cannot replace it).
planter_uid=$SEC_UID planter_gid=$SEC_GID
make_test_user b
java_bin=$(command -v java)
setpriv --reuid="$SEC_UID" --regid="$SEC_GID" --clear-groups "$java_bin" -Xmx64m -cp "$classes" AllocSites 20 60 \
	>"$WORK/java2.log" 2>&1 &
J2=$!
CHILD_PIDS="$CHILD_PIDS $J2"
wait_for_hsperf "$J2" 10 || { fail "the test user's JVM published no perf data: $(head -c 300 "$WORK/java2.log")"; exit 1; }
wait_until 50 "$GCTOP_BIN" -p "$J2" --json -n 1 >/dev/null 2>&1
seg="/tmp/.gctop-seg-$J2"
: >"$seg"
chown "$planter_uid:$planter_gid" "$seg"
chmod 0600 "$seg"
# The JVM's own user cannot remove it (sticky /tmp): one true sentence.
# (gctop and its agent where that user can run them)
stage_for_others "$GCTOP_BIN" "${GCTOP_BIN%/*}/libgctop-agent.so" || { fail "cannot stage gctop for the test user"; exit 1; }
setpriv --reuid="$SEC_UID" --regid="$SEC_GID" --clear-groups timeout 60 "$STAGED/${GCTOP_BIN##*/}" -p "$J2" --allocators=agent --json -n 1 \
	>"$WORK/user.out" 2>"$WORK/user.err"
rc=$?
check "not root, gctop names the planted file and its owner (status $rc: $(head -c 300 "$WORK/user.err"))" \
	sh -c "[ $rc -eq 7 ] && grep -q '.gctop-seg-$J2 of JVM $J2 belongs to uid $planter_uid' '$WORK/user.err'"
timeout 60 "$GCTOP_BIN" -p "$J2" --allocators=agent --json -n 2 >"$WORK/seg.out" 2>"$WORK/seg.err"
rc=$?
check "root's --allocators samples despite another user's $seg (status $rc: $(head -c 300 "$WORK/seg.err"))" [ "$rc" -eq 0 ]
check "the planted file is gone (the segment now is the JVM's: $(stat -c '%u %s' "$seg" 2>/dev/null))" \
	sh -c "[ ! -e '$seg' ] || [ \"\$(stat -c %u '$seg')\" = '$SEC_UID' ]"
kill "$J2"

# A binary named java, with a perf-data file of its own, mapping no libjvm.so.
: >"$WORK/libother.so"
start_fake sleep / "$WORK/libother.so"
"$GCTOP_BIN" -p "$FAKE" --json -n 1 >"$WORK/name.out" 2>"$WORK/name.err"
rc=$?
check "a process named java that maps no libjvm.so is not a JVM (status $rc: $(head -c 300 "$WORK/name.err"))" \
	sh -c "[ $rc -eq 4 ] && [ ! -s '$WORK/name.out' ]"
