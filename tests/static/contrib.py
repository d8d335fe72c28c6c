"""contrib/ holds together: the systemd unit and the Kubernetes DaemonSet
grant the same capabilities (the least set tests/integration/
contrib_least_privilege.sh measures), both serve through --web-config
(TLS and a password: what gctop serves is not for everyone who can
connect), the unit filters system calls (tests/integration/
contrib_syscalls.sh holds gctop's against it), the DaemonSet is a
well-formed manifest with the hardening its comments promise, its Secret
mounted and a NetworkPolicy beside it, and the dashboard is JSON with a
query in every panel.

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
report(re.search(r"^ExecStart=\S*gctop --serve \S+ --web-config /etc/gctop/\S+", unit, re.M) is not None,
       "the unit serves through --web-config")
report(re.search(r"^RestartPreventExitStatus=18$", unit, re.M) is not None,
       "the unit does not restart on a malformed web-config (18)")
filters = re.findall(r"^SystemCallFilter=(.*)$", unit, re.M)
report(filters[:1] == ["@system-service"] and all(f.startswith("~") for f in filters[1:]),
       "the unit allows @system-service and takes from it only (%s)" % filters)
report(re.search(r"^SystemCallErrorNumber=EPERM$", unit, re.M) is not None, "a filtered call fails with EPERM")

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
report([(d.get("apiVersion"), d.get("kind")) for d in docs]
       == [("apps/v1", "DaemonSet"), ("networking.k8s.io/v1", "NetworkPolicy")],
       "an apps/v1 DaemonSet and a NetworkPolicy")
ds = docs[0]
report("pod's IP only" not in text, "the comments do not claim the pod's IP is reachable from it alone")
spec = ds["spec"]["template"]["spec"]
labels = ds["spec"]["template"]["metadata"]["labels"]
report(all(labels.get(k) == v for k, v in ds["spec"]["selector"]["matchLabels"].items()),
       "the selector matches the pod template's labels")
report(spec.get("hostPID") is True, "hostPID: the node's processes")
vols = spec.get("volumes", [])
report(len(vols) == 1 and set(vols[0]) == {"name", "secret"},
       "no hostPath or other volume but the web-config's Secret: /tmp is reached through /proc/PID/root")
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
mounts = {m["name"]: m for m in c.get("volumeMounts", [])}
wc = args[args.index("--web-config") + 1] if "--web-config" in args[:-1] else ""
report(bool(vols) and vols[0]["name"] in mounts and mounts[vols[0]["name"]].get("readOnly") is True
       and wc.startswith(mounts[vols[0]["name"]]["mountPath"].rstrip("/") + "/"),
       "serves through --web-config from the Secret, mounted read-only (%s)" % wc)
report("httpGet" not in c.get("readinessProbe", {}) and "httpGet" not in c.get("livenessProbe", {}),
       "no HTTP probe, which would carry no certificate or password")
report(ann.get("prometheus.io/scrape") == "true" and ann.get("prometheus.io/port") == port
       and ann.get("prometheus.io/scheme") == "https", "asks to be scraped there, over https (%s)" % ann)
if len(docs) > 1:
    np = docs[1]["spec"]
    ingress = np.get("ingress", [])
    report(np.get("podSelector", {}).get("matchLabels") == ds["spec"]["selector"]["matchLabels"]
           and np.get("policyTypes") == ["Ingress"],
           "the NetworkPolicy holds the DaemonSet's pods")
    report(len(ingress) == 1 and ingress[0].get("from") and all(
        f.get("podSelector") for f in ingress[0]["from"])
           and [str(p.get("port")) for p in ingress[0].get("ports", [])] == [port],
           "it lets in only selected pods, only to gctop's port (%s)" % ingress)
res = c.get("resources", {})
report(all(k in res.get(w, {}) for w in ("requests", "limits") for k in ("cpu", "memory")),
       "has CPU and memory requests and limits")

dash = json.load(open("contrib/grafana/gctop-dashboard.json"))
report(dash["panels"] and all(t.get("expr") for p in dash["panels"] for t in p.get("targets", [None]) if t),
       "every dashboard panel has a query")
