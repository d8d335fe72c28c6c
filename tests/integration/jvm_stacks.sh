#!/bin/sh
# The stacks behind an allocation site on a JVM: FormatText's Report.line
# formats numbers with String.format, so java.util.Formatter and java.lang
# allocate on its behalf. Through gctop's agent (loaded by --allocators):
#   the top site by first application frame is FormatText$Report.line
#   its top stacks run through java.util.Formatter frames up to the site
#     and its caller, with shares of the site's bytes in 0..1
#   every frame before the site is the runtime's (java., jdk., sun.)
#   -b names the top stack under the allocator tables
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$classes" FormatText 40
wait_for_hsperf "$JPID" 15 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 0; }

"$GCTOP_BIN" -p "$JPID" --allocators --json -d 1 -n 4 >"$WORK/g.json" 2>"$WORK/g.err"
check "gctop --allocators --json exits 0 ($(head -c 300 "$WORK/g.err"))" [ $? -eq 0 ]

python3 - "$WORK/g.json" <<'PY' || fail "the check script failed"
import json, sys
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = []
def check(ok, what):
    out.append(("PASS" if ok else "FAIL") + ": jvm_stacks: " + what)
a = g[-1].get("top_allocators") if g else None
if not a or not a.get("by_frame"):
    check(False, "no top allocators in gctop's output (%d lines)" % len(g))
    print("\n".join(out)); sys.exit(0)
top = a["by_frame"][0]
site = "FormatText$Report.line"
check(top["frame"] == site and top["share"] > 0.8, "the top site is %s with most bytes: %s %.3f" % (site, top["frame"], top["share"]))
stacks = top.get("stacks") or []
check(len(stacks) >= 2, "the top site has several stacks (%d)" % len(stacks))
fmt = [s for s in stacks if any(f.startswith("java.util.Formatter") for f in s["frames"])]
check(len(fmt) >= 1, "a top stack names java.util.Formatter frames: %s" % [s["frames"][:4] for s in stacks])
for s in stacks:
    f = s["frames"]
    if site not in f:
        check(False, "a stack without its site: %s" % f)
        continue
    i = f.index(site)
    check(all(x.startswith(("java.", "jdk.", "sun.")) for x in f[:i]), "frames before the site are the runtime's: %s" % f[:i])
    check(f[i + 1:i + 2] == ["FormatText.main"], "the site's caller follows it: %s" % f[i:])
shares = [s["share"] for s in stacks]
check(all(0 < x <= 1 for x in shares) and sum(shares) <= 1.0001 and shares == sorted(shares, reverse=True),
      "stack shares are in 0..1, sum to at most 1 and come largest first: %s" % shares)
print("\n".join(out))
PY

"$GCTOP_BIN" -p "$JPID" --allocators -b -d 1 -n 2 >"$WORK/b.txt" 2>"$WORK/b.err"
check "gctop --allocators -b exits 0 ($(head -c 300 "$WORK/b.err"))" [ $? -eq 0 ]
check "-b names the top stack of the top site" grep -q 'top stack of FormatText\$Report.line: ' "$WORK/b.txt"
check "-b lists java. frames under it" grep -q "^    java\." "$WORK/b.txt"
