#!/bin/sh
# sanitizer: yes
# Issue 36, item 5: a gctop SIGKILLed while it waits for a JVM's attach
# socket leaves no root-owned trigger in the JVM's working directory (a
# directory of the JVM's user, where HotSpot also looks): before, the
# trigger .attach_pidN went there, and nothing removed it once the JVM was
# gone. gctop writes it only in the JVM's /tmp, which every attach sweeps:
# the next attach, to another JVM, removes the dead gctop's trigger there.
# The fakes (security_fake_jvm.c, mode sleep) run as a test user from a
# working directory it owns; each kill comes once the trigger exists,
# wherever it was made.
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
make_test_user
build_fake
agent_for_tests
LEFT=""
trap 'rm -f $LEFT; sec_cleanup' EXIT INT TERM

JCWD="$WORK/jvm-cwd"
mkdir "$JCWD" && chown "$SEC_UID:$SEC_GID" "$JCWD" && chmod 755 "$JCWD" || { fail "cannot make $JCWD"; exit 0; }
chmod 755 "$WORK"
TEMPLATE="$PWD/tests/data/hsperfdata/jdk17-G1.hsperfdata"

# sleeper: a fake JVM (catches SIGQUIT, never opens its socket) whose
# working directory is $JCWD; sets FAKE.
sleeper() {
	: >"$WORK/fake.log"
	(cd "$JCWD" && exec "$WORK/java" sleep "$SEC_USER" "$SEC_UID" "$SEC_GID" / "$TEMPLATE" "$WORK/libjvm.so" \
		"$WORK/fake.log") 2>"$WORK/fake.err" &
	FAKE=$!
	CHILD_PIDS="$CHILD_PIDS $FAKE"
	LEFT="$LEFT /tmp/.attach_pid$FAKE $JCWD/.attach_pid$FAKE /tmp/.gctop-agent-$FAKE.so"
	wait_until 50 grep -q "^ready $FAKE" "$WORK/fake.log" || { fail "the fake JVM did not start: $(cat "$WORK/fake.err")"; exit 0; }
}
trigger_made() { [ -e "/tmp/.attach_pid$1" ] || [ -e "$JCWD/.attach_pid$1" ]; }

sleeper
A=$FAKE
"$GCTOP_BIN" -p "$A" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/killed.err" &
G=$!
wait_until 50 trigger_made "$A"
made=$?
kill -KILL "$G" 2>/dev/null
wait "$G" 2>/dev/null
check "gctop made a trigger and was killed while waiting for the socket" [ "$made" -eq 0 ]
check "no trigger in the JVM's working directory ($(ls -A "$JCWD" | head -c 100))" [ ! -e "$JCWD/.attach_pid$A" ]
check "the trigger is in the JVM's /tmp, with the killed gctop's mark" grep -q "^gctop-attach $G " "/tmp/.attach_pid$A"

# The JVM goes; an attach to another JVM sweeps what the killed gctop left.
kill "$A"
wait "$A" 2>/dev/null
sleeper
B=$FAKE
timeout 30 "$GCTOP_BIN" -p "$B" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/again.err"
check "the next attach, to another JVM, ran to its end ($(head -c 200 "$WORK/again.err"))" \
	grep -q "did not open its attach socket" "$WORK/again.err"
check "and removed the dead gctop's trigger of the gone JVM" [ ! -e "/tmp/.attach_pid$A" ]
check "nothing of gctop's in the working directory ($(ls -A "$JCWD" | head -c 100))" [ -z "$(ls -A "$JCWD")" ]
