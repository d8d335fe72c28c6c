"""The figures' summaries and tables every section prints: medians and
spreads over rounds (None, a failed measurement, left out) and numbers
as words of a few digits."""
import statistics
import sys


def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def spread(v):
    v = [x for x in v if x is not None]
    return (min(v), max(v)) if v else (None, None)


def fmt(x, unit="", digits=3):
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    if abs(x) >= 100:
        s = "%.0f" % x
    elif abs(x) >= 10:
        s = "%.1f" % x
    else:
        s = "%.*g" % (digits, x)
    return s + unit


def table(title, header, rows):
    print()
    print(title)
    w = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(header)]
    print("  " + "  ".join(str(h).ljust(w[i]) if i == 0 else str(h).rjust(w[i]) for i, h in enumerate(header)))
    print("  " + "  ".join("-" * x for x in w))
    for r in rows:
        print("  " + "  ".join(str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i]) for i, c in enumerate(r)))
    sys.stdout.flush()
