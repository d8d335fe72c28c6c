#!/bin/sh
# The stacks behind an allocation site on .NET 10 and 8: JsonText serializes a
# 200,000-character string with System.Text.Json from a local function of
# its top-level statements, so nearly every byte it allocates is the
# serializer's JSON text. Asserted:
#   the top site by first application frame is the local function, named in
#     source form (Program.<Main>$.Serialize, not <<Main>$>g__Serialize|0_0)
#   the top stack of that site runs through System.Text.Json frames up to
#     the site and its caller, with shares of the site's bytes in 0..1
#   no site and no frame is an address: unresolved code is [native]
#   -b names the same top stack under the allocator tables
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
# stacks_case LABEL EXE: the checks against EXE (JsonText), ~40 MB/s of JSON
# text for at most 30 s (killed sooner). gctop attaches as soon as the
# workload starts, while its methods tier up: a method whose load comes
# after samples in its new code must still be named, and its samples be
# the local function's site, not its caller's.
stacks_case() {
	label=$1
	"$2" 100 30 >"$WORK/$label.out" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 100 lines_at_least "$WORK/$label.out" 1
	"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 4 >"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	check "$label: gctop --allocators --json exits 0 ($(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	comparator "stacks_check.py ($label)" python3 tests/integration/stacks_check.py "$WORK/$label.json" "dotnet_stacks: $label" \
		"Program.<Main>\$.Serialize" "Program.<Main>\$" System.Text.Json. System. --top-only
	"$GCTOP_BIN" -p "$DPID" --allocators -b -d 1 -n 3 >"$WORK/$label.txt" 2>"$WORK/$label.berr"
	rc=$?
	check "$label: gctop --allocators -b exits 0 ($(head -c 300 "$WORK/$label.berr"))" [ "$rc" -eq 0 ]
	check "$label: -b names the top stack of the top site" grep -q "top stack of Program.<Main>\$.Serialize: " "$WORK/$label.txt"
	check "$label: -b lists System.Text.Json frames under it" grep -q "^    System\.Text\.Json\." "$WORK/$label.txt"
	kill "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	rm -f /tmp/dotnet-diagnostic-"$DPID"-*-socket
}

JSONTEXT=$(dotnet_program JsonText) ||
	{ fail "cannot build tests/dotnet/JsonText (log: $WORK/dotnet-build-JsonText.log)"; exit 0; }
stacks_case net10 "$JSONTEXT"
# .NET 8: AllocationTick events (one per ~100 KB, the object that crossed)
# rather than .NET 10's AllocationSampled, and the same stacks; the program
# published self-contained with the runtime pack from NuGet.
if JSONTEXT8=$(dotnet_program_net JsonText 8); then
	stacks_case net8 "$JSONTEXT8"
else
	skip_unless_ci nuget "net8: the .NET 8 runtime pack cannot be restored here: $JSONTEXT8"
fi
