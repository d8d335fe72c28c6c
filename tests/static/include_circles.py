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


def symbols(obj):
    """(defined, used) external symbols of an object."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            used.add(name)
        elif kind in "TDRBCGS":
            defined.add(name)
    return defined, used


def main():
    obj_dir, sources = sys.argv[1], sys.argv[2:]
    modules = [s[:-2] for s in sources]
    needs = {m: set() for m in modules}
    owner, used_by = {}, {}
    for m in modules:
        obj = os.path.join(obj_dir, m + ".o")
        if not os.path.exists(obj):
            print(f"{obj} is missing: build first (make test-bins)", file=sys.stderr)
            return 2
        defined, used = symbols(obj)
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
