#!/bin/sh
# test-lane: measuring
# The stacks behind an allocation site when a NuGet library does all the
# allocating, on .NET 10 and 8: LibJson's one application method,
# Program.Convert, serializes a 20-level tree with Newtonsoft.Json and reads
# it back, so every large string and array is allocated inside the library
# (or the framework under it), some 70 frames below the site when reading
# the leaf. With Newtonsoft. among the runtime's packages
# (--allocator-packages), asserted:
#   the top site is Program.Convert with most bytes
#   every stack kept of it holds it, followed by its caller Program.Main
#     (before the fix a stack deeper than 64 frames lost the site), and the
#     top stack holds frames below it
#   a top stack names Newtonsoft.Json frames; every frame before the site
#     is the runtime's or the library's
# A NuGet source that cannot be reached skips a case with a message.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
PACKAGES=System.,Microsoft.,Newtonsoft.

# lib_case LABEL EXE: about 40 rounds a second for at most 30 s (killed
# sooner); gctop attaches once the program has run one round. Tiering is
# off, so that round compiled every method once for good: with it on,
# Program.Convert's tier-1 code came after the attach, its frames read
# [native] until its late name arrived, and on a loaded machine that was
# after gctop's last output (the top site 0.60 of the bytes, the rest under
# Program.Main). Late names are dotnet_late_names' subject, not this one's.
lib_case() {
	label=$1
	DOTNET_TieredCompilation=0 "$2" 40 30 >"$WORK/$label.out" 2>&1 &
	DPID=$!
	CHILD_PIDS="$CHILD_PIDS $DPID"
	wait_until 100 lines_at_least "$WORK/$label.out" 1
	"$GCTOP_BIN" -p "$DPID" --allocators --allocator-packages "$PACKAGES" --json -d 1 -n 4 \
		>"$WORK/$label.json" 2>"$WORK/$label.err"
	rc=$?
	check "$label: gctop --allocators --json exits 0 ($(head -c 300 "$WORK/$label.err"))" [ "$rc" -eq 0 ]
	comparator "stacks_check.py ($label)" python3 tests/integration/stacks_check.py "$WORK/$label.json" "dotnet_lib_stacks: $label" \
		Program.Convert Program.Main Newtonsoft.Json. "$PACKAGES"
	kill "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	rm -f /tmp/dotnet-diagnostic-"$DPID"-*-socket
}

# restore_failed LOG: the build failed restoring a package (no NuGet source).
restore_failed() {
	grep -qE "error NU1(101|102|301|302)" "$1" 2>/dev/null
}

if LIBJSON=$(dotnet_program LibJson); then
	lib_case net10 "$LIBJSON"
elif restore_failed "$WORK/dotnet-build-LibJson.log"; then
	skip_unless_ci nuget "net10: Newtonsoft.Json cannot be restored here: $(grep -m1 -E "error NU1" "$WORK/dotnet-build-LibJson.log")"
else
	fail "cannot build tests/dotnet/LibJson (log: $WORK/dotnet-build-LibJson.log)"
fi
# .NET 8: AllocationTick events rather than AllocationSampled, the same
# stacks; published self-contained with the runtime pack from NuGet.
if LIBJSON8=$(dotnet_program_net LibJson 8); then
	lib_case net8 "$LIBJSON8"
else
	skip_unless_ci nuget "net8: the .NET 8 runtime pack or Newtonsoft.Json cannot be restored here: $LIBJSON8"
fi
