#!/bin/sh
# sanitizer: yes
# Issue 36, item 1: a target that dies during a census is said to, with the
# kernel's reason. An unprivileged user's .NET process holding about 3 M
# small objects (tests/dotnet/SmallObjects: 150 MiB; its census's walk
# costs the runtime about 130 MiB, 44 bytes an object) in a memory cgroup
# of the test's own, limited to its usage + 60 MiB; root's gctop --census
# --census-anyway overrides the refusal, and the kernel's OOM killer ends
# the target. Bounded and safe: the group holds only this test's target
# (a memory cgroup's OOM kill chooses inside the group), gctop runs outside
# it, under a 120 s timeout. gctop exits 17 with one sentence naming the
# OOM kill and the group's oom_kill counts before and after, which equal
# the group's own file. Before, gctop said only "closed its diagnostics
# socket without an answer" (status 1).
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
require_dotnet
MIB=1048576
make_memory_cgroup gctop-census-oom $((1024 * MIB))
make_test_user
exe=$(dotnet_program SmallObjects) ||
	{ fail "cannot build tests/dotnet/SmallObjects (log: $WORK/dotnet-build-SmallObjects.log)"; exit 0; }
stage_for_others "${exe%/*}" || { fail "cannot stage SmallObjects where the test user can read it"; exit 0; }
exe=$STAGED/SmallObjects/SmallObjects
chmod 755 "$WORK"
mkdir "$WORK/home" && chown "$SEC_UID:$SEC_GID" "$WORK/home"

sh -c 'echo $$ >"$1/cgroup.procs" && exec setpriv --reuid="$2" --regid="$3" --clear-groups env HOME="$4" "$5" 150 300' \
	sh "$GROUP" "$SEC_UID" "$SEC_GID" "$WORK/home" "$exe" >"$WORK/target.out" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 300 grep -q '^ready' "$WORK/target.out"
wait_until 50 dotnet_socket_exists "$DPID"
dotnet_socket_exists "$DPID" || { fail "the .NET target did not start: $(head -c 300 "$WORK/target.out")"; exit 0; }

if [ -e "$GROUP/memory.oom_control" ]; then
	oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$GROUP/memory.oom_control"; }
	limit_file=memory.limit_in_bytes usage_file=memory.usage_in_bytes
else
	oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$GROUP/memory.events"; }
	limit_file=memory.max usage_file=memory.current
fi
echo $(($(cat "$GROUP/$usage_file") + 60 * MIB)) >"$GROUP/$limit_file"
before=$(oom_kills)

timeout -s KILL 120 "$GCTOP_BIN" --census --census-anyway -p "$DPID" >"$WORK/census.out" 2>"$WORK/census.err"
rc=$?
after=$(oom_kills)
check "the group's OOM killer ended the target ($before, now $after)" [ "$after" -gt "$before" ]
check "the target is gone" wait_until 50 sh -c '! kill -0 "$1" 2>/dev/null || grep -q "^State:.*Z" "/proc/$1/status"' - "$DPID"
check "gctop exits 17, its own status for a target that died (got $rc: $(head -c 300 "$WORK/census.err"))" [ "$rc" -eq 17 ]
check "one line on stderr, nothing on stdout" sh -c '[ "$(grep -c . "$1")" -eq 1 ] && [ ! -s "$2" ]' - \
	"$WORK/census.err" "$WORK/census.out"
check "the sentence says the target died of the kernel's OOM killer, with the group's counts ($(cat "$WORK/census.err"))" \
	grep -q "^gctop: \.NET process $DPID died during the census: the kernel's OOM killer ended it (its memory cgroup's oom_kill count went from $before to $after " \
	"$WORK/census.err"
