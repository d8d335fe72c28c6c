#!/usr/bin/env python3
"""The documents someone on call reads agree with gctop itself: the options
and exit statuses of --help, of the man page's OPTIONS and EXIT STATUS and
of README's option and exit-status tables are the same sets; each status's
text in --help says what README's and the man page's say (its words, less
a few small ones, are in theirs; "another failure" is not "other failure"),
and its statement (the text before a colon, parenthesis, semicolon or
full stop) names no runtime in any of the three, so that it holds for a
runtime added later (tests/static/runtimes.py reads their names); --doctor's
statuses by severity are the same everywhere, README's example included;
every --help line fits 80 columns; and README's "How it is built" draws the
layers LAYERS lists, in their order.

Usage: docs_agree.py GCTOP_BIN. Prints PASS:/FAIL: lines."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtimes  # noqa: E402

NAME = "docs_agree"
# Words a status's text may say in one document and not another.
SMALL_WORDS = {"a", "an", "the", "is", "are", "of", "or", "and", "to", "its", "it", "s", "in", "by"}
HELP_WIDTH = 80
SEVERITIES = ("info", "warning", "critical")


def report(ok, what):
    print("%s: %s: %s" % ("PASS" if ok else "FAIL", NAME, what), flush=True)
    return ok


def section(text, start, end):
    """The text from the line matching start to the next matching end."""
    m = re.search(start, text, re.M)
    if not m:
        return ""
    rest = text[m.end() + 1:]
    e = re.search(end, rest, re.M)
    return rest[:e.start()] if e else rest


def option_pair(text):
    """('-p', '--pid') or (None, '--no-color') from an option's heading."""
    m = re.match(r"\s*(?:(-[A-Za-z]), )?(--[a-z][a-z-]*)", text)
    return (m.group(1), m.group(2)) if m else None


def help_facts(help_text):
    opts = set()
    for line in section(help_text, r"^Options:", r"^\S").splitlines():
        if re.match(r"^  (-[A-Za-z], |    )--", line):
            opts.add(option_pair(line))
    statuses = set(int(n) for n in re.findall(r"\b(\d{1,2})\b", section(help_text, r"^Exit status:", r"^\S")))
    return opts, statuses


def man_text(roff):
    return roff.replace("\\-", "-").replace("\\(lq", "\"").replace("\\(rq", "\"")


def man_facts(man):
    opts = set()
    lines = section(man, r"^\.SH OPTIONS", r"^\.SH ").splitlines()
    for i, line in enumerate(lines[:-1]):
        if line != ".TP" or not lines[i + 1].startswith(".B"):
            continue
        head = man_text(lines[i + 1]).split(" ", 1)[1].replace('"', "")
        head = re.sub(r"\s*,\s*", ", ", head)
        pair = option_pair(head)
        if pair:
            opts.add(pair)
    statuses = set(int(n) for n in re.findall(r"^\.IP (\d+)$", section(man, r"^\.SH EXIT STATUS", r"^\.SH "), re.M))
    return opts, statuses


def readme_facts(readme):
    opts = set()
    for m in re.finditer(r"^\| `([^`]+)` \|", section(readme, r"^\| option \| meaning \|", r"^$"), re.M):
        pair = option_pair(m.group(1))
        if pair:
            opts.add(pair)
    statuses = set()
    for m in re.finditer(r"^\| ([\d, ]+) \|", section(readme, r"^\| exit status \| meaning \|", r"^$"), re.M):
        statuses.update(int(n) for n in m.group(1).split(","))
    return opts, statuses


def help_status_texts(help_text):
    """[(statuses, text)] of --help's exit statuses: a column each ("  4
    text", "  --census: 16 text", "  --doctor: 12, 13, 14 text"), two
    columns apart by three spaces or more."""
    out = []
    for line in section(help_text, r"^Exit status:", r"^\S").splitlines():
        for col in re.split(r" {3,}", line.strip()):
            m = re.match(r"(?:(--[a-z-]+): )?(\d+(?:, \d+)*) (.*)$", col)
            if m:
                out.append(([int(n) for n in m.group(2).split(", ")], ((m.group(1) or "") + " " + m.group(3)).strip()))
    return out


def readme_status_texts(readme):
    out = {}
    for m in re.finditer(r"^\| ([\d, ]+) \| (.*) \|$", section(readme, r"^\| exit status \| meaning \|", r"^$"), re.M):
        for n in m.group(1).split(","):
            out[int(n)] = m.group(2)
    return out


def roff_plain(line):
    """A roff line's words: macros and font escapes out, hyphens in."""
    line = re.sub(r"^\.(?:B|I|BR|RB|BI|IB|IR|RI)\s+", "", line)
    line = re.sub(r"\\f[BIRP]|\\&", "", line).replace('"', "")
    return man_text(line)


def man_status_texts(man):
    """{status: (intro, text)}: each .IP paragraph of EXIT STATUS, and the
    .PP paragraph before it that says where the statuses after it hold
    ("With --doctor only, ...")."""
    out, intro, cur, n = {}, "", None, None
    for line in section(man, r"^\.SH EXIT STATUS", r"^\.SH ").splitlines() + [".PP"]:
        m = re.match(r"^\.IP (\d+)$", line)
        if m or line.startswith(".PP"):
            if n is not None:
                out[n] = (intro, " ".join(cur))
            elif cur is not None:
                intro = " ".join(cur)
            n, cur = (int(m.group(1)) if m else None), []
            continue
        if cur is not None:
            cur.append(roff_plain(line))
    return out


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower())) - SMALL_WORDS


def statement(text):
    """The text before its first colon, parenthesis, semicolon or full stop
    (not one inside a word, as in ".NET" or "gctop(1)")."""
    text = re.sub(r"^--[a-z-]+: ", "", text)
    return re.split(r": |\(|;|\.(?:\s|$)", text, maxsplit=1)[0]


def status_texts_ok(help_text, man, readme, names):
    h, r, m = help_status_texts(help_text), readme_status_texts(readme), man_status_texts(man)
    ok = report(sum(len(ns) for ns, _ in h) >= 10 and len(r) == len(m) == sum(len(ns) for ns, _ in h),
                "--help, README and the man page give a text for each status (%d, %d, %d)" %
                (sum(len(ns) for ns, _ in h), len(r), len(m)))
    for ns, text in h:
        want = words(statement(text)) | words(re.match(r"(--[a-z-]+)?", text).group(0))
        r_text = " ".join(r.get(n, "") for n in ns)
        m_text = " ".join(" ".join(m.get(n, ("", ""))) for n in ns)
        missing = sorted((want - words(r_text)) | (want - words(m_text)))
        label = ", ".join(str(n) for n in ns)
        ok &= report(want and not missing, "status %s: README and the man page say what --help says (%r)%s" %
                     (label, text, ": not " + ", ".join(missing) if missing else ""))
        named = [(doc, t) for doc, t in [("--help", statement(text))] +
                 [("README", statement(r.get(n, ""))) for n in ns] +
                 [("the man page", statement(m.get(n, ("", ""))[1])) for n in ns] if names.search(t)]
        ok &= report(not named, "status %s's statement names no runtime%s" %
                     (label, "".join("; %s says %r" % x for x in named)))
    return ok


def doctor_claims(text):
    """Every "N info" / "N (warning)" a text makes: (status, severity)."""
    return set((int(n), s) for n, s in re.findall(r"\b(\d{1,2}) \(?(info|warning|critical)\b", text))


def man_doctor(man):
    found = re.findall(r"^\.IP (\d+)\nThe worst finding is (?:an? )?(info|warning|critical)\.", man, re.M)
    return set((int(n), s) for n, s in found)


def readme_example_ok(readme, truth):
    """README's --doctor example exits with the status of the worst finding it shows."""
    at = readme.find("$ gctop --doctor")   # the example's own Findings line, not an earlier one
    m = re.compile(r"^Findings: \d+, worst (\w+)\n(?:.*\n)*?\$ echo \$\?\n(\d+)$", re.M).search(readme, max(at, 0))
    return bool(m) and truth.get(m.group(1)) == int(m.group(2)), m.group(0)[-40:] if m else "no example"


def layer_names():
    """The layers, lowest first, as LAYERS lists them."""
    return [l.split()[0] for l in open("LAYERS", encoding="utf-8") if re.match(r"^[a-z]+\s", l)]


def readme_layers_ok(readme, layers):
    """README's "How it is built" names every layer as a folder, and its
    diagram draws the ones above model/ in LAYERS' order."""
    built = section(readme, r"^## How it is built", r"^## ")
    missing = [l for l in layers if "`%s/`" % l not in built and "%s/" % l not in built]
    drawn = section(built, r"^```", r"^```").splitlines()
    order = re.findall(r"([a-z]+)/", drawn[0]) if drawn else []
    above = [l for l in layers if l in order]
    return not missing and order == above and len(order) >= 5, missing, order


def compare(label, sets):
    names = list(sets)
    base = sets[names[0]]
    ok = report(len(base) >= 10, "%s: --help lists %d" % (label, len(base)))
    for other in names[1:]:
        diff = sorted(str(x) for x in base ^ sets[other])
        ok &= report(not diff, "%s of %s and %s agree%s" % (label, names[0], other,
                                                          "" if not diff else ": differ in " + ", ".join(diff)))
    return ok


def main():
    help_text = subprocess.run([sys.argv[1], "--help"], capture_output=True, text=True, check=True).stdout
    man = open("man/gctop.1", encoding="utf-8").read()
    readme = open("README.md", encoding="utf-8").read()
    (h_opts, h_st), (m_opts, m_st), (r_opts, r_st) = help_facts(help_text), man_facts(man), readme_facts(readme)
    ok = compare("options", {"--help": h_opts, "man OPTIONS": m_opts, "README's table": r_opts})
    ok &= compare("exit statuses", {"--help": h_st, "man EXIT STATUS": m_st, "README's table": r_st})
    names = runtimes.word_pattern(runtimes.runtimes("."))
    ok &= report(names.search("not a JVM or .NET process") and not names.search("the runtime's data"),
                 "the runtimes' names are found in a text that names them, and only there")
    ok &= status_texts_ok(help_text, man, readme, names)

    truth = dict((s, n) for n, s in man_doctor(man))
    ok &= report(sorted(truth) == sorted(SEVERITIES), "the man page gives --doctor's status for each severity %s" % truth)
    for label, text in (("--help", help_text), ("README", readme)):
        claims = doctor_claims(text)
        wrong = sorted("%d %s" % c for c in claims if truth.get(c[1]) != c[0])
        ok &= report(claims and not wrong, "%s gives --doctor's statuses as the man page does%s" %
                     (label, ": not " + ", ".join(wrong) if wrong else ""))
    ex_ok, ex = readme_example_ok(readme, truth)
    ok &= report(ex_ok, "README's --doctor example exits with its worst finding's status (%r)" % ex)

    layers = layer_names()
    l_ok, missing, order = readme_layers_ok(readme, layers)
    ok &= report(len(layers) >= 8 and l_ok, "README's \"How it is built\" names the %d layers of LAYERS and draws them "
                 "in its order (missing %s, drawn %s)" % (len(layers), missing, order))

    wide = [l for l in help_text.splitlines() if len(l) > HELP_WIDTH]
    ok &= report(help_text.count("\n") > 20 and not wide,
                 "every --help line fits %d columns%s" % (HELP_WIDTH, "" if not wide else ": %d do not, e.g. %r" % (len(wide), wide[0])))
    # 0 once every check is decided, whatever the verdicts (tests/lib.sh
    # comparator: any other status is a checker that died)
    return 0


if __name__ == "__main__":
    sys.exit(main())
