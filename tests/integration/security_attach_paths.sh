#!/bin/sh
# sanitizer: yes
# Issue 10, item 1: root's gctop --allocators must never create, or leave,
# a file where the target's owner points. A fake JVM (as an unprivileged
# user, chrooted into a directory it owns) swaps its /tmp with a link to a
# root-only directory of ours over and over; another one moves out of a
# root-owned working directory once it is signalled, so a trigger removed
# by path would stay behind.
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
make_test_user
build_fake
agent_for_tests

# The root-only directory the link points at (by our absolute path).
victim="$WORK/victim"
mkdir -m 0700 "$victim"

# flip: the listener runs, /tmp and a link to $victim trade places.
R="$WORK/root"
mkdir -p "$R/tmp" "$R/work"
ln -s "$victim" "$R/tmp.alt"
chown -R "$SEC_UID:$SEC_GID" "$R"
chown -h "$SEC_UID:$SEC_GID" "$R/tmp.alt"
start_fake flip "$R" "$WORK/libjvm.so"
runs=12 i=0
while [ "$i" -lt "$runs" ]; do
	timeout 20 "$GCTOP_BIN" -p "$FAKE" --allocators=agent --json -n 1 >/dev/null 2>>"$WORK/flip.err"
	i=$((i + 1))
done
loads=$(grep -c '^load ' "$WORK/fake.log")
check "the attach conversation was reached in some of $runs runs ($loads loads; $(sort "$WORK/flip.err" | uniq -c | head -3))" \
	[ "$loads" -ge 1 ]
check "nothing was created in the root-only directory the link points at: $(ls -A "$victim" | head -3)" \
	[ -z "$(ls -A "$victim")" ]
check "no agent copy or part file is left in the JVM's /tmp: $(ls -A "$R/tmp" "$R/tmp.alt" 2>/dev/null | grep gctop-agent | head -3)" \
	sh -c "! ls -A '$R/tmp' '$R/tmp.alt' 2>/dev/null | grep -q gctop-agent"
kill "$FAKE"
wait "$FAKE" 2>/dev/null

# chdir: a root-owned working directory, left for /work on SIGQUIT.
: >"$WORK/fake.log"
R2="$WORK/root2"
mkdir -p "$R2/tmp" "$R2/work" "$R2/rootdir"
chown "$SEC_UID:$SEC_GID" "$R2" "$R2/tmp" "$R2/work"
chmod 0755 "$R2/rootdir"
start_fake chdir "$R2" "$WORK/libjvm.so"
timeout 20 "$GCTOP_BIN" -p "$FAKE" --allocators=agent --json -n 1 >/dev/null 2>"$WORK/chdir.err"
check "the JVM was signalled to start its listener and then asked to load" \
	sh -c "grep -q '^sigquit' '$WORK/fake.log' && grep -q '^load ' '$WORK/fake.log'"
check "no trigger was made (or left) in the root-owned working directory: $(ls -A "$R2/rootdir")" \
	[ -z "$(ls -A "$R2/rootdir")" ]
check "no trigger is left in the JVM's /tmp or /work: $(ls -A "$R2/tmp" "$R2/work" | grep attach_pid)" \
	sh -c "! ls -A '$R2/tmp' '$R2/work' | grep -q attach_pid"
