#!/usr/bin/env python3
"""The documents someone on call reads agree with gctop itself: the options
and exit statuses of --help, of the man page's OPTIONS and EXIT STATUS and
of README's option and exit-status tables are the same sets; --doctor's
statuses by severity are the same everywhere, README's example included;
every --help line fits 80 columns; and README's "How it is built" draws the
layers LAYERS lists, in their order.

Usage: docs_agree.py GCTOP_BIN. Prints PASS:/FAIL: lines."""
import re
import subprocess
import sys

NAME = "docs_agree"
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
