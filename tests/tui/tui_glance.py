# Checks of a captured gctop screen (tests/tui/tui_glance.sh): the lines
# named in issue 26 are whole, and no pane with content has a blank row.
# Usage: python3 tui_glance.py CHECK SCREEN [ARG...]; exit 0 when it holds,
# else 1 with the reason on stdout.
import re
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def fail(why):
    print(why)
    sys.exit(1)


# Pane titles of the body: "─ 2 Allocation ─" at the column where the pane starts.
TITLE = re.compile(r"─ (\d) ([A-Z][a-z]+(?: [a-z]+)?) ")


def body_columns(screen):
    """The body's columns: (x, end) from the titles on the first body row."""
    for y, line in enumerate(screen):
        starts = [m.start() for m in TITLE.finditer(line)]
        if starts:
            xs = sorted(set(starts))
            return y, [(x, xs[i + 1] if i + 1 < len(xs) else 10**6) for i, x in enumerate(xs)]
    fail("no pane title on the screen")


def no_blank_row(screen):
    """In every body column, the panes' rows come first and the blank ones
    (what no pane took) last: a blank row followed by content means a pane
    (or the space between two) holds a blank row."""
    top, cols = body_columns(screen)
    body = screen[top:-1]   # the footer is the last row
    for x, end in cols:
        blank_at = None
        for y, line in enumerate(body):
            text = line[x:end].strip()
            if not text:
                if blank_at is None:
                    blank_at = y
            elif blank_at is not None:
                fail("column at %d: row %d is blank, row %d below it holds %r" % (x, top + blank_at, top + y, text))


def segment(screen, line, at):
    """The text of a pane from index at to its column's end (body_columns),
    or to three or more spaces before the next pane's text. (Three spaces
    alone cut a line that filled its column: 'max 15.6 ms' ended two
    spaces before the next column's title.)"""
    _, cols = body_columns(screen)
    end = min([e for x, e in cols if x <= at < e] or [len(line)])
    m = re.match(r"(.*?)(?: {3,}|$)", line[at:end].rstrip())
    return m.group(1)


def pause_line(screen):
    for line in screen:
        at = line.find("p50 ")
        if at < 0:
            continue
        seg = segment(screen, line, at)
        if not re.fullmatch(r"p50 (n/a|[0-9.]+( m?s)?)  p99 (n/a|[0-9.]+( m?s)?)  max (n/a|[0-9.]+ m?s)"
                            r"(  of [0-9]+\+? pauses?)?(  [0-9]+(s|min) p99 [0-9.]+ m?s)?", seg):
            fail("the pause line is cut or malformed: %r" % seg)
        return
    fail("no pause line")


def per_op_line(screen):
    for line in screen:
        at = line.find(" per ")
        if at < 0 or not re.match(r" per (operation|request) ", line[at:]):
            continue
        seg = segment(screen, line, at + 1)
        if not re.fullmatch(r"per (operation|request) (n/a( \(.*\))?|[0-9.]+ [KMG]?i?B(  [0-9.]+( [a-z]+)?/s)?)", seg):
            fail("the per-operation line is cut: %r" % seg)
        return
    fail("no per-operation line")


def any_age(text):
    """A pattern for text in which a title's age ("3 s ago") matches any
    count of seconds: it ticks between two screens taken a moment apart. A
    cut may end at that number ("..., 3"): a number at the end matches
    itself or any age."""
    out, pos = "", 0
    for m in re.finditer(r"\d+", text):
        out += re.escape(text[pos:m.start()])
        if text.startswith(" s", m.end()):
            out += r"\d+"
        elif m.end() == len(text):
            out += r"(?:\d+(?= s ago)|%s)" % m.group(0)
        else:
            out += m.group(0)
        pos = m.end()
    return out + re.escape(text[pos:])


def finding_line(screen, overlay_path):
    """The worst finding's title: whole, or ending in "..." after a whole word of the title the overlay shows."""
    line = next((l for l in screen if l.startswith(" 8 Findings ")), None)
    if line is None:
        fail("no findings line")
    m = re.match(r" 8 Findings +(none so far|(info|warning|critical) (.*?)  (f: evidence|\+\d+ more, f: all))", line)
    if not m:
        fail("the findings line is malformed: %r" % line)
    if m.group(1).startswith("none"):
        return
    shown = m.group(3).strip()
    overlay = re.sub(r" +", " ", " ".join(l.strip() for l in rows(overlay_path)))
    if shown.endswith("..."):
        prefix = shown[:-3]
        if not re.search(any_age(prefix) + r"[ ,:]", overlay):
            fail("the finding is cut inside a word: %r (overlay: %r)" % (shown, overlay[:300]))
    elif shown and not re.search(any_age(shown), overlay):
        fail("the finding shown is not a title of the overlay: %r" % shown)


def sentence(screen, text):
    """text, broken across rows at spaces, is on the screen whole."""
    joined = re.sub(r" +", " ", " ".join(l.strip() for l in screen))
    if text not in joined:
        fail("not whole on the screen: %r" % text)


def names_distinct(screen):
    """The names of the top-allocators pane's sites: no two shortened alike."""
    names = []
    for line in screen:
        for m in re.finditer(r"(?:^|\s)([^\s]+)(?: +(?:small|large|pinned|n/a))? +[0-9.]+ [KMG]?i?B/s +[0-9.]+%", line):
            names.append(m.group(1))
    if len(names) < 2:
        fail("fewer than two sites listed: %r" % names)
    # A type listed twice (System.String on the small and the large heap)
    # is the runtime's; a shortened name ("..", or a namespace cut to an
    # initial) must be one site's alone.
    short = [n for n in names if ".." in n or re.match(r"^([^.]\.)+", n)]
    if len(set(short)) != len(short):
        fail("two sites read the same: %r" % names)


def graph_labels(screen):
    """Each graph's title row says its top (and, where it fits, its span)."""
    for title in ("Allocation", "Pauses"):
        line = next((l for l in screen if re.search(r"─ \d %s " % title, l)), None)
        if line is None:
            fail("no %s pane" % title)
        seg = line[line.index(" %s " % title):]
        nxt = re.search(r"─ \d [A-Z]", seg)
        seg = seg[:nxt.start()] if nxt else seg
        if not re.search(r"(graph [0-9]+(s|min), |[0-9]+(s|min), )?top [0-9.]+( [KMG]?i?B/s|%)", seg):
            fail("the %s graph says no top: %r" % (title, seg))


CHECKS = {
    "no-blank-row": no_blank_row,
    "pause-line": pause_line,
    "per-op-line": per_op_line,
    "names-distinct": names_distinct,
    "graph-labels": graph_labels,
}

if __name__ == "__main__":
    check, path = sys.argv[1], sys.argv[2]
    screen = rows(path)
    if check == "finding-line":
        finding_line(screen, sys.argv[3])
    elif check == "sentence":
        sentence(screen, sys.argv[3])
    else:
        CHECKS[check](screen)
