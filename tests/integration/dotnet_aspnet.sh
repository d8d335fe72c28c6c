#!/bin/sh
# test-lane: measuring
# gctop on an ASP.NET Core app: requests from its hosting counters, and bytes
# allocated per request, the figure users otherwise compute by hand. The app
# allocates 1,000,000 bytes per request plus what ASP.NET Core itself needs.
# Tolerances: requests over the window exact; bytes per request +-5% of the
# runtime's own GC.GetTotalAllocatedBytes delta divided by the requests made;
# in each interval of steady load, +-5% and one request's bytes (a request in
# flight at a counter poll has allocated before it and is counted after it).
# Steady: the requests are paced, and only intervals whose neighbours are
# busy too are held to that bound. Requests and allocation come from two
# counter groups that the runtime polls on separate timers, started a few
# to a few hundred milliseconds apart when the session enables them; a
# burst's edges fall into one group's interval and not the other's, while
# under a steady pace the offset takes as many requests out at one end as
# it adds at the other.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
exe=$(dotnet_program AspAlloc) || { fail "cannot build tests/dotnet/AspAlloc (log: $WORK/dotnet-build-AspAlloc.log)"; exit 0; }
out=$(dirname "$exe")
PORT=$((20000 + $$ % 20000))
REQUESTS=240
PACE=60
"$out/AspAlloc" "$PORT" 1000000 >"$WORK/app.log" 2>&1 &
APID=$!
CHILD_PIDS="$CHILD_PIDS $APID"

get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
wait_until 100 grep -q listening "$WORK/app.log"
before=$(get "http://127.0.0.1:$PORT/truth") || { fail "the app does not answer"; exit 0; }
sleep 0.5

# gctop's figures are as of the runtime's last counter poll (every second):
# the requests start once it has a first figure, and it samples for 16.5 s
# after that, 2.5 s past requests that take 4 s at their pace (up to 12 s
# on a loaded machine, where a request takes 50 ms).
"$GCTOP_BIN" -p "$APID" --json -d 1 -n 20 >"$WORK/g.json" 2>"$WORK/g.err" &
G=$!
sleep 3.5
python3 -c '
import sys, time, urllib.request
start = time.time()
for i in range(int(sys.argv[2])):
    time.sleep(max(0, start + i / float(sys.argv[3]) - time.time()))
    urllib.request.urlopen(sys.argv[1], timeout=5).read()
print(int(start * 1000), int(time.time() * 1000))' "http://127.0.0.1:$PORT/" "$REQUESTS" "$PACE" >"$WORK/span"
wait "$G"
rc=$?
check "gctop exits 0 ($rc: $(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]
after=$(get "http://127.0.0.1:$PORT/truth")

comparator "of the requests" python3 - "$WORK/g.json" "$before" "$after" "$REQUESTS" $(cat "$WORK/span") <<'PY'
import json, sys
from datetime import datetime
g = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
before, after, n, start_ms, end_ms = (int(x) for x in sys.argv[2:7])
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_aspnet: " + what, flush=True)
def ms(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp() * 1000
quiet_before = [x for x in g if ms(x) < start_ms and x["ops"] and x["alloc"]]
quiet_after = [x for x in g if ms(x) > end_ms + 2500]
if not quiet_before or not quiet_after:
    check(False, "no gctop sample with requests before (%d) or after (%d) the requests (which took %.1f s)" % (
        len(quiet_before), len(quiet_after), (end_ms - start_ms) / 1000))
    sys.exit(0)
first, last = quiet_before[-1], quiet_after[0]
ops = last["ops"]
check(ops is not None and ops["name"] == "requests", "ops are requests (%s)" % ops)
if ops is None:
    sys.exit(0)
reqs = ops["total"] - first["ops"]["total"]
check(reqs == n, "requests over the window %d, made %d" % (reqs, n))
per = (last["alloc"]["bytes_total"] - first["alloc"]["bytes_total"]) / reqs if reqs else 0
truth = (after - before) / n
check(abs(per - truth) <= 0.05 * truth, "bytes per request %.0f vs the runtime's %.0f (+-5%%)" % (per, truth))
# Each steady interval's figure (10 requests or more, and the intervals
# before and after it busy too): +-5%, and one request's bytes. A sample
# whose figures are as of the same runtime poll as the one before has no
# interval of its own (gctop samples on its clock, the runtime polls on
# its own): only samples that saw a new poll count.
rows = []
for p, x in zip(g, g[1:]):
    if x["ops"] and p["ops"] and x["ops"]["total"] != p["ops"]["total"]:
        rows.append((x["ops"]["bytes_per_op"], x["ops"]["total"] - p["ops"]["total"]))
steady = [rows[i] for i in range(1, len(rows) - 1)
          if rows[i][0] and min(rows[i - 1][1], rows[i][1], rows[i + 1][1]) >= 10]
check(bool(steady) and all(abs(b - truth) * r <= 0.05 * truth * r + truth for b, r in steady),
      "bytes per request in each steady interval %s within 5%% and one request of %.0f (requests per new poll: %s)" %
      (["%d over %d" % (b, r) for b, r in steady], truth, [r for _, r in rows]))
PY

for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
