#!/usr/bin/env python3
"""The shares of bytes by first application frame and by type in a JFR
recording, as the JDK's own `jfr print --json` reads its
jdk.ObjectAllocationSample events, each counted with its weight: what
gctop's JFR source must show (within 5 points) for the same recording.

usage: jfr_shares.py PRINT_JSON [FROM UNTIL]
prints one line per site and type: "NAME PERCENT", largest first; with
FROM and UNTIL (seconds since the epoch), only the events that started
between them: gctop's window of the same recording."""
import datetime
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


def epoch_s(iso):
    """'2026-12-07T00:51:58.524725479Z' as seconds since the epoch."""
    head, _, frac = iso.rstrip("Z").partition(".")
    t = datetime.datetime.strptime(head, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    return t.timestamp() + (float("0." + frac) if frac else 0.0)


def main():
    events = json.load(open(sys.argv[1]))["recording"]["events"]
    span = (float(sys.argv[2]), float(sys.argv[3])) if len(sys.argv) > 3 else None
    sums, total = {}, 0
    for e in events:
        v = e["values"]
        if span and not span[0] <= epoch_s(v["startTime"]) <= span[1]:
            continue
        total += v["weight"]
        for k in (site(v["stackTrace"]), type_name(v["objectClass"]["name"])):
            sums[k] = sums.get(k, 0) + v["weight"]
    for k, w in sorted(sums.items(), key=lambda kv: -kv[1]):
        print("%s %.1f" % (k, 100.0 * w / total if total else 0.0))


main()
