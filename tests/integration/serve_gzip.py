#!/usr/bin/env python3
"""gctop --serve's gzip (issue 40): scraped with Accept-Encoding: gzip,
/metrics comes with Content-Encoding: gzip and Vary: Accept-Encoding, and
decompresses (python's gzip) to the plain body of the same snapshot, in
both formats; without it, or with gzip;q=0, the body is plain. The sizes
are printed for bench/README.md.

Usage: serve_gzip.py PORT PID. Prints PASS:/FAIL: lines as decided."""
import gzip
import re
import sys
import urllib.request

NAME = "serve_gzip"
OPENMETRICS = "application/openmetrics-text; version=1.0.0"


def report(ok, what):
    print("%s: %s: %s" % ("PASS" if ok else "FAIL", NAME, what), flush=True)
    return ok


def scrape(port, encoding=None, accept=None):
    req = urllib.request.Request("http://127.0.0.1:%d/metrics" % port)
    if encoding is not None:
        req.add_header("Accept-Encoding", encoding)
    if accept:
        req.add_header("Accept", accept)
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.headers, r.read()


def stamps(body):
    """The snapshot a body was written from: its sample timestamps."""
    return re.findall(rb"^gctop_sample_timestamp_seconds\{[^}]*\} (\S+)$", body, re.M)


def one_format(port, pid, accept, label):
    # gzip, plain, gzip: a round comes at most every second (-d 5 here), so
    # the plain body shares its snapshot with one of the two
    h1, g1 = scrape(port, "gzip", accept)
    hp, plain = scrape(port, "", accept)
    h2, g2 = scrape(port, "deflate, gzip;q=0.8", accept)
    report(h1.get("Content-Encoding") == "gzip" and h2.get("Content-Encoding") == "gzip",
           "%s: Accept-Encoding gzip is answered with Content-Encoding: gzip (%s, %s)"
           % (label, h1.get("Content-Encoding"), h2.get("Content-Encoding")))
    report(h1.get("Vary") == "Accept-Encoding" and hp.get("Vary") == "Accept-Encoding",
           "%s: every answer says Vary: Accept-Encoding (%s, %s)" % (label, h1.get("Vary"), hp.get("Vary")))
    report(hp.get("Content-Encoding") is None and plain.startswith(b"#"),
           "%s: without Accept-Encoding the body is plain (Content-Encoding %s)" % (label, hp.get("Content-Encoding")))
    try:
        d1, d2 = gzip.decompress(g1), gzip.decompress(g2)
    except (OSError, EOFError) as e:
        report(False, "%s: the gzip bodies decompress: %s" % (label, e))
        return
    report(("pid=\"%s\"" % pid).encode() in d1, "%s: the decompressed body holds the JVM" % label)
    same = [d for d in (d1, d2) if stamps(d) == stamps(plain)]
    report(bool(same) and same[0] == plain,
           "%s: the gzip body decompresses to the plain body of the same snapshot (%d of 2 share it)"
           % (label, len(same)))
    report(len(g1) * 4 < len(d1), "%s: gzip makes it smaller: %d bytes plain, %d gzipped (%.1fx)"
           % (label, len(d1), len(g1), len(d1) / max(1, len(g1))))


def main():
    port, pid = int(sys.argv[1]), sys.argv[2]
    one_format(port, pid, None, "Prometheus text")
    one_format(port, pid, OPENMETRICS, "OpenMetrics")
    h, body = scrape(port, "gzip;q=0, identity")
    report(h.get("Content-Encoding") is None and body.startswith(b"#"),
           "gzip;q=0 is answered plain (Content-Encoding %s)" % h.get("Content-Encoding"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
