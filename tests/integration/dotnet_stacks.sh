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

python3 - "$WORK/g.json" <<'PY' || fail "the check script failed"
import json, re, sys
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = []
def check(ok, what):
    out.append(("PASS" if ok else "FAIL") + ": dotnet_stacks: " + what)
a = g[-1].get("top_allocators") if g else None
if not a or not a.get("by_frame"):
    check(False, "no top allocators in gctop's output (%d lines)" % len(g))
    print("\n".join(out)); sys.exit(0)
top = a["by_frame"][0]
check(top["frame"] == "Program.<Main>$.Serialize" and top["share"] > 0.9,
      "the top site is the local function in source form with most bytes: %s %.3f" % (top["frame"], top["share"]))
stacks = top.get("stacks") or []
check(len(stacks) >= 1, "the top site has stacks (%d)" % len(stacks))
frames = stacks[0]["frames"] if stacks else []
check(any(f.startswith("System.Text.Json.") for f in frames),
      "the top stack names System.Text.Json frames: %s" % frames)
check("Program.<Main>$.Serialize" in frames and "Program.<Main>$" in frames,
      "the top stack goes up to the site and its caller")
if "Program.<Main>$.Serialize" in frames:
    i = frames.index("Program.<Main>$.Serialize")
    check(all(f.startswith("System.") or f == "[native]" for f in frames[:i]),
          "every frame before the site is the runtime's or native: %s" % frames[:i])
shares = [s["share"] for s in stacks]
check(all(0 < x <= 1 for x in shares) and sum(shares) <= 1.0001 and shares == sorted(shares, reverse=True),
      "stack shares are in 0..1, sum to at most 1 and come largest first: %s" % shares)
check(stacks and stacks[0]["share"] > 0.5, "the top stack holds most of the site's bytes")
check(isinstance(top.get("stacks_dropped"), int) and isinstance(top.get("stacks_distinct"), int),
      "the site says how many stacks it kept and dropped")
names = [f["frame"] for f in a["by_frame"]] + [x for f in a["by_frame"] for s in (f.get("stacks") or []) for x in s["frames"]]
check(not any(re.match(r"^(0x)?[0-9a-fA-F]{6,}$", n) for n in names), "no site or frame is an address")
check(not any("g__" in n or "<<" in n for n in names), "no compiler-generated local function name is left")
print("\n".join(out))
PY

"$GCTOP_BIN" -p "$DPID" --allocators -b -d 1 -n 3 >"$WORK/b.txt" 2>"$WORK/b.err"
check "gctop --allocators -b exits 0 ($(head -c 300 "$WORK/b.err"))" [ $? -eq 0 ]
check "-b names the top stack of the top site" grep -q "top stack of Program.<Main>\$.Serialize: " "$WORK/b.txt"
check "-b lists System.Text.Json frames under it" grep -q "^    System\.Text\.Json\." "$WORK/b.txt"
