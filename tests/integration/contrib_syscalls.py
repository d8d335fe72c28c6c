"""The system calls gctop --serve made (strace -f's log) are all allowed by
the systemd unit's SystemCallFilter= lines, as systemd-analyze
syscall-filter expands their groups: an allow list first, then each ~
line taking groups away, in the unit's order (systemd.exec(5)).

usage: contrib_syscalls.py TEST_NAME UNIT STRACE_LOG
"""
import re
import subprocess
import sys

test, unit_path, log_path = sys.argv[1:4]


def report(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)


def members(group, seen):
    """A group's system calls, its sub-groups' included."""
    out = subprocess.run(["systemd-analyze", "syscall-filter", group], capture_output=True, text=True).stdout
    calls = set()
    for line in out.splitlines():
        item = line.strip()
        if not line.startswith("    ") or not item or item.startswith("#"):
            continue
        if item.startswith("@"):
            if item not in seen:
                seen.add(item)
                calls |= members(item, seen)
        else:
            calls.add(item)
    return calls


def expand(words):
    calls = set()
    for w in words:
        calls |= members(w, {w}) if w.startswith("@") else {w}
    return calls


lines = re.findall(r"^SystemCallFilter=(.*)$", open(unit_path).read(), re.M)
report(bool(lines) and not lines[0].startswith("~") and "@system-service" in lines[0].split(),
       "the unit's first SystemCallFilter= allows @system-service (%s)" % lines)
allowed = set()
for i, line in enumerate(lines):
    deny = line.startswith("~")
    words = line.lstrip("~").split()
    if i == 0 and not deny:
        allowed = expand(words)
    elif deny:
        allowed -= expand(words)
    else:
        allowed |= expand(words)
report(len(allowed) > 100, "the filter expands to %d system calls" % len(allowed))

made = set()
for line in open(log_path):
    m = re.match(r"^\d+\s+(?:<\.\.\. )?([a-z_][a-z0-9_]*)[( ]", line)
    if m and m.group(1) not in ("exit", "killed"):
        made.add(m.group(1))
report(len(made) > 20, "strace saw gctop make %d kinds of system call" % len(made))
outside = sorted(made - allowed)
report(not outside, "every system call gctop --serve made is in the unit's filter (outside: %s)" % outside)
# the ones gctop's own filter forbids are not needed either
report(not made & {"execveat", "ptrace"}, "gctop made no execveat or ptrace")
sys.exit(0)
