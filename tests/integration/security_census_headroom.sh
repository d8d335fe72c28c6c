#!/bin/sh
# sanitizer: yes
# Issue 36, item 1: a census must never kill its target. A .NET process of
# an unprivileged user, holding a 100 MiB cache, in a memory cgroup whose
# limit is its usage + 60 MiB (as the review's CensusFill was OOM-killed
# in): root's gctop --census refuses with one sentence that names the
# census's expected cost and the target's headroom and --census-anyway,
# and status 16; nothing is asked of the runtime, so the target lives and
# its cgroup counts no OOM kill. The headroom it names is the group's own
# (its limit less its working set, read from the group's files beside it,
# within 16 MiB: the program leaks about 1 MiB a second); the cost covers
# the heap it holds. --census-anyway then takes the census (this program's
# few large objects cost the runtime little), and the target still lives.
# Before, gctop took the census whatever the room (status 0 here; on the
# review's CensusFill, an OOM kill and "closed its diagnostics socket
# without an answer").
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
require_dotnet
MIB=1048576
make_memory_cgroup gctop-census $((1024 * MIB))
make_test_user
exe=$(dotnet_program CensusLeak) || { fail "cannot build tests/dotnet/CensusLeak (log: $WORK/dotnet-build-CensusLeak.log)"; exit 0; }
stage_for_others "${exe%/*}" || { fail "cannot stage CensusLeak where the test user can read it"; exit 0; }
exe=$STAGED/CensusLeak/CensusLeak
chmod 755 "$WORK"
mkdir "$WORK/home" && chown "$SEC_UID:$SEC_GID" "$WORK/home"

# Root puts the shell in the group, which then becomes the user's program.
sh -c 'echo $$ >"$1/cgroup.procs" && exec setpriv --reuid="$2" --regid="$3" --clear-groups env HOME="$4" "$5" 120 100' \
	sh "$GROUP" "$SEC_UID" "$SEC_GID" "$WORK/home" "$exe" >"$WORK/target.out" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 150 lines_at_least "$WORK/target.out" 2
wait_until 50 dotnet_socket_exists "$DPID"
dotnet_socket_exists "$DPID" || { fail "the .NET target did not start: $(head -c 300 "$WORK/target.out")"; exit 0; }

if [ -e "$GROUP/memory.oom_control" ]; then
	oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$GROUP/memory.oom_control"; }
	limit_file=memory.limit_in_bytes usage_file=memory.usage_in_bytes inactive_key=total_inactive_file
else
	oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$GROUP/memory.events"; }
	limit_file=memory.max usage_file=memory.current inactive_key=inactive_file
fi
working_set() {
	u=$(cat "$GROUP/$usage_file")
	i=$(awk -v k="$inactive_key" '$1 == k { print $2 }' "$GROUP/memory.stat")
	echo $((u - i))
}
limit=$(($(cat "$GROUP/$usage_file") + 60 * MIB))
echo "$limit" >"$GROUP/$limit_file"
oom_before=$(oom_kills)

"$GCTOP_BIN" --census -p "$DPID" >"$WORK/refused.out" 2>"$WORK/refused.err"
rc=$?
truth=$(( (limit - $(working_set)) / MIB ))
sentence=$(cat "$WORK/refused.err")
check "too little headroom: status 16, not a census (got $rc: $(head -c 300 "$WORK/refused.err"))" [ "$rc" -eq 16 ]
check "one line on stderr" [ "$(grep -c . "$WORK/refused.err")" -eq 1 ]
check "nothing on stdout" [ ! -s "$WORK/refused.out" ]
cost=$(sed -n 's/.*would cost \.NET process [0-9]* about \([0-9]*\) MiB of memory.*/\1/p' "$WORK/refused.err")
room=$(sed -n 's/.*more than its headroom of \([0-9]*\) MiB (its container.s memory limit less its working set).*/\1/p' \
	"$WORK/refused.err")
both_set() { [ -n "$1" ] && [ -n "$2" ]; }
check "the sentence names the cost and the container's headroom ($sentence)" both_set "$cost" "$room"
both_set "$cost" "$room" || exit 0
check "the sentence names the override" grep -q -- "--census-anyway takes it all the same" "$WORK/refused.err"
near() { [ $(($1 - $2)) -le 16 ] && [ $(($2 - $1)) -le 16 ]; }
check "the headroom $room MiB is the group's limit less its working set, $truth MiB (within 16 MiB)" near "$room" "$truth"
check "the cost $cost MiB covers the 100 MiB cache the heap holds, and is more than the headroom" \
	sh -c '[ "$1" -gt 100 ] && [ "$1" -gt "$2" ]' - "$cost" "$room"
check "the target lives" kill -0 "$DPID"
check "its cgroup counts no OOM kill ($oom_before, now $(oom_kills))" [ "$(oom_kills)" = "$oom_before" ]

"$GCTOP_BIN" --census --census-anyway -p "$DPID" >"$WORK/anyway.out" 2>"$WORK/anyway.err"
rc=$?
check "--census-anyway takes it (status $rc: $(head -c 300 "$WORK/anyway.err"))" [ "$rc" -eq 0 ]
check "and writes the census" grep -q "^Census of the live objects of .NET $DPID" "$WORK/anyway.out"
check "the target still lives" kill -0 "$DPID"
check "its cgroup still counts no OOM kill" [ "$(oom_kills)" = "$oom_before" ]
