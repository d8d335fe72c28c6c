#!/bin/sh
# sanitizer: yes
# gctop --serve keeps its rounds with silent diagnostics sockets present:
# 8 fake .NET processes (as another user) accept every connection and never
# answer, so each listing waits out 8 ProcessInfo deadlines (2.4 s). The
# listing runs on a worker, so the JVM beside them is sampled every round:
# gctop's own sample timestamps (gctop_sample_timestamp_seconds) are never
# further apart than the interval and a quarter (the round's own work and a
# late wake-up on a loaded machine). Measured between gctop's timestamps,
# not from the scraper's clock, so a scraper another workload delays does
# not count as gctop's lateness.
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

# Scrapes every 0.1 s for WATCH_S; prints the longest gap in ms between two
# successive sample timestamps of the JVM's, how many scrapes had them, and
# how many gaps were measured. A gap counts only where the scraper saw both
# ends without a pause of its own longer than half an interval between its
# scrapes: then no round between them went unseen.
"$PY" - "$PORT" "$JPID" "$WATCH_S" "$INTERVAL_MS" >"$WORK/gaps" 2>&1 <<'PY'
import re, sys, time, urllib.request
port, pid, watch, interval = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]) / 1000
stamp = re.compile(r'^gctop_sample_timestamp_seconds\{[^}]*pid="%s"[^}]*\} (\S+)' % pid, re.M)
widest, n, gaps, end = 0.0, 0, 0, time.monotonic() + watch
last = seen_at = None
unbroken = False
while time.monotonic() < end:
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=2).read().decode()
    except OSError:
        text = ""
    now = time.monotonic()
    m = stamp.search(text)
    if m:
        n += 1
        t = float(m.group(1))
        unbroken = unbroken and seen_at is not None and now - seen_at <= interval / 2
        if last is not None and t != last:
            if unbroken:
                widest, gaps = max(widest, t - last), gaps + 1
            last, unbroken = t, True
        elif last is None:
            last, unbroken = t, True
        seen_at = now
    else:
        unbroken = False
    time.sleep(0.1)
print(int(widest * 1000), n, gaps)
PY
read -r gap n gaps <"$WORK/gaps"
check "$n scrapes over ${WATCH_S} s read the JVM's figures (at least 50)" [ "${n:-0}" -ge 50 ]
check "gctop sampled the JVM at most $gap ms apart (its own timestamps, $gaps gaps seen whole, at least 5), within ${INTERVAL_MS} + ${SLACK_MS} ms, beside $N_SILENT silent sockets" \
	sh -c "[ '${gaps:-0}' -ge 5 ] && [ '${gap:-99999}' -le $((INTERVAL_MS + SLACK_MS)) ]"
