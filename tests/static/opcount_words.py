#!/usr/bin/env python3
""""ops" names interface tables (struct gt_backend_ops, struct gt_pane_ops,
gt_hotspot_ops, a target's ->ops); the operations counter behind bytes per
operation (--ops NAME) is "opcount" in code (opcount_total, set_opcount,
model/opcount_spec.c). One word for one thing, so that a reader of
`t->ops` knows which is meant.

A hit is an identifier in C code (comments and string literals taken out:
the option --ops, JSON keys and recording fields keep their names) with a
part "ops" next to a word of the counter: ops_total, ops_rate, set_ops,
gt_ops_is_jmx, ... The segment's public headers (PUBLIC) keep "ops" for the
counter, since other programs compile against them; their identifiers are
allowed everywhere.

Usage: opcount_words.py [ROOT | FILE...]. Prints one FAIL line per hit, then
PASS:/FAIL: with the count."""
import os
import re
import sys

NAME = "opcount_words"
PUBLIC = ("segment/gctop_segment.h", "segment/publish.h")
# Words that make an "ops" part the counter rather than a table.
COUNTER_WORDS = {"total", "rate", "name", "counter", "unavailable", "alloc", "collections", "detailed",
                 "per", "set", "spec", "jmx", "takes", "own", "sum", "sums", "bytes"}
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_identifiers(text):
    """(line, identifier) for each identifier outside comments and strings."""
    pos = 0
    for m in list(TOKEN.finditer(text)) + [None]:
        end = m.start() if m else len(text)  # None: the code after the last token
        for i in IDENT.finditer(text, pos, end):
            yield text.count("\n", 0, i.start()) + 1, i.group(0)
        pos = m.end() if m else end


def counter_word(ident):
    """True when a part "ops" of ident stands next to a word of the counter."""
    parts = ident.lower().split("_")
    for k, p in enumerate(parts):
        if p == "ops" and COUNTER_WORDS & set(parts[max(k - 1, 0):k] + parts[k + 1:k + 2]):
            return True
    return False


def read(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def sources(root):
    for d, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and not s.startswith("build"))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(d, f), root)


def main():
    args = sys.argv[1:] or ["."]
    if len(args) == 1 and os.path.isdir(args[0]):
        root, files = args[0], list(sources(args[0]))
    else:
        root, files = ".", args
    public = set()
    for p in PUBLIC:
        public.update(i for _, i in code_identifiers(read(os.path.join(root, p))))
    n = 0
    for p in files:
        if p in PUBLIC:
            continue
        for line, ident in code_identifiers(read(os.path.join(root, p))):
            if counter_word(ident) and ident not in public:
                print("FAIL: %s: %s:%d says \"ops\" for the operations counter (say opcount): %s" %
                      (NAME, p, line, ident), flush=True)
                n += 1
    print("%s: %s: %d identifiers in %d files say \"ops\" for the operations counter" %
          ("FAIL" if n else "PASS", NAME, n, len(files)), flush=True)
    # 0 once every check is decided, whatever the verdicts (tests/lib.sh
    # comparator: any other status is a checker that died)
    return 0


if __name__ == "__main__":
    sys.exit(main())
