#!/bin/sh
# sanitizer: yes
# Issue 25, item 8: a gctop killed (SIGKILL) at any point of an attach
# leaves nothing that stays. Killed while it waits for the attach socket,
# its trigger /tmp/.attach_pidPID holds gctop's mark and the next attach
# replaces it with its own and removes that (before: a root-owned empty
# trigger, taken by later runs as someone else's and never removed, so the
# JVM would start its listener on any later SIGQUIT). Killed while it waits
# for the load reply, its agent copy /tmp/.gctop-agent-PID.so is removed by
# the next attach to any JVM once no attach can still need it (before: it
# stayed for ever once its JVM was gone), and a copy the JVM has mapped is
# removed at once, before the reply. A trigger of a gctop still
# running, or one of the JVM's user, is left alone. And a real JVM whose
# gctop is killed right after the agent is loaded keeps no file of gctop's
# once it is attached again (a copy left by a kill between the JVM's map
# and gctop's look at it goes with the next gctop that samples the JVM).
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
require_java
make_test_user
build_fake
agent_for_tests
classes=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
stage_for_others "$classes" || { fail "cannot stage the classes where the test user can read them"; exit 1; }
classes=$STAGED/${classes##*/}
# What a failing run of this test would leave in the host's /tmp.
LEFT=""
trap 'rm -f $LEFT; sec_cleanup' EXIT INT TERM

# kill_when TENTHS COND...: starts gctop --allocators on $FAKE, SIGKILLs it
# once COND holds; sets G (its pid) and WAITED (0 when COND held).
kill_when() {
	tenths=$1
	shift
	"$GCTOP_BIN" -p "$FAKE" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/killed.err" &
	G=$!
	wait_until "$tenths" "$@"
	WAITED=$?
	kill -KILL "$G" 2>/dev/null
	wait "$G" 2>/dev/null
}

# fake MODE: (re)starts the fake JVM in MODE; sets FAKE, and trig and
# copy to the paths of its trigger and agent copy (removed at exit).
fake() {
	if [ -n "$FAKE" ]; then
		kill "$FAKE"
		wait "$FAKE" 2>/dev/null
	fi
	: >"$WORK/fake.log"
	start_fake "$1" / "$WORK/libjvm.so"
	trig=/tmp/.attach_pid$FAKE copy=/tmp/.gctop-agent-$FAKE.so
	LEFT="$LEFT $trig $copy"
}

# attach_again: one more attach to $FAKE, to its end (each fake makes it
# fail within its deadlines).
attach_again() {
	timeout 30 "$GCTOP_BIN" -p "$FAKE" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/again.err"
}

# sleep: catches SIGQUIT but never opens its attach socket.
FAKE=""
fake sleep
kill_when 50 test -e "$trig"
check "gctop made its trigger and was killed while waiting for the socket" [ "$WAITED" -eq 0 ]
check "the trigger it left holds its mark ($(head -c 60 "$trig" 2>/dev/null))" grep -q "^gctop-attach $G " "$trig"
attach_again
check "the next attach takes the stale trigger for no one's: it signals and waits ($(head -c 200 "$WORK/again.err"))" \
	grep -q "did not open its attach socket" "$WORK/again.err"
check "and leaves no trigger ($(ls -l "$trig" 2>&1 | head -c 100))" [ ! -e "$trig" ]

# A trigger of a gctop that still runs (this shell stands for it) and one
# of the JVM's user are not gctop's to remove.
ticks=$(cut -d' ' -f22 /proc/$$/stat)
echo "gctop-attach $$ $ticks" >"$trig"
attach_again
check "a trigger whose maker still runs is left in place" grep -q "^gctop-attach $$ " "$trig"
rm -f "$trig"
echo "gctop-attach 999999999 1" >"$trig"
chown "$SEC_UID:$SEC_GID" "$trig"
attach_again
check "a trigger of the JVM's user is left in place" [ -e "$trig" ]
rm -f "$trig"

# hold: its listener takes the load request and never answers.
fake hold
held() { grep -q '^held' "$WORK/fake.log"; }
kill_when 100 held
check "gctop sent the load request and was killed waiting for the reply" [ "$WAITED" -eq 0 ]
check "no trigger is left (the listener was running)" [ ! -e "$trig" ]
check "the agent copy it left is the agent ($(ls -l "$copy" 2>&1 | head -c 120))" cmp -s "$copy" "$GCTOP_AGENT"
check "no partial copy is left: $(ls -a /tmp | grep "gctop-agent-$FAKE\..*part" | head -2)" \
	sh -c "! ls -a /tmp | grep -q 'gctop-agent-$FAKE\..*part'"
# Its JVM goes: the next attach to another JVM removes the copy once it is
# older than any attach can take (GT_ATTACH_COPY_STALE_S, 15 s).
gone_copy=$copy
# Planted beside it, as old: the agent's bytes under two copy names linked
# to one file of the JVM's user (each name would be one more comparison of
# the agent's size every attach), and a copy of a user who is neither the
# JVM's nor gctop's. Neither is compared nor removed (before: all three went).
linked_a=/tmp/.gctop-agent-${$}01.so linked_b=/tmp/.gctop-agent-${$}02.so nobodys=/tmp/.gctop-agent-${$}03.so
LEFT="$LEFT $linked_a $linked_b $nobodys"
cp "$GCTOP_AGENT" "$linked_a" && chown "$SEC_UID:$SEC_GID" "$linked_a" && ln "$linked_a" "$linked_b" &&
	cp "$GCTOP_AGENT" "$nobodys" && chown 65534:65534 "$nobodys" ||
	{ fail "cannot plant the linked copies in /tmp"; exit 1; }
fake hold
attach_again
check "a fresh copy of a gone JVM is left alone (an attach may still need it)" [ -e "$gone_copy" ]
sleep 16
attach_again
check "a copy older than 15 s is removed by the next attach to another JVM" [ ! -e "$gone_copy" ]
check "copies of the agent with two links are not removed" sh -c "[ -e '$linked_a' ] && [ -e '$linked_b' ]"
check "a copy of another user than the JVM's or gctop's is not removed" [ -e "$nobodys" ]
rm -f "$linked_a" "$linked_b" "$nobodys"
check "and that attach leaves none of its own: $(ls -a /tmp | grep "gctop-agent-$FAKE" | head -2)" \
	sh -c "! ls -a /tmp | grep -q 'gctop-agent-$FAKE'"

# maphold: the library is mapped when the load request comes, and the reply
# never does. gctop removes the copy as soon as it is mapped, while it still
# waits (before: only once the reply came).
fake maphold
mapped_gone() { grep -q '^held' "$WORK/fake.log" && [ ! -e "$copy" ]; }
# Within 4.5 s of gctop's start: the reply's deadline (5 s from the
# request, after which gctop removes the copy anyway) has not passed.
kill_when 45 mapped_gone
check "the JVM mapped the copy ($(grep -c '^mapped' "$WORK/fake.log") maps)" grep -q "^mapped /tmp/.gctop-agent-$FAKE.so" "$WORK/fake.log"
check "gctop removed the mapped copy while still waiting for the reply (within 4.5 s of its start)" [ "$WAITED" -eq 0 ]
kill "$FAKE"
wait "$FAKE" 2>/dev/null

# A real JVM of the test user: gctop killed as soon as the agent is mapped.
setpriv --reuid="$SEC_UID" --regid="$SEC_GID" --clear-groups "$(command -v java)" -Xmx64m -cp "$classes" \
	AllocSites 20 60 >"$WORK/java.log" 2>&1 &
JPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID"
wait_for_hsperf "$JPID" 10 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 1; }
wait_until 50 "$GCTOP_BIN" -p "$JPID" --json -n 1 >/dev/null 2>&1
FAKE=$JPID
LEFT="$LEFT /tmp/.gctop-agent-$JPID.so /tmp/.attach_pid$JPID"
mapped() { grep -q gctop-agent "/proc/$JPID/maps"; }
kill_when 300 mapped
check "the JVM loaded the agent before gctop was killed" [ "$WAITED" -eq 0 ]
timeout 60 "$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/real.err"
rc=$?
check "the next --allocators on that JVM samples (status $rc: $(head -c 200 "$WORK/real.err"))" [ "$rc" -eq 0 ]
cwd=$(readlink "/proc/$JPID/cwd")
check "no file of gctop's is left: $(ls -a /tmp "$cwd" | grep -e "gctop-agent-$JPID" -e "attach_pid$JPID" | head -3)" \
	sh -c "! ls -a /tmp '$cwd' | grep -q -e 'gctop-agent-$JPID' -e 'attach_pid$JPID'"
# What a kill between the JVM's map and gctop's look at its maps leaves (the
# kill above lands there only by chance): the JVM's user's copy of the
# agent under its name. No attach comes to this JVM again (its agent runs),
# so the next gctop that samples it removes it.
copy=/tmp/.gctop-agent-$JPID.so
cp "$(dirname "$GCTOP_BIN")/libgctop-agent.so" "$copy" && chown "$SEC_UID:$SEC_GID" "$copy" && chmod 600 "$copy"
timeout 60 "$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/real.err"
rc=$?
check "a copy left after the JVM mapped it goes with the next --allocators on that JVM (status $rc)" \
	sh -c "[ $rc -eq 0 ] && [ ! -e '$copy' ]"
kill "$JPID"
FAKE=""
