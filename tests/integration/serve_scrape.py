#!/usr/bin/env python3
"""A scrape Prometheus likes (issue 40).

  serve_scrape.py gzip PORT PID: scraped with Accept-Encoding: gzip,
      /metrics comes with Content-Encoding: gzip and Vary: Accept-Encoding,
      and decompresses (python's gzip) to the plain body of the same
      snapshot, in both formats; without it, or with gzip;q=0, the body is
      plain. The sizes are printed.
  serve_scrape.py families PORT PID: a gctop started with
      --metrics-include 'jvm_*,gctop_target_info,gctop_allocated_bytes_total'
      --metrics-exclude jvm_memory_limit_bytes writes those families, with
      their metadata, and no line of any other.

Prints PASS:/FAIL: lines as decided."""
import gzip
import re
import sys
import urllib.request

NAME = "serve_scrape"
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


# What the families mode's gctop was told to write, and what it must drop.
KEPT = ("jvm_memory_used_bytes", "jvm_memory_committed_bytes", "jvm_gc_duration_seconds", "gctop_target_info",
        "gctop_allocated_bytes_total")
DROPPED = ("jvm_memory_limit_bytes", "process_", "gctop_sample_timestamp_seconds", "gctop_gc_", "gctop_heap_")


def families(port, pid):
    for accept, label in ((None, "Prometheus text"), (OPENMETRICS, "OpenMetrics")):
        _, body = scrape(port, "", accept)
        text = body.decode()
        samples = [line for line in text.splitlines() if line and not line.startswith("#")]
        for name in KEPT:
            fam = name[:-len("_total")] if accept and name.endswith("_total") else name
            fam = fam[:-len("_info")] if accept and fam.endswith("_info") else fam
            report(any(line.startswith(name + "{pid=\"%s\"" % pid) or line.startswith(name + "_bucket{pid=\"%s\"" % pid)
                       for line in samples) and ("# TYPE %s " % fam) in text,
                   "%s: %s is written, with its TYPE line" % (label, name))
        for prefix in DROPPED:
            held = [line for line in text.splitlines() if re.match(r"(# (HELP|TYPE|UNIT) )?" + re.escape(prefix), line)]
            report(not held, "%s: no line of %s* (%s)" % (label, prefix, held[0] if held else "none"))
        others = sorted({re.split(r"[{ ]", line)[0] for line in samples})
        report(all(n.startswith("jvm_") and not n.startswith("jvm_memory_limit") or n.startswith("gctop_target_info")
                   or n in ("gctop_allocated_bytes_total", "gctop_allocated_bytes_created") for n in others),
               "%s: only the families asked for are written: %s" % (label, ", ".join(others)))


def main():
    mode, port, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode == "families":
        families(port, pid)
        return 0
    one_format(port, pid, None, "Prometheus text")
    one_format(port, pid, OPENMETRICS, "OpenMetrics")
    h, body = scrape(port, "gzip;q=0, identity")
    report(h.get("Content-Encoding") is None and body.startswith(b"#"),
           "gzip;q=0 is answered plain (Content-Encoding %s)" % h.get("Content-Encoding"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
