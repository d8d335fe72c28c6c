#!/bin/sh
# The stacks behind an allocation site on .NET 10: JsonText serializes a
# 200,000-character string with System.Text.Json from a local function of
# its top-level statements, so nearly every byte it allocates is the
# serializer's JSON text. Asserted:
#   the top site by first application frame is the local function, named in
#     source form (Program.<Main>$.Serialize, not <<Main>$>g__Serialize|0_0)
#   the top stack of that site runs through System.Text.Json frames up to
#     the site and its caller, with shares of the site's bytes in 0..1
#   no site and no frame is an address: unresolved code is [native]
#   -b names the same top stack under the allocator tables
# gctop attaches as soon as the workload starts, while its methods tier up.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
# ~40 MB/s of JSON text for at most 30 s; the cleanup kills it sooner
start_dotnet JsonText 1 100 30
# Attached at once, while the serializer tiers up: a method whose load
# comes after samples in its new code must still be named, and its samples
# be the local function's site, not its caller's.

"$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 4 >"$WORK/g.json" 2>"$WORK/g.err"
check "gctop --allocators --json exits 0 ($(head -c 300 "$WORK/g.err"))" [ $? -eq 0 ]

python3 tests/integration/stacks_check.py "$WORK/g.json" dotnet_stacks "Program.<Main>\$.Serialize" "Program.<Main>\$" \
	System.Text.Json. System. --top-only || fail "the check script failed"

"$GCTOP_BIN" -p "$DPID" --allocators -b -d 1 -n 3 >"$WORK/b.txt" 2>"$WORK/b.err"
check "gctop --allocators -b exits 0 ($(head -c 300 "$WORK/b.err"))" [ $? -eq 0 ]
check "-b names the top stack of the top site" grep -q "top stack of Program.<Main>\$.Serialize: " "$WORK/b.txt"
check "-b lists System.Text.Json frames under it" grep -q "^    System\.Text\.Json\." "$WORK/b.txt"
