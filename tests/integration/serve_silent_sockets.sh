#!/bin/sh
# gctop --serve keeps its rounds with silent diagnostics sockets present:
# 8 fake .NET processes (as another user) accept every connection and never
# answer, so each listing waits out 8 ProcessInfo deadlines (2.4 s). The
# listing runs on a worker, so the JVM beside them is sampled every round:
# the figures a scrape returns are never older than the interval and a
# quarter (the round's own work and a late wake-up on a loaded machine).
# (Before: the listing ran in the round, which took as long as the listing,
# and the figures were 2.4 s old at -d 1; 4 s in the issue.)
#
# -p names the JVM and the fakes, so that other processes on the machine
# (other tests' runtimes) take no part in the rounds.
. tests/lib.sh
require_java
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
. tests/integration/security_fake_dotnet.shlib
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }

N_SILENT=8
INTERVAL_MS=1000
# What a round may add to the interval (see above).
SLACK_MS=$((INTERVAL_MS / 4))
# Scrapes for this long: the listing starts every round while /tmp changes,
# and at least every 10 s (FLEET_LIST_EVERY_NS).
WATCH_S=12

java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID"
wait_for_hsperf "$JPID" 20 || { fail "the JVM published no perf data"; exit 0; }
start_fakes "$N_SILENT" silent 0 || exit 0
PIDS=$(echo $JPID $FAKES | tr ' ' ',')

"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$PIDS" -d "$((INTERVAL_MS / 1000))" 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/gctop.err"; }
wait_until 50 serving || { fail "gctop --serve did not start: $(cat "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
scrape() { curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" 2>/dev/null | grep -q "^gctop_target_info{pid=\"$JPID\""; }
check "the JVM is served beside $N_SILENT silent sockets" wait_until 50 scrape

# Scrapes every 0.1 s for WATCH_S; prints the oldest figures' age in ms and
# how many scrapes had them.
"$PY" - "$PORT" "$JPID" "$WATCH_S" >"$WORK/ages" 2>&1 <<'PY'
import re, sys, time, urllib.request
port, pid, watch = sys.argv[1], sys.argv[2], float(sys.argv[3])
stamp = re.compile(r'^gctop_sample_timestamp_seconds\{[^}]*pid="%s"[^}]*\} (\S+)' % pid, re.M)
oldest, n, end = 0.0, 0, time.monotonic() + watch
while time.monotonic() < end:
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=2).read().decode()
    except OSError:
        text = ""
    now = time.time()
    m = stamp.search(text)
    if m:
        oldest = max(oldest, now - float(m.group(1)))
        n += 1
    time.sleep(0.1)
print(int(oldest * 1000), n)
PY
read -r age n <"$WORK/ages"
check "$n scrapes over ${WATCH_S} s read the JVM's figures (at least 50)" [ "${n:-0}" -ge 50 ]
check "the JVM's figures were at most $age ms old, within ${INTERVAL_MS} + ${SLACK_MS} ms, beside $N_SILENT silent sockets" \
	[ "${age:-99999}" -le $((INTERVAL_MS + SLACK_MS)) ]
