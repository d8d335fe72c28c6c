#!/usr/bin/env python3
"""Three rules of the shell tests that a mistake breaks silently.

usage: test_rules.py FILE...   prints "FILE:LINE: RULE: why" for each breach.

after-check: a `check` or `pass` command followed by `&&` or `||`.
  `check "X" [ A ] && [ B ]` checks A alone: B runs after the verdict was
  printed and decides nothing; `check ... || ...` never runs its right side.
  The whole condition goes inside the check (a function, or `sh -c`).
status-after-substitution: `$?` in a command after a command substitution
  of its own, as `check "... $(cat err)" [ $? -eq 0 ]`. dash keeps the
  status of the command before; bash gives the substitution's (0), so the
  check passes there whatever gctop did. Capture the status first: rc=$?.
bare-comparator: python3 running a program (a here-document, or a
  tests/*.py) that prints PASS/FAIL lines, not through tests/lib.sh's
  comparator: when it raises, the checks it had not printed yet vanish and
  nothing fails. (Inside a check or a $(...), its status is read.)

The files are read by a small scanner of the shell's grammar, enough for
these rules: quotes (across lines too), command substitutions, ${...},
comments, here-documents and line continuations, so that an `&&` inside
`sh -c '...'` or a `$?` inside a here-document is not taken for one.
"""
import re
import sys

SEPARATORS = ("&&", "||", ";;", ";", "|", "&", "\n", "(", ")")
PREFIX_WORDS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "}", "time"}
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
PYTHON = re.compile(r"^(python3|\S*/python3|\"\$[A-Z_]*PY\")$")
SCRIPT = re.compile(r"^['\"]?(tests/\S+\.py)['\"]?$")
HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")


class Command:
    """One simple command at the top level of a file."""

    def __init__(self, line):
        self.line = line
        self.words = []
        self.word = ""
        self.substituted = False  # a $( ) or ` ` seen in this command
        self.status_after = False  # and a $? after it

    def end_word(self):
        if self.word:
            self.words.append(self.word)
        self.word = ""

    def name(self):
        for w in self.words:
            if w not in PREFIX_WORDS and not ASSIGNMENT.match(w):
                return w
        return ""


class Scanner:
    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.i = 0
        self.line = 1
        self.found = []
        self.heredocs = []  # (strip_tabs, delimiter) waiting for the next newline
        self.mine = 0  # how many of them the current command opened
        self.cmd = Command(1)

    def report(self, line, rule, why):
        self.found.append("%s:%d: %s: %s" % (self.path, line, rule, why))

    def peek(self, n=1):
        return self.text[self.i:self.i + n]

    def advance(self, n=1):
        chunk = self.text[self.i:self.i + n]
        self.line += chunk.count("\n")
        self.i += n
        return chunk

    def skip_heredocs(self):
        """Called just past a newline: skips the bodies of pending here-documents."""
        for strip, delim in self.heredocs:
            while self.i < len(self.text):
                end = self.text.find("\n", self.i)
                end = len(self.text) if end < 0 else end
                body_line = self.text[self.i:end]
                self.advance(end - self.i + 1)
                if (body_line.lstrip("\t") if strip else body_line) == delim:
                    break
        self.heredocs = []

    def newline(self):
        self.advance()
        if self.heredocs:
            self.skip_heredocs()

    def single_quoted(self):
        """From just past an opening ': returns the text to the closing '."""
        end = self.text.find("'", self.i)
        end = len(self.text) if end < 0 else end
        s = self.advance(end - self.i)
        self.advance()
        return s

    def nested(self, closer):
        """Scans a $( ), ${ }, ` ` or "..." up to CLOSER (not part of the
        top-level analysis); returns its text."""
        start = self.i
        while self.i < len(self.text):
            c = self.peek()
            if c == "\\":
                self.advance(2)
            elif c == closer and closer != ")":
                self.advance()
                return self.text[start:self.i - 1]
            elif c == ")" and closer == ")":
                self.advance()
                return self.text[start:self.i - 1]
            elif c == "'" and closer != '"':
                self.advance()
                self.single_quoted()
            elif c == '"' and closer != '"':
                self.advance()
                self.nested('"')
            elif c == "`" and closer != "`":
                self.advance()
                self.nested("`")
            elif self.peek(2) in ("$(", "${"):
                self.advance(2)
                self.nested(")" if self.text[self.i - 1] == "(" else "}")
            elif c == "(" and closer == ")":
                self.advance()
                self.nested(")")
            elif c == "#" and closer == ")" and self.i > 0 and self.text[self.i - 1] in " \t\n;":
                self.skip_comment()
            elif c == "\n" and closer in (")", "`"):
                self.newline()
            else:
                m = HEREDOC.match(self.text, self.i) if closer in (")", "`") else None
                if m:
                    self.heredocs.append((m.group(1) == "-", m.group(3)))
                    self.advance(m.end() - self.i)
                else:
                    self.advance()
        self.report(self.line, "unclosed", "no closing %r before the end of the file" % closer)
        return self.text[start:]

    def skip_comment(self):
        end = self.text.find("\n", self.i)
        self.advance((len(self.text) if end < 0 else end) - self.i)

    def dollar(self, in_word):
        """At a $ in a top-level word (or double-quoted string in it)."""
        two = self.peek(2)
        if two == "$(" or (self.peek() == "`"):
            self.advance(1 if self.peek() == "`" else 2)
            self.nested("`" if self.text[self.i - 1] == "`" else ")")
            self.cmd.substituted = True
            return
        if two == "${":
            self.advance(2)
            inner = self.nested("}")
            if inner == "?" and self.cmd.substituted:
                self.cmd.status_after = True
            return
        if two == "$?" and self.cmd.substituted:
            self.cmd.status_after = True
        self.advance()

    def double_quoted(self):
        """From just past an opening ": scans to the closing ", noting
        substitutions and $? of the top-level command."""
        while self.i < len(self.text):
            c = self.peek()
            if c == "\\":
                self.advance(2)
            elif c == '"':
                self.advance()
                return
            elif c in "$`":
                self.dollar(True)
            elif c == "\n":
                self.newline()
            else:
                self.advance()
        self.report(self.line, "unclosed", "no closing '\"' before the end of the file")

    def end_command(self, separator):
        self.cmd.end_word()
        name = self.cmd.name()
        if name in ("check", "pass") and separator in ("&&", "||"):
            self.report(self.cmd.line, "after-check",
                        "'%s ... %s': the condition after %s decides nothing; put it inside the check"
                        % (name, separator, separator))
        if self.cmd.status_after:
            self.report(self.cmd.line, "status-after-substitution",
                        "$? after a $(...) in the same command is the substitution's status under bash; capture it first (rc=$?)")
        if PYTHON.match(name) and separator != "&" and self.decides_checks():
            self.report(self.cmd.line, "bare-comparator",
                        "a Python program that prints PASS/FAIL lines, run outside tests/lib.sh's comparator: "
                        "its death would drop its checks silently")
        self.cmd = Command(self.line)
        self.mine = 0

    def decides_checks(self):
        """The current command's program (a here-document it reads, or a
        tests/*.py it names) prints verdicts."""
        texts = []
        for w in self.cmd.words:
            m = SCRIPT.match(w)
            if m:
                try:
                    texts.append(open(m.group(1), encoding="utf-8").read())
                except OSError:
                    pass
        if self.mine:
            start = self.text.find("\n", self.i) + 1
            for strip, delim in self.heredocs[-self.mine:]:
                body = []
                for line in self.text[start:].split("\n"):
                    start += len(line) + 1
                    if (line.lstrip("\t") if strip else line) == delim:
                        break
                    body.append(line)
                texts.append("\n".join(body))
        return any(re.search(r"\bPASS\b", t) for t in texts)

    def separator(self):
        for s in SEPARATORS:
            if self.text.startswith(s, self.i):
                return s
        return None

    def scan(self):
        while self.i < len(self.text):
            if not self.cmd.words and not self.cmd.word:
                self.cmd.line = self.line
            c = self.peek()
            if self.peek(2) == "\\\n":
                self.advance(2)
                continue
            if c == "\\" or self.peek(2) in (">&", "<&", ">|"):
                self.cmd.word += self.advance(2)
                continue
            if c in " \t":
                self.cmd.end_word()
                self.advance()
                continue
            if c == "#" and not self.cmd.word:
                self.skip_comment()
                continue
            m = HEREDOC.match(self.text, self.i)
            if m:
                self.heredocs.append((m.group(1) == "-", m.group(3)))
                self.mine += 1
                self.cmd.end_word()
                self.advance(m.end() - self.i)
                continue
            sep = self.separator()
            if sep:
                # A newline after && || | continues the same list; it ends
                # no command of its own.
                if not (sep == "\n" and not self.cmd.words and not self.cmd.word):
                    self.end_command(sep)
                self.newline() if sep == "\n" else self.advance(len(sep))
                if sep in ("&&", "||", "|"):
                    self.skip_blank_lines()
                continue
            if c == "'":
                self.advance()
                self.cmd.word += "'" + self.single_quoted() + "'"
            elif c == '"':
                start = self.i
                self.advance()
                self.double_quoted()
                self.cmd.word += self.text[start:self.i]
            elif c in "$`":
                start = self.i
                self.dollar(False)
                self.cmd.word += self.text[start:self.i]
            else:
                self.cmd.word += self.advance()
        self.end_command("\n")
        return self.found

    def skip_blank_lines(self):
        while self.i < len(self.text):
            c = self.peek()
            if c in " \t":
                self.advance()
            elif c == "\n":
                self.newline()
            elif c == "#":
                self.skip_comment()
            else:
                break
        self.cmd = Command(self.line)


def main(paths):
    found = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            found += Scanner(path, f.read()).scan()
    for f in found:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
