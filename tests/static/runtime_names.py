#!/usr/bin/env python3
"""A runtime is sealed in its folder: its name appears in C code only in
collectors/<runtime>/ (every folder there but host/), the registry (collectors/registry.c and .h), the
JVM's own agent (agent/), the benchmarks (bench/) and the tests (tests/).
Everywhere else the layers ask the runtime's traits (model/runtime.h) for
its names, words and advice, so a third runtime touches no file outside its
folder but the registry.

A runtime's name is, in code with its comments taken out (comments explain
and may name runtimes):
  - an identifier holding "hotspot" or "dotnet" (any case), or starting
    GT_DN_ (the .NET generation slots and protocol numbers);
  - a string literal holding "JVM", ".NET" or "HotSpot" (the words users
    read), or "hotspot" or "dotnet" (the names outputs carry).
EXCEPTIONS lists, with its reason, each file that must still say one.

Usage: runtime_names.py [ROOT]. Prints one FAIL line per hit, then
PASS:/FAIL: with the count."""
import os
import re
import sys

NAME = "runtime_names"
SEALED = ("collectors/registry.c", "collectors/registry.h", "agent/", "bench/", "tests/")
RUNTIME_FOLDER = re.compile(r"collectors/(?!host/)[^/]+/")  # every folder in collectors/ but host/
# file -> why it may name a runtime. Keep this short.
EXCEPTIONS = {
    "writers/metrics_families.c":
        "OpenTelemetry's semantic conventions fix the jvm.* and dotnet.* metric names and their attributes",
    "frontends/options.c":
        "--help is a checked copy (tests/unit/test_skeleton.c: the registry's names are in it) and "
        "names each runtime's options (HotSpot's versions, --ops jmx)",
    "screen/keys.c":
        "the key help is a checked copy (tests/unit/test_skeleton.c: key a names each runtime it loads code into)",
}
IDENT = re.compile(r"\b(?:\w*(?:hotspot|dotnet)\w*|GT_DN_\w*)\b", re.I)
WORDS = re.compile(r"JVM|\.NET|HotSpot|hotspot|dotnet")
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_hits(text, pos, end, out):
    """The identifiers in text[pos:end], code between comments and strings."""
    for i in IDENT.finditer(text[pos:end]):
        out.append((text.count("\n", 0, pos + i.start()) + 1, i.group(0)))


def hits(text):
    """(line, what) for each runtime name in text, comments ignored."""
    out = []
    pos = 0
    for m in TOKEN.finditer(text):
        code_hits(text, pos, m.start(), out)
        tok = m.group(0)
        if tok.startswith('"'):
            w = WORDS.search(tok)
            if w:
                out.append((text.count("\n", 0, m.start()) + 1, tok))
        pos = m.end()
    code_hits(text, pos, len(text), out)  # the code after the last comment or string
    return out


def self_test():
    """The rule finds what it must, so a broken rule cannot pass: code
    before, between and after comments and strings, and the words in a
    string; not a comment's."""
    text = ('int gt_dotnet_x; /* hotspot in a comment */\n'
            'const char *s = "a JVM";\n'
            'int y = GT_DN_GEN0;\n')
    found = [what for _, what in hits(text)]
    return found == ["gt_dotnet_x", '"a JVM"', "GT_DN_GEN0"], found


def sources(root):
    for d, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and not s.startswith("build"))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                p = os.path.relpath(os.path.join(d, f), root)
                if not p.startswith(SEALED) and not RUNTIME_FOLDER.match(p) and p not in EXCEPTIONS:
                    yield p


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    n = 0
    ok, found = self_test()
    print("%s: %s: the rule finds names before, between and after comments and strings (%s)" %
          ("PASS" if ok else "FAIL", NAME, found), flush=True)
    n += 0 if ok else 1
    for p in sources(root):
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as fh:
            for line, what in hits(fh.read()):
                print("FAIL: %s: %s:%d names a runtime outside its folder: %s" % (NAME, p, line, what[:60]), flush=True)
                n += 1
    for p in EXCEPTIONS:
        if not os.path.exists(os.path.join(root, p)):
            print("FAIL: %s: the exception %s names no file" % (NAME, p), flush=True)
            n += 1
    print("%s: %s: %d runtime names outside collectors/<runtime>/ and the registry" %
          ("FAIL" if n else "PASS", NAME, n), flush=True)
    # 0 once every check is decided, whatever the verdicts (tests/lib.sh
    # comparator: any other status is a checker that died)
    return 0


if __name__ == "__main__":
    sys.exit(main())
