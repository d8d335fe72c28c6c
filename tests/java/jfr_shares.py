#!/usr/bin/env python3
"""The bytes by first application frame and by type in a JFR recording,
as the JDK's own `jfr print --json` reads its jdk.ObjectAllocationSample
events, each counted with its weight: what gctop's JFR source must show
for the same recording.

usage: jfr_shares.py PRINT_JSON [FIRST LAST]
prints "NAME PERCENT BYTES" per site and type, largest first, then
"(total) 100.0 BYTES". With FIRST and LAST, only the events FIRST to
LAST - 1 in the order jfr print gives them, which is the order of the
chunks' bytes: gctop reads the same chunks in the same order, so a
reading that has taken N samples has taken events 0 to N - 1."""
import json
import sys

RUNTIME = ("java.", "javax.", "jdk.", "sun.", "com.sun.")
PRIM = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int", "J": "long", "S": "short", "Z": "boolean"}


def type_name(n):
    dims = len(n) - len(n.lstrip("["))
    base = n[dims:]
    if dims:
        base = PRIM.get(base, base[1:-1] if base.startswith("L") else base)
    return base.replace("/", ".") + "[]" * dims


def site(st):
    names = [type_name(f["method"]["type"]["name"]) + "." + f["method"]["name"] for f in (st or {}).get("frames", [])]
    for n in names:
        if not n.startswith(RUNTIME):
            return n
    return names[0] if names else "(no Java frame)"


def main():
    events = json.load(open(sys.argv[1]))["recording"]["events"]
    if len(sys.argv) > 3:
        events = events[int(sys.argv[2]):int(sys.argv[3])]
    sums, total = {}, 0
    for e in events:
        v = e["values"]
        total += v["weight"]
        for k in (site(v["stackTrace"]), type_name(v["objectClass"]["name"])):
            sums[k] = sums.get(k, 0) + v["weight"]
    for k, w in sorted(sums.items(), key=lambda kv: -kv[1]):
        print("%s %.3f %d" % (k, 100.0 * w / total if total else 0.0, w))
    print("(total) 100.0 %d" % total)


main()
