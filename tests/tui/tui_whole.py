# Checks of a captured gctop screen (tests/tui/tui_whole.sh): every word
# is whole (issue 35). A pane draws its text up to its last column but
# one, so a character in a pane's last column is text cut at the edge; a
# "..." in a pane is a reason cut short (the header's findings line, which
# key f shows whole, is the one line cut so by design).
# Usage: python3 tui_whole.py CHECK SCREEN [ARG...]; exit 0 when it holds,
# else 1 with the reason on stdout.
import re
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def fail(why):
    print(why)
    sys.exit(1)


# A pane's title row: "─ 6 Memory ─" (the number is its key).
TITLE = re.compile(r"─ (\d) ([A-Z][a-z]+)")


def body(screen, width):
    """The body's rows (from the first pane title to the footer) and the
    body's columns as (x, last) from every title's start."""
    top = next((y for y, line in enumerate(screen) if TITLE.search(line)), None)
    if top is None:
        fail("no pane title on the screen")
    footer = footer_rows(screen)
    starts = sorted({m.start() for line in screen[top:len(screen) - footer] for m in TITLE.finditer(line)})
    cols = [(x, (starts[i + 1] - 2) if i + 1 < len(starts) else width - 1) for i, x in enumerate(starts)]
    return top, screen[top:len(screen) - footer], cols


def footer_rows(screen):
    """The status line's rows: the last rows up to the first blank one or a
    pane's row (the footer wraps a question onto several)."""
    n = 0
    for line in reversed(screen):
        if not line.strip() or TITLE.search(line) or line.startswith(" "):
            break
        n += 1
    return max(n, 1)


def whole_words(screen, width):
    """No text in a pane's last column and no "..." in a body pane."""
    top, lines, cols = body(screen, width)
    for y, line in enumerate(lines):
        for x, last in cols:
            seg = line[x:last + 1]
            if TITLE.search(seg) or seg.startswith("─") or not seg.strip():
                continue
            if len(line) > last and line[last] != " ":
                fail("row %d: text cut at the pane's edge (column %d): %r" % (top + y, last, seg.strip()))
            if "..." in seg:
                fail("row %d: a text cut short with ...: %r" % (top + y, seg.strip()))
    for y, line in enumerate(screen[:top]):
        if len(line) >= width and line[width - 1] != " ":
            fail("header row %d: text cut at the screen's edge: %r" % (y, line.strip()))


def question(screen):
    """The status line shows the question's keys, y/N, on the screen."""
    text = " ".join(screen[-footer_rows(screen):])
    if not re.search(r"y/N$", text.strip()):
        fail("the question does not end with its keys y/N: %r" % text)


def hints(screen, width):
    """The key hints fit one row of width - 1 and say what Tab and 1-8 do."""
    line = screen[-1].rstrip()
    if len(line) > width - 1:
        fail("the hints take %d columns: %r" % (len(line), line))
    for want in ("Tab focus", "1-8 show/hide", "h help"):
        if want not in line:
            fail("the hints lack %r: %r" % (want, line))


def full_width(screen, width, title):
    """The pane titled title spans the screen (every other one hidden)."""
    for line in screen:
        m = re.search(r"─ \d %s ─+$" % re.escape(title), line)
        if m:
            if len(line) < width or not line.startswith("─"):
                fail("the %s pane is %d columns wide of %d: %r" % (title, len(line), width, line))
            return
    fail("no %s pane spanning the screen" % title)


def picker_title(screen, width):
    """The picker's title names the sort whole."""
    line = screen[0]
    if not re.search(r"by (alloc rate|GC%|heap|RSS|PID)\)?( +every [0-9.]+s)?$", line.rstrip()):
        fail("the picker's title does not name its sort whole: %r" % line)
    if len(line.rstrip()) > width:
        fail("the title is wider than the screen: %r" % line)


def main():
    check, path = sys.argv[1], sys.argv[2]
    screen = rows(path)
    if check == "whole-words":
        whole_words(screen, int(sys.argv[3]))
    elif check == "question":
        question(screen)
    elif check == "hints":
        hints(screen, int(sys.argv[3]))
    elif check == "full-width":
        full_width(screen, int(sys.argv[3]), sys.argv[4])
    elif check == "picker-title":
        picker_title(screen, int(sys.argv[3]))
    else:
        fail("unknown check " + check)


main()
