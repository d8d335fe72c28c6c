#!/usr/bin/env python3
"""A runtime is sealed in its folder: its name appears in C code only in
collectors/<runtime>/ (every folder there but host/), the registry
(collectors/registry.c and .h), the JVM's own agent (agent/), the
benchmarks (bench/) and the tests (tests/). Everywhere else the layers ask
the runtime's traits (model/runtime.h) for its names, words and advice, so
a third runtime touches no file outside its folder but the registry
(tests/static/third_runtime.sh registers one).

The runtimes and their names are read from the tree (tests/static/
runtimes.py): a runtime's name is, in code with its comments taken out
(comments explain and may name runtimes),
  - an identifier holding its folder's name (any case), or one its
    folder's headers declare (GT_DN_GEN0);
  - a string literal holding a word its traits call it (.name, .display,
    words[]: "JVM", ".NET", "java", "hotspot") or its folder's name, as a
    whole word, any case.
EXCEPTIONS lists, with its reason, each file that must still say one.

Usage: runtime_names.py [ROOT]. Prints one FAIL line per hit, then
PASS:/FAIL: with the count."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtimes  # noqa: E402

NAME = "runtime_names"
SEALED = ("collectors/registry.c", "collectors/registry.h", "agent/", "bench/", "tests/")
# file -> why it may name a runtime. Keep this short.
EXCEPTIONS = {
    "views/metrics_families.c":
        "OpenTelemetry's semantic conventions fix the jvm.* and dotnet.* metric names and their attributes",
}
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


class Rule:
    def __init__(self, rts):
        self.ident = runtimes.ident_pattern(rts)
        self.declared = set().union(*(rt.idents for rt in rts))
        self.words = runtimes.word_pattern(rts)

    def code_hits(self, text, pos, end, out):
        """The runtimes' identifiers in text[pos:end], code between comments and strings."""
        for m in re.finditer(r"\b\w+\b", text[pos:end]):
            if self.ident.fullmatch(m.group(0)) or m.group(0) in self.declared:
                out.append((text.count("\n", 0, pos + m.start()) + 1, m.group(0)))

    def hits(self, text):
        """(line, what) for each runtime name in text, comments ignored."""
        out = []
        pos = 0
        for m in TOKEN.finditer(text):
            self.code_hits(text, pos, m.start(), out)
            tok = m.group(0)
            if tok.startswith('"') and self.words.search(tok):
                out.append((text.count("\n", 0, m.start()) + 1, tok))
            pos = m.end()
        self.code_hits(text, pos, len(text), out)  # the code after the last comment or string
        return out


def self_test(rule, rts):
    """The rule finds what it must, so a broken rule cannot pass: code
    before, between and after comments and strings, the words in a
    string, a name a runtime's header declares; not a comment's, and
    not a word that only holds one ("jvm_gc_duration_seconds")."""
    rt = rts[0]
    decl = sorted(i for i in rt.idents if rt.folder not in i.lower())
    ident = "gt_%s_x" % rt.folder
    text = ('int %s; /* %s in a comment */\n'
            'const char *s = "a %s";\n'
            'const char *m = "%s_gc_seconds";\n'
            'int y = %s;\n') % (ident, rt.display, rt.display, rt.display.lower(), decl[0] if decl else ident)
    found = [what for _, what in rule.hits(text)]
    want = [ident, '"a %s"' % rt.display, decl[0] if decl else ident]
    return found == want, found


def sources(root, rts):
    folders = tuple("collectors/%s/" % rt.folder for rt in rts)
    for d, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and not s.startswith("build"))
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                p = os.path.relpath(os.path.join(d, f), root)
                if not p.startswith(SEALED + folders) and p not in EXCEPTIONS:
                    yield p


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rts = runtimes.runtimes(root)
    rule = Rule(rts)
    n = 0
    ok = len(rts) >= 2 and all(rt.display and rt.name for rt in rts)
    print("%s: %s: every runtime folder has traits with a name and a display name (%s)" %
          ("PASS" if ok else "FAIL", NAME, ", ".join("%s: %s" % (rt.folder, rt.words) for rt in rts)), flush=True)
    n += 0 if ok else 1
    ok, found = self_test(rule, rts)
    print("%s: %s: the rule finds names before, between and after comments and strings (%s)" %
          ("PASS" if ok else "FAIL", NAME, found), flush=True)
    n += 0 if ok else 1
    for p in sources(root, rts):
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as fh:
            for line, what in rule.hits(fh.read()):
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
