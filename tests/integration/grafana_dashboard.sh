#!/bin/sh
# test-lane: measuring
# contrib/grafana/gctop-dashboard.json against a real Prometheus (Debian's)
# scraping gctop --serve, which watches a JVM counting operations in a
# perf-data counter (--ops), an ASP.NET Core app under load allocating
# large objects, and a JVM leaking 1 MiB/s towards its 256 MiB heap
# (tests/java/LeakWorkload.java, as jvm_live_set.sh runs it): every panel's
# query, read from the JSON, returns data for each runtime it covers, the
# live set's panels (its growth, the time to exhaustion) and the findings'
# for the leaking JVM (tests/integration/grafana_dashboard.py).
# The same scrape carries the container labels: the JVM runs in a memory
# cgroup shaped as the kubelet's cgroupfs driver makes them
# (.../kubepods/besteffort/podUID/CONTAINER_ID), the .NET app in a plain
# one. Every JVM series then has container_id and k8s_pod_uid, no .NET
# series has either, --json and -b say the same, and the join with
# kube-state-metrics documented in gctop(1) finds the pod (a stand-in
# kube-state-metrics serves kube_pod_container_info with the labels its
# source gives it: container_id="containerd://ID", uid). About 100 s: the
# live set's growth and its exhaustion have no series until the leak's
# points span a minute (GT_LIVE_SET_MIN_SPAN_NS), and the test waits for
# them (and for the finding that names the leak) rather than a fixed time.
. tests/lib.sh
. tests/integration/prometheus.shlib
command -v prometheus >/dev/null 2>&1 || missing_runtime "prometheus (Debian package prometheus)"
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
require_java
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
ASP=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }
CID=4c0d2a1f9e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c
PUID=7f3e2d1c-0b9a-4876-9543-210fedcba987
COUNTER=gctop.test.ops

make_memory_cgroup gctop-k8s $((768 * 1024 * 1024))
POD="$GROUP/kubepods/besteffort/pod$PUID"
mkdir -p "$POD/$CID" "$GROUP/app" || { fail "cannot make the groups below $GROUP"; exit 0; }
# The nested groups go after the processes in them (cleanup kills and waits
# for those), before lib.sh's cleanup removes the top one.
CGROUP_MADE=
remove_groups() {
	cleanup
	for g in "$POD/$CID" "$POD" "$GROUP/kubepods/besteffort" "$GROUP/kubepods" "$GROUP/app" "$GROUP"; do
		i=0
		while [ -d "$g" ] && ! rmdir "$g" 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	done
}
trap remove_groups EXIT INT TERM

PPORT=$(free_port)
GPORT=$(free_port)
KPORT=$(free_port)
APORT=$(free_port)

# The stand-in kube-state-metrics: a static /metrics.
mkdir -p "$WORK/ksm"
cat >"$WORK/ksm/metrics" <<KSM
# TYPE kube_pod_container_info gauge
kube_pod_container_info{namespace="shop",pod="cart-0",uid="$PUID",container="cart",image="cart:1",image_id="",container_id="containerd://$CID"} 1
# TYPE kube_pod_info gauge
kube_pod_info{namespace="shop",pod="cart-0",uid="$PUID",node="n1"} 1
KSM
python3 -m http.server --bind 127.0.0.1 --directory "$WORK/ksm" "$KPORT" >"$WORK/ksm.log" 2>&1 &
CHILD_PIDS="$CHILD_PIDS $!"

start_prometheus "$PPORT" "gctop=127.0.0.1:$GPORT" "kube-state-metrics=127.0.0.1:$KPORT"

# The JVM: 500 operations/s of 32 KiB (16 MB/s) into a 16 MiB young
# generation, so G1 pauses every second or so; the app: 1 MB per request in
# 100 KB arrays (the large object heap), a small gen0 budget for the same.
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$POD/$CID" \
	java -XX:+UseG1GC -Xmx128m -Xmn16m --add-exports java.base/jdk.internal.perf=ALL-UNNAMED \
	-cp "$CLASSES" OpsWorkload "$COUNTER" 1 500 32768 300 >"$WORK/jvm.log" 2>&1 &
JPID=$!
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$GROUP/app" \
	env DOTNET_GCgen0size=0x1000000 "$ASP" "$APORT" 1000000 100000 >"$WORK/app.log" 2>&1 &
DPID=$!
# The leak: 1 MiB/s into a 256 MiB heap among churn, G1 starting its
# concurrent cycles (the live set's points) from the first seconds; it
# would die of OutOfMemoryError some 3 minutes on, within the 10 minutes
# that make the finding critical.
java -Xmx256m -Xms256m -XX:+UseG1GC -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=20 \
	-cp "$CLASSES" LeakWorkload 1024 300 2 40 16 8 5 >"$WORK/leak.log" 2>&1 &
LPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $DPID $LPID"
wait_until 150 grep -q '^ops ' "$WORK/jvm.log" || { fail "the JVM does not count: $(head -c 300 "$WORK/jvm.log")"; exit 0; }
wait_until 150 grep -q listening "$WORK/app.log" || { fail "the app does not listen: $(head -c 300 "$WORK/app.log")"; exit 0; }
check "the JVM runs in the pod's container group" grep -q "/pod$PUID/$CID\$" "/proc/$JPID/cgroup"

# 10 requests a second until the end of the test.
python3 -c '
import sys, time, urllib.request
start = time.time()
for i in range(3000):
    time.sleep(max(0, start + i / 10.0 - time.time()))
    urllib.request.urlopen(sys.argv[1], timeout=5).read()' "http://127.0.0.1:$APORT/" >/dev/null 2>&1 &
CHILD_PIDS="$CHILD_PIDS $!"

"$GCTOP_BIN" --serve "$GPORT" -p "$JPID,$DPID,$LPID" --ops "$COUNTER" -d 1 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"

# --json and -b meanwhile (one sample each).
"$GCTOP_BIN" -p "$JPID" --json -n 1 >"$WORK/jvm.json" 2>"$WORK/json.err"
check "--json: target.container_id and k8s_pod_uid of the JVM ($(head -c 200 "$WORK/json.err"))" \
	python3 -c 'import json, sys; t = json.loads(open(sys.argv[1]).readline())["target"]
sys.exit(0 if (t["container_id"], t["k8s_pod_uid"]) == tuple(sys.argv[2:4]) else 1)' "$WORK/jvm.json" "$CID" "$PUID"
"$GCTOP_BIN" -p "$DPID" --json -n 1 >"$WORK/app.json" 2>>"$WORK/json.err"
check "--json: null ids for the .NET app outside any container" \
	python3 -c 'import json, sys; t = json.loads(open(sys.argv[1]).readline())["target"]
sys.exit(0 if t["container_id"] is None and t["k8s_pod_uid"] is None else 1)' "$WORK/app.json"
"$GCTOP_BIN" -p "$JPID" -b -n 1 >"$WORK/jvm.txt" 2>&1
check "-b: the header names the container and pod" grep -qx "Container: $CID  pod $PUID" "$WORK/jvm.txt"

# Data for the panels: 21 s of scrapes (a 20 s rate window) once both
# processes are served, and the leak's growth, exhaustion and finding
# (a minute of its points after its warm-up; 180 s at most).
# prom_has QUERY: the instant vector QUERY is not empty. Read with grep, not
# a python: the waits below ask every tenth of a second for a minute or
# more, and a python's start-up apiece cost the test ~30 s of CPU.
# (Prometheus writes its JSON compact; a vector's first element is an
# object, so an empty result and an error both lack '"result":[{'.)
prom_has() {
	curl -s --max-time 2 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" 2>/dev/null |
		grep -q '"result":\[{'
}
served() { prom_has "gctop_requests_total{pid=\"$JPID\"} and on () gctop_requests_total{pid=\"$DPID\"}"; }
wait_until 300 served || { fail "Prometheus never stored both processes' requests: $(tail -3 "$WORK/gctop.err")"; exit 0; }
served_at=$(now_ms)
leak_shown() {
	prom_has "gctop_live_set_exhaustion_seconds{pid=\"$LPID\"} and on () gctop_finding{pid=\"$LPID\",id=\"live-set-growth\"}"
}
check "the leaking JVM's time to exhaustion and its live-set-growth finding reach Prometheus within 180 s" \
	wait_until 1800 leak_shown
check "the leaking JVM is still alive when they do (the panels are read before it dies)" kill -0 "$LPID"
left=$((21000 - ($(now_ms) - served_at)))
[ "$left" -gt 0 ] && sleep "$(awk -v ms="$left" 'BEGIN { printf "%.1f", ms / 1000 }')"

comparator grafana_dashboard.py python3 tests/integration/grafana_dashboard.py contrib/grafana/gctop-dashboard.json "$PPORT" "$TEST_NAME" \
	"hotspot=$JPID" "dotnet=$DPID" "leak=$LPID"

# The labels as Prometheus stored them: on every JVM series, on no .NET one.
count_of() {
	curl -s --max-time 5 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=count($1)" |
		python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'
}
all=$(count_of "{job=\"gctop\",pid=\"$JPID\"}")
labelled=$(count_of "{job=\"gctop\",pid=\"$JPID\",container_id=\"$CID\",k8s_pod_uid=\"$PUID\"}")
all_of() { [ "$1" -gt 20 ] && [ "$2" = "$1" ]; }
check "every JVM series carries container_id and k8s_pod_uid ($labelled of $all)" all_of "$all" "$labelled"
bare=$(count_of "{job=\"gctop\",pid=\"$DPID\",container_id=\"\",k8s_pod_uid=\"\"}")
dn_all=$(count_of "{job=\"gctop\",pid=\"$DPID\"}")
check "no .NET series has either label ($bare of $dn_all without)" all_of "$dn_all" "$bare"
join="gctop_allocated_bytes_total{pid=\"$JPID\"} * on (container_id) group_left (namespace, pod, container) \
label_replace(kube_pod_container_info, \"container_id\", \"\$1\", \"container_id\", \".*://(.*)\")"
check "the documented join with kube-state-metrics names the JVM's pod" \
	prom_has "($join) and on (namespace, pod, container) kube_pod_container_info{namespace=\"shop\",pod=\"cart-0\",container=\"cart\"}"
check "and by pod UID" prom_has "gctop_target_info{pid=\"$JPID\"} * on (k8s_pod_uid) group_left (pod) label_replace(kube_pod_info, \"k8s_pod_uid\", \"\$1\", \"uid\", \"(.+)\")"
