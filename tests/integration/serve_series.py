#!/usr/bin/env python3
"""The series a process costs (issue 40, part 2c): the man page's numbers
(METRICS, "Series per process": a HotSpot JVM with G1, a .NET process) are
those of a real scrape of each, in the classic text format, less the
families the man page lists as coming on top (findings, the live set, a
container's limit, --ops).

Usage: serve_series.py MAN PORT JVM_PID DOTNET_PID. Prints PASS:/FAIL:
lines as decided."""
import collections
import re
import sys
import urllib.request

NAME = "serve_series"
# The families the man page counts apart, as their samples begin.
ON_TOP = ("gctop_finding", "gctop_live_set_", "gctop_container_", "gctop_requests", "gctop_bytes_per_request")
STATED = re.compile(r"a HotSpot JVM with G1 \(JDK 17\) writes (\d+) series and a \.NET process (\d+)")


def report(ok, what):
    print("%s: %s: %s" % ("PASS" if ok else "FAIL", NAME, what), flush=True)
    return ok


def main():
    man, port, jpid, dpid = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    m = STATED.search(open(man).read())
    if not report(m is not None, "the man page states the series of a JVM and of a .NET process"):
        return 0
    stated = {"JVM": int(m.group(1)), ".NET": int(m.group(2))}
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
    for label, pid in (("JVM", jpid), (".NET", dpid)):
        mine = [line for line in text.splitlines() if re.match(r"[a-z_]+\{pid=\"%s\"[,}]" % pid, line)]
        base = [line for line in mine if not line.startswith(ON_TOP)]
        by_family = collections.Counter(re.split(r"[{]", line)[0] for line in base)
        report(len(base) == stated[label],
               "a %s's series, less those the man page counts on top: %d, the man page says %d (%d with those; %s)"
               % (label, len(base), stated[label], len(mine),
                  ", ".join("%s %d" % kv for kv in sorted(by_family.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
