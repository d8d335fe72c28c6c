"""contrib/ holds together: the systemd unit and the Kubernetes DaemonSet
grant the same capabilities (the least set tests/integration/
contrib_least_privilege.sh measures), the DaemonSet is a well-formed
manifest with the hardening its comments promise, and the dashboard is
JSON with a query in every panel.

usage: contrib.py TEST_NAME
"""
import json
import re
import sys

test = sys.argv[1]


def report(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)


unit = open("contrib/systemd/gctop.service").read()
m = re.search(r"^CapabilityBoundingSet=(.*)$", unit, re.M)
unit_caps = sorted(c[len("CAP_"):] for c in m.group(1).split()) if m else []
report(unit_caps == ["DAC_OVERRIDE", "SYS_PTRACE"], "the unit bounds gctop to %s" % unit_caps)
for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=no", "ProtectProc=default"):
    report(re.search("^" + re.escape(line) + "$", unit, re.M) is not None, "the unit has %s" % line)
report(re.search(r"^ExecStart=\S*gctop --serve ", unit, re.M) is not None, "the unit runs gctop --serve")

try:
    import yaml
except ImportError:
    yaml = None
text = open("contrib/kubernetes/gctop-daemonset.yaml").read()
if yaml is None:
    # Without PyYAML: the keys the checks below need, by their lines.
    report(all(k in text for k in ("kind: DaemonSet", "hostPID: true", "readOnlyRootFilesystem: true")),
           "the DaemonSet's key lines are there (PyYAML missing: structure not checked)")
    sys.exit(0)
docs = [d for d in yaml.safe_load_all(text) if d]
report(len(docs) == 1 and docs[0].get("kind") == "DaemonSet" and docs[0].get("apiVersion") == "apps/v1",
       "one apps/v1 DaemonSet")
ds = docs[0]
spec = ds["spec"]["template"]["spec"]
labels = ds["spec"]["template"]["metadata"]["labels"]
report(all(labels.get(k) == v for k, v in ds["spec"]["selector"]["matchLabels"].items()),
       "the selector matches the pod template's labels")
report(spec.get("hostPID") is True, "hostPID: the node's processes")
report(not spec.get("volumes"), "no hostPath or other volume: /tmp is reached through /proc/PID/root")
(c,) = spec["containers"]
sc = c["securityContext"]
report(sc.get("readOnlyRootFilesystem") is True and sc.get("allowPrivilegeEscalation") is False
       and sc.get("privileged") is False, "read-only root, no escalation, not privileged")
# containerd makes added capabilities effective for uid 0 alone: for any
# other user they are gone at gctop's execve (no ambient ones are set).
report(sc.get("runAsUser") == 0, "runs as uid 0, for whom the added capabilities are effective")
caps = sc.get("capabilities", {})
report(caps.get("drop") == ["ALL"] and sorted(caps.get("add", [])) == unit_caps,
       "drops ALL and adds the unit's capabilities (%s)" % caps)
args = c.get("args", [])
port = str(c["ports"][0]["containerPort"])
ann = ds["spec"]["template"]["metadata"].get("annotations", {})
report(args[:1] == ["--serve"] and len(args) > 1 and args[1].endswith(":" + port),
       "serves on its declared port (%s)" % args)
report(ann.get("prometheus.io/scrape") == "true" and ann.get("prometheus.io/port") == port,
       "asks to be scraped there (%s)" % ann)
res = c.get("resources", {})
report(all(k in res.get(w, {}) for w in ("requests", "limits") for k in ("cpu", "memory")),
       "has CPU and memory requests and limits")

dash = json.load(open("contrib/grafana/gctop-dashboard.json"))
report(dash["panels"] and all(t.get("expr") for p in dash["panels"] for t in p.get("targets", [None]) if t),
       "every dashboard panel has a query")
