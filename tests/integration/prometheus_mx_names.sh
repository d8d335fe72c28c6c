#!/bin/sh
# test-lane: measuring
# gctop --serve's jvm_* label values are the JVM's own, held against
# ManagementFactory in the same JVMs (tests/java/MxNames.java): one JVM per
# collector (Serial, Parallel, G1, ZGC, Shenandoah) on JDK 17 and, where
# installed, Temurin 25, all under one gctop --serve scraped by one real
# Prometheus. Each JVM idles while gctop begins watching, then churns and
# calls System.gc() when told to, printing its beans' counts before and
# after and its notifications' names, actions and durations. The checks
# (pools, collector names and actions, bucket shape, _count against the
# beans' counts, buckets between the GC log's and GcInfo's durations, no bucket ever
# going down) are in prometheus_mx_names.py; promtool check metrics runs
# on every scrape this test takes. Prometheus marks a scrape it cannot
# parse as an error: the target stays up with no error throughout.
# gctop_finding: a JVM that calls System.gc() every second (InducedGc) has
# the findings --doctor reports on it, id and severity, in Prometheus.
. tests/lib.sh
. tests/integration/prometheus_common.shlib
require_prometheus
require_java
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[ -x "$JDK25" ] || { skip_unless_ci runtime "jdk25: Temurin 25 is not installed at /usr/lib/jvm/temurin-25-jdk-amd64"; JDK25=""; }

prometheus_start

# The JVMs: "label pid log" triples for the checker, each with its GC log
# beside (LABEL.gc: the outer bound of each pause's length). G1 gets 128 MiB so that
# half its heap kept live starts concurrent cycles (remark and cleanup
# pauses) rather than only full collections.
JVMS=""
PIDS=""
start_jvm() {
	label=$1 javabin=$2 gc=$3 heap=$4
	"$javabin" -Xmx"$heap" -XX:+Use"$gc"GC -Xlog:gc:file="$WORK/$label.gc" -cp "$CLASSES" MxNames "$WORK/go" 30 \
		>"$WORK/$label.log" 2>&1 &
	CHILD_PIDS="$CHILD_PIDS $!"
	JVMS="$JVMS $label $! $WORK/$label.log"
	PIDS="${PIDS:+$PIDS,}$!"
}
for gc in Serial Parallel G1 Z Shenandoah; do
	heap=64m
	[ "$gc" = G1 ] && heap=128m
	start_jvm "jdk17-$gc" java "$gc" "$heap"
	[ -n "$JDK25" ] && start_jvm "jdk25-$gc" "$JDK25" "$gc" "$heap"
done
# A JVM with one steady finding (induced-gc) for gctop_finding, held to
# --doctor's report on it.
java -Xmx32m -XX:+UseSerialGC -cp "$CLASSES" InducedGc >"$WORK/induced.out" 2>&1 &
IPID=$!
CHILD_PIDS="$CHILD_PIDS $IPID"
PIDS="$PIDS,$IPID"
all_lines() {
	for _l in "$WORK"/jdk*.log; do grep -q "^$1\$" "$_l" || return 1; done
}
wait_until 600 all_lines ready || { fail "the JVMs did not start: $(tail -n 2 "$WORK"/jdk*.log)"; exit 0; }
wait_until 150 prom_ready || { fail "prometheus did not become ready: $(tail -3 "$WORK/prometheus.log")"; exit 0; }

# --doctor on the InducedGc JVM watches it from when gctop --serve does, so
# that its window and the serve's last intervals are the same span (the
# churn of the others slows its collections for both alike).
"$GCTOP_BIN" --doctor -p "$IPID" -d 20 >"$WORK/doctor" 2>"$WORK/doctor.err" &
DOC=$!
CHILD_PIDS="$CHILD_PIDS $DOC"
"$GCTOP_BIN" --serve "$GPORT" -p "$PIDS" -d 1 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }

# Every scrape this test takes passes promtool (the classic text).
SCRAPES=0
PROMTOOL_FAILS=0
scrape() {
	curl -s --max-time 2 "http://127.0.0.1:$GPORT/metrics" >"$WORK/scrape.txt" || return 1
	SCRAPES=$((SCRAPES + 1))
	if ! promtool check metrics <"$WORK/scrape.txt" >"$WORK/promtool.log" 2>&1 || [ -s "$WORK/promtool.log" ]; then
		PROMTOOL_FAILS=$((PROMTOOL_FAILS + 1))
		cp "$WORK/promtool.log" "$WORK/promtool.failed"
	fi
}
# every JVM in /metrics with its first sample (a histogram: the collectors
# are watched), read twice a round so that two of gctop's rounds pass
all_served() {
	scrape || return 1
	for _p in $(echo "$PIDS" | tr ',' ' '); do
		grep -q "^jvm_memory_used_bytes{pid=\"$_p\"" "$WORK/scrape.txt" || return 1
	done
}
missing() { for _p in $(echo "$PIDS" | tr ',' ' '); do grep -q "^jvm_memory_used_bytes{pid=\"$_p\"" "$WORK/scrape.txt" || echo "$_p"; done; }
wait_until 200 all_served || { fail "not every JVM is in /metrics (missing: $(missing | tr '\n' ' '); $(cat "$WORK/gctop.err"))"; exit 0; }
sleep 1.5
scrape

touch "$WORK/go"
done_scraping() { scrape; all_lines done; }
wait_until 900 done_scraping || fail "the JVMs did not finish: $(tail -n 2 "$WORK"/jdk*.log)"
# two of gctop's rounds and a scrape after the last collection
for _i in 1 2 3; do sleep 1; scrape; done
check "promtool check metrics passes on all $SCRAPES scrapes ($PROMTOOL_FAILS failed: $(head -c 300 "$WORK/promtool.failed" 2>/dev/null))" \
	[ "$PROMTOOL_FAILS" -eq 0 ]
check "Prometheus scrapes gctop with no error ($(head -c 300 "$WORK/targets.json" 2>/dev/null))" target_up

# shellcheck disable=SC2086 # triples of words
comparator prometheus_mx_names.py python3 tests/integration/prometheus_mx_names.py "$PPORT" $JVMS

# gctop_finding: what --doctor reports on the same JVM, id by id, with the
# same severity, as Prometheus stored it at the doctor's end.
wait "$DOC"
DOC_END=$(date +%s.%N)
sleep 1.5
sed -n 's/^  \(info\|warning\|critical\) *\([a-z0-9-]*\): .*/\2 \1/p' "$WORK/doctor" | sort >"$WORK/doctor.found"
PYTHONPATH=tests/integration python3 - "$PPORT" "$IPID" "$DOC_END" >"$WORK/serve.found" <<'PY'
import sys
from prometheus_compare import query
for s in query(sys.argv[1], 'gctop_finding{pid="%s"}' % sys.argv[2], float(sys.argv[3])):
    print(s["metric"]["id"], s["metric"]["severity"])
PY
sort -o "$WORK/serve.found" "$WORK/serve.found"
check "--doctor finds induced-gc on the JVM that asks for collections ($(tr '\n' ' ' <"$WORK/doctor.found"))" \
	grep -q '^induced-gc info$' "$WORK/doctor.found"
check "gctop_finding in Prometheus is what --doctor reports ($(tr '\n' ' ' <"$WORK/serve.found"))" \
	cmp -s "$WORK/doctor.found" "$WORK/serve.found"
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null
