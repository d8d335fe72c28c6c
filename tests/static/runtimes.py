"""The runtimes a tree holds and the names each is known by, read from the
tree itself so that a third runtime's are found without a change here:
every folder of collectors/ but host/ is a runtime, and

  - its identifiers are every identifier holding the folder's name (any
    case) and every name its headers declare (macros, tags, enumerators,
    functions, externs: GT_DN_GEN0, gt_diag_find_socket, hsperf_find) that
    the shared interface (collectors/backend.h, collectors/registry.h,
    model/, base/) does not declare too (struct gt_backend);
  - its words are what its traits (collectors/<rt>/<rt>_runtime.c) call it:
    .name, .display and the strings of its words[] array ("JVM", "java",
    ".NET"), with the folder's name, as whole words, any case, a plural
    or a possessive included ("JVMs", "JVM's").

tests/static/runtime_names.py and docs_agree.py use it."""
import glob
import os
import re

SHARED_HEADERS = ("collectors/backend.h", "collectors/registry.h", "model/*.h", "base/*.h")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def strip_comments(text):
    return COMMENT.sub(" ", text)


def declared(text):
    """The names a header declares at file scope."""
    t = strip_comments(text)
    names = set(re.findall(r"^\s*#\s*define\s+(\w+)", t, re.M))
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(\w+)\s*\{", t))
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", t):
        names |= set(re.findall(r"(?:^|,)\s*(\w+)", body))
    depth, cur = 0, ""
    for ch in re.sub(r"^\s*#.*$", "", t, flags=re.M):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            cur += ch
            if ch == ";":
                if not re.match(r"\s*(?:struct|enum|union)\s+\w+\s*;\s*$", cur):
                    m = re.search(r"(\w+)\s*\(", cur) or re.search(r"(\w+)\s*(?:\[[^\]]*\])?\s*;\s*$", cur)
                    if m:
                        names.add(m.group(1))
                cur = ""
    return names


class Runtime:
    def __init__(self, folder, traits_text):
        self.folder = folder
        t = strip_comments(traits_text)
        field = lambda f: (re.search(r"\.%s\s*=\s*\"([^\"]+)\"" % f, t) or [None, None])[1]
        self.name, self.display = field("name"), field("display")
        words = []
        for body in re.findall(r"_words\[\]\s*=\s*\{([^}]*)\}", t):
            words += [s[1:-1] for s in STRING.findall(body)]
        self.words = sorted(set(w for w in [folder, self.name, self.display] + words if w), key=str.lower)
        self.idents = set()


def runtimes(root="."):
    """Every runtime folder of the tree, with its names."""
    out = []
    for d in sorted(glob.glob(os.path.join(root, "collectors", "*", ""))):
        folder = os.path.basename(os.path.dirname(d))
        if folder == "host":
            continue
        traits = os.path.join(d, "%s_runtime.c" % folder)
        rt = Runtime(folder, open(traits, encoding="utf-8").read() if os.path.exists(traits) else "")
        for h in glob.glob(os.path.join(d, "**", "*.h"), recursive=True):
            rt.idents |= declared(open(h, encoding="utf-8", errors="replace").read())
        out.append(rt)
    shared = set()
    for pattern in SHARED_HEADERS:
        for p in glob.glob(os.path.join(root, pattern)):
            shared |= set(re.findall(r"\w+", strip_comments(open(p, encoding="utf-8").read())))
    for rt in out:
        rt.idents -= shared
    return out


def word_pattern(rts):
    """A whole word any runtime is called, any case, with an s or 's."""
    words = sorted(set(w for rt in rts for w in rt.words), key=len, reverse=True)
    return re.compile(r"(?<![\w.])(?:%s)(?:'?s)?(?!\w)" % "|".join(re.escape(w) for w in words), re.I)


def ident_pattern(rts):
    """An identifier holding a runtime folder's name (any case)."""
    return re.compile(r"\b\w*(?:%s)\w*\b" % "|".join(re.escape(rt.folder) for rt in rts), re.I)
