#!/bin/sh
# test-lane: measuring
# gctop's EventPipe session is harmless to a .NET target: two gctops watch one
# process at once; a SIGKILLed gctop leaves no session behind (the runtime
# ends a session whose socket closes), so the target closes its ends of
# that gctop's connections and a new session works; a process without
# diagnostics gets one clear sentence; --list finds the process. The test
# counts its own gctops' connections only (tests/lib.sh, gctop_ends): it
# passes with another gctop or dotnet-counters watching the machine.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
out=$(dirname "$exe")
GCALLOC="$out/GcAlloc"



# a light workload, with a heap hard limit; it outlives the test on a busy
# machine (it ran out at 30 s once, before --list looked) and the cleanup
# kills it
DOTNET_GCHeapHardLimit=0x20000000 "$GCALLOC" 10 180 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"

# two gctops at once, each ending at its -n
before_two=$(orphan_ends "$DPID")
"$GCTOP_BIN" -p "$DPID" --json -d 0.5 -n 6 >"$WORK/a.json" 2>"$WORK/a.err" &
A=$!
"$GCTOP_BIN" -p "$DPID" --json -d 0.5 -n 6 >"$WORK/b.json" 2>"$WORK/b.err"
rb=$?
wait "$A"
ra=$?
check "two gctops on one process both exit 0 ($ra, $rb: $(cat "$WORK/a.err" "$WORK/b.err" | head -c 300))" eval '[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]'
ca=$(json_get "$WORK/a.json" -1 'd["alloc"]["bytes_total"] is not None and d["generations"][0]["collections"] is not None')
cb=$(json_get "$WORK/b.json" -1 'd["alloc"]["bytes_total"] is not None and d["generations"][0]["collections"] is not None')
check "both see allocation and collections ($ca, $cb)" eval '[ "$ca" = True ] && [ "$cb" = True ]'
limit=$(json_get "$WORK/a.json" -1 'd["memory"]["gc_hard_limit_bytes"]')
truth=$(json_get "$WORK/truth" 1 'd["available"]')
check "GC hard limit $limit equals the runtime's TotalAvailableMemoryBytes $truth" [ "$limit" = "$truth" ]
# (their sessions existed: both saw figures above; a connection the
# runtime kept after they ended would be an orphan, its client gone)
wait_until 50 no_orphan_ends "$DPID" $before_two
check "two gctops that reached -n left no connection behind (left open: $(echo $(orphan_ends "$DPID" $before_two)))" \
	eval 'kill -0 "$DPID" && no_orphan_ends "$DPID" $before_two'

# SIGKILL: no StopTracing is sent; the runtime must notice the closed stream
"$GCTOP_BIN" -p "$DPID" --json -d 0.5 >"$WORK/k.json" 2>&1 &
K=$!
wait_until 100 lines_at_least "$WORK/k.json" 2
ends=$(gctop_ends "$K" "$DPID")
check "the session is a connection of gctop's in the target while it runs ($(echo $ends))" [ -n "$ends" ]
kill -9 "$K"
wait "$K" 2>/dev/null
wait_until 50 ends_closed "$DPID" "$ends"
check "after SIGKILL the target closes its ends of gctop's connections within 5 s ($(echo $ends))" ends_closed "$DPID" "$ends"
# This gctop runs until told: its ends are read while it surely runs (a
# -n 3 run could end before the reading, on a busy machine it did), then
# ^C ends it as a terminal's user would, through the same session close
# as the end of -n (frontends/batch_mode.c).
"$GCTOP_BIN" -p "$DPID" --json -d 0.5 >"$WORK/c.json" 2>"$WORK/c.err" &
C=$!
wait_until 100 lines_at_least "$WORK/c.json" 1
ends=$(gctop_ends "$C" "$DPID")
kill -INT "$C"
wait "$C"
rc=$?
check "a new session works after the kill (exit $rc on ^C, 0 wanted)" eval '[ -s "$WORK/c.json" ] && [ "$rc" -eq 0 ]'
check "the target is still running" kill -0 "$DPID"
wait_until 50 ends_closed "$DPID" "$ends"
# (the target must still run, and the gctop must have had its session, or
# this would pass for nothing)
check "a gctop ended by ^C leaves no connection behind ($(echo $ends) closed)" \
	eval 'kill -0 "$DPID" && ends_closed "$DPID" "$ends"'

# --list finds it without opening a session: when it has exited, nothing it
# opened is left in the target (a session's end would stay until the
# runtime writes to it)
before=$(orphan_ends "$DPID")
"$GCTOP_BIN" -l --json >"$WORK/list.json" 2>"$WORK/list.err"
found=$(python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for x in rows for r in (x if isinstance(x, list) else [x])]
print(any(str(sys.argv[2]) in json.dumps(r) and "dotnet" in json.dumps(r) for r in rows))' "$WORK/list.json" "$DPID" 2>&1)
check "gctop --list shows the .NET process ($found)" [ "$found" = True ]
check "--list opened no session (left open: $(echo $(orphan_ends "$DPID" $before)))" \
	eval 'kill -0 "$DPID" && no_orphan_ends "$DPID" $before'

# diagnostics off: one sentence, exit 6 (no data)
DOTNET_EnableDiagnostics=0 "$GCALLOC" 1 20 >/dev/null 2>&1 &
OFF=$!
CHILD_PIDS="$CHILD_PIDS $OFF"
wait_until 50 grep -q libcoreclr /proc/"$OFF"/maps 2>/dev/null
"$GCTOP_BIN" -p "$OFF" --json -n 1 >/dev/null 2>"$WORK/off.err"
rc=$?
check "DOTNET_EnableDiagnostics=0 exits 6 (got $rc)" [ "$rc" -eq 6 ]
check "and says why: $(cat "$WORK/off.err")" grep -q "DOTNET_EnableDiagnostics=0" "$WORK/off.err"

# a process in its own pid and mount namespaces, as in a container seen from
# the host: its socket is named after its inner pid and found through
# /proc/PID/root (needs root for unshare)
if [ "$(id -u)" -eq 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	unshare --pid --fork --mount-proc "$GCALLOC" 10 8 >/dev/null 2>&1 &
	U=$!
	CHILD_PIDS="$CHILD_PIDS $U"
	NSP=""
	i=0
	while [ -z "$NSP" ] && [ "$i" -lt 50 ]; do
		NSP=$(pgrep -P "$U" -f GcAlloc | head -1)
		sleep 0.1
		i=$((i + 1))
	done
	wait_until 50 dotnet_socket_exists 1 /proc/"$NSP"/root
	"$GCTOP_BIN" -p "$NSP" --json -d 0.5 -n 4 >"$WORK/ns.json" 2>"$WORK/ns.err"
	check "a process in another pid namespace is watched ($(head -c 200 "$WORK/ns.err"))" [ -s "$WORK/ns.json" ]
	seen=$(json_get "$WORK/ns.json" -1 'd["runtime"] == "dotnet" and d["generations"][0]["collections"] is not None')
	check "and its figures arrive ($seen)" [ "$seen" = True ]
	kill "$U" "$NSP" 2>/dev/null
else
	skip_unless_ci namespace "pid namespaces need root and unshare"
fi

# The runtime leaves its socket behind when killed: remove those of ours.
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
for p in $CHILD_PIDS $NSP; do rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
