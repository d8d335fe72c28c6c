"""Runs every query of contrib/grafana/gctop-dashboard.json against a real
Prometheus (tests/integration/grafana_dashboard.sh) and checks each returns
data for the runtimes it covers. The queries are read from the JSON itself,
so a panel added later is checked too; its variables are given their "All"
value, then each runtime in turn.

usage: grafana_dashboard.py DASHBOARD PROM_PORT TEST_NAME RUNTIME=PID... [leak=PID]

The live set's panels (its growth, the time to exhaustion) and the
findings' have data for a process that leaks: they are checked against
leak=PID, a JVM (runtime hotspot) leaking towards its heap's maximum.
"""
import json
import math
import re
import sys
import urllib.parse
import urllib.request

dash_path, port, test = sys.argv[1:4]
pids = dict(a.split("=", 1) for a in sys.argv[4:])   # runtime (or "leak") -> pid
LEAK = "leak"
RUNTIME_OF = {LEAK: "hotspot"}   # the runtime label of the leaking process


def runtime_of(rt):
    return RUNTIME_OF.get(rt, rt)
# Grafana's own variable for rate windows (four scrape intervals at least);
# the workloads collect every second or two, so 20 s always holds pauses.
RATE_INTERVAL = "20s"


def report(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)


def api(path, **params):
    url = "http://127.0.0.1:%s/api/v1/%s?%s" % (port, path, urllib.parse.urlencode(params, doseq=True))
    with urllib.request.urlopen(url, timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (path, body))
    return body["data"]


dash = json.load(open(dash_path))
variables = dash["templating"]["list"]


def substitute(expr, runtime):
    for v in variables:
        if v["type"] != "query":
            continue
        value = runtime_of(runtime) if v["name"] == "runtime" and runtime else v["allValue"]
        expr = expr.replace("$" + v["name"], value)
    return expr.replace("$__rate_interval", RATE_INTERVAL)


def covers(expr):
    """The runtimes a query is for: its OpenTelemetry family's, the leaking
    process for the live set's and the findings', else both."""
    if re.search(r"\bgctop_(live_set_|finding\b)", expr):
        return [LEAK]
    if re.search(r"\bjvm_", expr):
        return ["hotspot"]
    if re.search(r"\bdotnet_", expr):
        return ["dotnet"]
    return sorted(rt for rt in pids if rt != LEAK)


def finite(series):
    return [s for s in series if math.isfinite(float(s["value"][1]))]


targets = [(p["title"], t["expr"]) for p in dash["panels"] for t in p.get("targets", [])]
report(len(targets) >= 10, "the dashboard has its queries (%d)" % len(targets))
want = ("gctop_live_set_bytes", "gctop_live_set_growth_bytes_per_second", "gctop_live_set_exhaustion_seconds",
        "gctop_finding")
have = " ".join(e for _, e in targets)
report(all(re.search(r"\b%s\b" % w, have) for w in want),
       "the dashboard shows the live set, its growth, the time to exhaustion and the findings")
for title, expr in targets:
    for rt in covers(expr):
        q = substitute(expr, rt)
        try:
            got = finite(api("query", query=q)["result"])
        except Exception as e:  # a query Prometheus refuses is the dashboard's fault
            report(False, "%s: %s: %s" % (title, q, e))
            continue
        mine = [s for s in got if s["metric"].get("pid") == pids[rt]]
        others = [s for s in got if s["metric"].get("runtime") not in (None, runtime_of(rt))]
        report(mine and not others, "panel %r returns data for %s (%d series, %s%s)" % (
            title, rt, len(mine), q[:120], "; other runtimes: %s" % others[:1] if others else ""))

# The variables' own queries: Grafana's label_values(SELECTOR, LABEL) asks
# Prometheus for the values of LABEL among the series SELECTOR matches.
for v in variables:
    if v["type"] != "query":
        continue
    m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", v["query"]["query"])
    if not m:
        report(False, "variable %s: not a label_values query: %s" % (v["name"], v["query"]["query"]))
        continue
    sel = substitute(m.group(1), None)
    values = api("label/%s/values" % m.group(2), **{"match[]": sel})
    want = {"runtime": {runtime_of(rt) for rt in pids}}.get(v["name"])
    report(values and (want is None or want <= set(values)),
           "variable %s lists %s (%s)" % (v["name"], values[:4], sel))
