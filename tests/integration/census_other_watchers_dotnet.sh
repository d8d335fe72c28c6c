#!/bin/sh
# A .NET census is no finding in any gctop (issue 35, item 3), the sibling
# of census_other_watchers.sh (JVM). While gctop -p --json, a --doctor and
# a --serve watch tests/dotnet/AspAlloc (Server GC, 2 heaps), another gctop
# takes two censuses: two blocking gen2 collections with the reason
# Induced, as GC.Collect() gives, that none of the watchers asked for; none
# raises induced-gc for them (before, only the gctop that asked left its
# own out: the watchers said "the program asked for 2 collections"). Then
# the program calls GC.Collect() twice (GET /collect): --json and --serve
# raise induced-gc, counting exactly those 2 (GC.CollectionCount(2) moved
# by 2 on the program's side). About 30 s.
. tests/lib.sh
require_dotnet
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
exe=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }

PORT=$((20000 + ($$ + 7) % 20000))
get() { curl -s --max-time 10 "http://127.0.0.1:$PORT/$1"; }
DOTNET_gcServer=1 DOTNET_GCHeapCount=2 "$exe" "$PORT" >"$WORK/app.log" 2>&1 &
APID=$!
CHILD_PIDS="$CHILD_PIDS $APID"
wait_until 150 grep -q listening "$WORK/app.log" || { fail "the app did not start: $(head -c 300 "$WORK/app.log")"; exit 0; }

"$GCTOP_BIN" -p "$APID" --json -d 1 -n 26 >"$WORK/watch.json" 2>"$WORK/watch.err" &
WATCH=$!
"$GCTOP_BIN" --doctor -p "$APID" -d 12 >"$WORK/doctor" 2>"$WORK/doctor.err" &
DOCTOR=$!
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$APID" -d 1 2>"$WORK/serve.err" &
SERVE=$!
CHILD_PIDS="$CHILD_PIDS $WATCH $DOCTOR $SERVE"
serving() { grep -q 'serving http' "$WORK/serve.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/serve.err")"; exit 0; }
SPORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
served() { curl -s --max-time 2 "http://127.0.0.1:$SPORT/metrics" >"$WORK/scrape" 2>/dev/null &&
	grep -q "^gctop_sample_timestamp_seconds{pid=\"$APID\"" "$WORK/scrape"; }
wait_until 100 served || { fail "--serve never served the app"; exit 0; }
# serve_after MS FILE: --serve's scrape (kept in FILE) holds a sample of the
# app taken after MS (ms since the epoch).
serve_after() {
	curl -s --max-time 2 "http://127.0.0.1:$SPORT/metrics" >"$2" 2>/dev/null &&
		awk -v pid="$APID" -v ms="$1" 'index($0, "gctop_sample_timestamp_seconds{pid=\"" pid "\"") == 1 &&
			$NF * 1000 > ms { ok = 1 } END { exit !ok }' "$2"
}
# json_after MS: the --json watcher printed a sample taken after MS.
json_after() {
	python3 -c 'import json, sys, datetime
for l in open(sys.argv[1]):
    if l.strip():
        t = datetime.datetime.strptime(json.loads(l)["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        if t.timestamp() * 1000 > int(sys.argv[2]):
            sys.exit(0)
sys.exit(1)' "$WORK/watch.json" "$1"
}
sleep 2

"$GCTOP_BIN" --census -p "$APID" >"$WORK/census1" 2>&1
rc1=$?
sleep 1.5
"$GCTOP_BIN" --census -p "$APID" >"$WORK/census2" 2>&1
rc2=$?
check "two censuses ran (status $rc1, $rc2: $(grep -h -m1 "^gctop:" "$WORK/census1" "$WORK/census2"))" [ "$rc1" -eq 0 -a "$rc2" -eq 0 ]
wait "$DOCTOR"
drc=$?
# The watchers' absence checks read samples taken 2 s after the censuses
# ended at the earliest (the session's events reach gctop within about a
# second): --serve's scrape and the lines of --json up to then.
after_censuses=$(($(now_ms) + 2000))
check "--serve sampled after the censuses" wait_until 100 serve_after "$after_censuses" "$WORK/scrape.censuses"
check "--json sampled after the censuses" wait_until 100 json_after "$after_censuses"
lines_censuses=$(grep -c . "$WORK/watch.json")

gen2_before=$(get collect)
gen2_after=$(get collect)
after_collect=$(($(now_ms) + 2000))
check "--serve sampled after GC.Collect" wait_until 100 serve_after "$after_collect" "$WORK/scrape.collect"
wait "$WATCH"
wrc=$?
kill "$SERVE" 2>/dev/null

check "--doctor raised no induced-gc for the censuses (status $drc: $(grep -m3 -E '^  (info|warning|critical)' "$WORK/doctor"))" \
	sh -c 'grep -q "^Findings:" "$1" && ! grep -q induced-gc "$1"' _ "$WORK/doctor"
check "--serve has no induced-gc after the censuses ($(grep "^gctop_finding{pid=\"$APID\"" "$WORK/scrape.censuses" | head -c 300))" \
	sh -c '! grep -q "^gctop_finding{pid=\"$1\".*induced-gc" "$2"' _ "$APID" "$WORK/scrape.censuses"
check "--serve raises induced-gc after GC.Collect ($(grep "^gctop_finding{pid=\"$APID\"" "$WORK/scrape.collect" | head -c 300))" \
	grep -q "^gctop_finding{pid=\"$APID\".*induced-gc" "$WORK/scrape.collect"
check "the watcher exited 0 (status $wrc: $(head -c 200 "$WORK/watch.err"))" [ "$wrc" -eq 0 ]

comparator census_watchers_dotnet python3 - "$WORK/watch.json" "$lines_censuses" "$gen2_before" "$gen2_after" \
	"$TEST_NAME" <<'PY'
import json, sys
path, n_censuses, g0, g1, test = sys.argv[1:6]
lines = [json.loads(l) for l in open(path) if l.strip()]
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (test, what), flush=True)
def induced(l):
    return [f for f in l.get("findings") or [] if f["id"] == "induced-gc"]
before = lines[:int(n_censuses)]
check(all(not induced(l) for l in before),
      "no induced-gc while only the censuses collected (%s)" % [induced(l) for l in before if induced(l)][:1])
last = induced(lines[-1])
n = last[0]["evidence"]["induced_collections"] if last else None
# /collect answers GC.CollectionCount(2) after its own GC.Collect
check(g0.isdigit() and g1.isdigit() and int(g1) > int(g0),
      "the program collected twice (GC.CollectionCount(2) %r then %r)" % (g0, g1))
check(n == 2, "induced-gc counts the program's 2 GC.Collect calls, not the censuses (%s)" % n)
PY
