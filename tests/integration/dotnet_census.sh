#!/bin/sh
# test-lane: measuring
# The .NET census of live objects (issue 28, collectors/dotnet/dotnet_census.c)
# against the program's own truth. tests/dotnet/CensusLeak leaks
# LeakedOrder objects in bursts of 4,000 every 500 ms among churn and
# prints, before each burst, its count, GC.CollectionCount(2), the latest
# full blocking collection's PromotedBytes and pause
# (GC.GetGCMemoryInfo(GCKind.FullBlocking)) and its ticker thread's longest
# stall. Two censuses 3 s apart, under Workstation and under Server GC:
# - each induces a full blocking collection (the program's latest full
#   blocking one changes: the runtime's own gen2 collections here are
#   background ones), and is complete;
# - its LeakedOrder count lies between the program's counts on either side
#   of that collection (exact but for a collection during a burst: one
#   burst of tolerance);
# - its total bytes are within 2% of the collection's PromotedBytes (the
#   runtime's own count of live bytes; 0.1-0.7% apart measured);
# - its pause is at least the runtime's for that collection (less 1 ms:
#   the runtime's clock starts before the event is written) and at most
#   the ticker's longest stall (which the pause stops);
# - the generic holder is named "System.Collections.Generic.List<LeakedOrder>";
# - between the two, the top growing type by bytes is LeakedOrder;
# - the watch session that opened the process is closed before the
#   census's opens, so the runtime does not fill a session nobody reads
#   while the census takes seconds: each of gctop's EventPipe sessions is
#   one stream and, while it is stopped, one StopTracing connection (open
#   ~0.1 s, until the runtime answers), so gctop holds at most 2 at once
#   (unix_peers.py most); with the watch stream kept beside the census's
#   stream and its StopTracing it held 3.
# Each census is gctop --census -p PID --json.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

last_full() { awk '$1 == "leak" { f = $6 } END { print f }' "$WORK/CensusLeak.out"; }
lines() { grep -c '^leak' "$WORK/CensusLeak.out"; }

for mode in workstation server; do
	[ "$mode" = server ] && export DOTNET_gcServer=1 || export DOTNET_gcServer=0
	start_dotnet CensusLeak 4 30 16
	f1=$(last_full)
	"$GCTOP_BIN" --census -p "$DPID" --json >"$WORK/c1.$mode" 2>"$WORK/c1.err" &
	G=$!
	most=$(python3 tests/integration/unix_peers.py most "$G" "$DPID")
	wait "$G" || { fail "$mode: census 1 failed: $(head -c 300 "$WORK/c1.err")"; kill "$DPID"; continue; }
	check "$mode: --census holds one session's connections at a time in the process ($most at most, 2 allowed)" \
		[ "$most" -le 2 ]
	n=$(lines)
	wait_until 50 lines_at_least "$WORK/CensusLeak.out" $((n + 2))
	sleep 2
	f2=$(last_full)
	"$GCTOP_BIN" --census -p "$DPID" --json >"$WORK/c2.$mode" 2>"$WORK/c2.err" ||
		{ fail "$mode: census 2 failed: $(head -c 300 "$WORK/c2.err")"; kill "$DPID"; continue; }
	n=$(lines)
	wait_until 50 lines_at_least "$WORK/CensusLeak.out" $((n + 2))
	kill "$DPID"
	wait "$DPID" 2>/dev/null
	cp "$WORK/CensusLeak.out" "$WORK/leak.$mode"
	comparator "dotnet_census_check.py ($mode)" env CENSUS_MODE="$mode" TEST_NAME="$TEST_NAME" python3 tests/integration/dotnet_census_check.py \
		"$WORK/leak.$mode" "$WORK/c1.$mode" "$WORK/c2.$mode" "$f1" "$f2"
done
