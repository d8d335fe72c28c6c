#!/usr/bin/env python3
"""Prints "a b" (a before b, no .c) for every pair of modules that need
each other, one pair a line.

Module a needs module b when a.c calls (or uses) something b.c defines.
Includes alone would miss the usual circle, a helper of a.c declared in
b.h (so b.c includes only its own header, yet calls back into a.c), and
would see one where a folder's files share an internal header for its
types. What each file defines and uses is read from its object (nm), the
compiler's own answer, not guessed from the text.

Usage: include_circles.py OBJ_DIR FILE.c...
(OBJ_DIR/x/y.o is the object of x/y.c).
"""
import os
import subprocess
import sys


def symbols(objs):
    """{obj: (defined, used)}: the external symbols of each object, read by
    one nm for them all (an nm apiece cost ~0.1 s of CPU each, 220 times)."""
    out = subprocess.run(["nm", "-P", "-A", *objs], check=True, capture_output=True, text=True).stdout
    table = {obj: (set(), set()) for obj in objs}
    for line in out.splitlines():
        obj, sep, rest = line.partition(": ")
        parts = rest.split()
        if not sep or obj not in table or len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        defined, used = table[obj]
        if kind == "U":
            used.add(name)
        elif kind in "TDRBCGS":
            defined.add(name)
    return table


def main():
    obj_dir, sources = sys.argv[1], sys.argv[2:]
    modules = [s[:-2] for s in sources]
    needs = {m: set() for m in modules}
    owner, used_by = {}, {}
    objs = {m: os.path.join(obj_dir, m + ".o") for m in modules}
    for obj in objs.values():
        if not os.path.exists(obj):
            print(f"{obj} is missing: build first (make test-bins)", file=sys.stderr)
            return 2
    table = symbols(list(objs.values()))
    for m in modules:
        defined, used = table[objs[m]]
        for s in defined:
            owner[s] = m
        used_by[m] = used
    for m, used in used_by.items():
        needs[m].update(owner[s] for s in used if s in owner and owner[s] != m)
    pairs = {tuple(sorted((a, b))) for a in needs for b in needs[a] if a in needs.get(b, ())}
    for a, b in sorted(pairs):
        print(a, b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
