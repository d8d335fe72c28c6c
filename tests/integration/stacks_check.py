"""Checks the stacks behind the top site in gctop --allocators --json output
(tests/integration/dotnet_stacks.sh, jvm_stacks.sh); prints PASS/FAIL lines.

usage: stacks_check.py FILE TEST SITE CALLER LIBRARY RUNTIME [--top-only]
  SITE     the top site expected (by first application frame), with > 80% of bytes;
           every stack kept of it must hold it, and the top one frames below it
  CALLER   the frame expected right after SITE in every stack
  LIBRARY  a frame prefix a top stack must name (the library that allocates)
  RUNTIME  comma-separated prefixes every frame before SITE must have
           ([native] and [...] are allowed too)
  --top-only  LIBRARY must be in the top stack itself, not only in one of them
"""
import json
import re
import sys

path, test, site, caller, library, runtime = sys.argv[1:7]
top_only = "--top-only" in sys.argv[7:]
prefixes = tuple(runtime.split(",")) + ("[native]", "[...]")


def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": " + test + ": " + what, flush=True)


g = [json.loads(l) for l in open(path) if l.strip()]
a = g[-1].get("top_allocators") if g else None
if not a or not a.get("by_frame"):
    check(False, "no top allocators in gctop's output (%d lines)" % len(g))
    sys.exit(0)
top = a["by_frame"][0]
check(top["frame"] == site and top["share"] > 0.8,
      "the top site is %s with most bytes: %s %.3f" % (site, top["frame"], top["share"]))
stacks = top.get("stacks") or []
check(len(stacks) >= 1, "the top site has stacks (%d)" % len(stacks))
named = [s for s in (stacks[:1] if top_only else stacks) if any(f.startswith(library) for f in s["frames"])]
check(len(named) >= 1, "%s stack names %s frames: %s" % ("the top" if top_only else "a top", library,
                                                         [s["frames"][:6] for s in stacks[:3]]))
first = stacks[0]["frames"] if stacks else []
check(site in first and first.index(site) > 0,
      "the top stack holds frames below its site (what allocated on its behalf): %s" % first[:4])
for s in stacks:
    f = s["frames"]
    if site not in f:
        check(False, "a stack without its site: %s" % f)
        continue
    i = f.index(site)
    check(all(x.startswith(prefixes) for x in f[:i]), "frames before the site are the runtime's: %s" % f[:i])
    check(f[i + 1:i + 2] == [caller], "the site's caller follows it: %s" % f[i:])
shares = [s["share"] for s in stacks]
check(all(0 < x <= 1 for x in shares) and sum(shares) <= 1.0001 and shares == sorted(shares, reverse=True),
      "stack shares are in 0..1, sum to at most 1 and come largest first: %s" % shares)
check(isinstance(top.get("stacks_dropped"), int) and isinstance(top.get("stacks_distinct"), int),
      "the site says how many stacks it kept and dropped")
names = [f["frame"] for f in a["by_frame"]] + [x for f in a["by_frame"] for s in (f.get("stacks") or []) for x in s["frames"]]
check(not any(re.match(r"^(0x)?[0-9a-fA-F]{6,}$", n) for n in names), "no site or frame is an address")
check(not any("g__" in n or "<<" in n for n in names), "no compiler-generated local function name is left")
