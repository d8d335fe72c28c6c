#!/bin/sh
# sanitizer: yes
# --serve's admission under a connect storm (issue 36, item 5): an
# unprivileged user opens connections to gctop --serve from 200 loopback
# addresses as fast as it can (up to 14000 a second, 25 s at most; each
# stays open without a byte sent, the newest 512 held; serve_storm.py),
# while legitimate scrapers, each sending its whole request at once, scrape
# /metrics (a fake JVM's, as the user): one scraper, then two that overlap
# from one address. A client that sends its whole request promptly is
# never dropped for one that has not, so at least 99% of the scrapes are
# answered in both cases (before: 4 of 15 scrapes emptied, and 13 of 42
# overlapping ones failed).
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
STORM=""
trap '[ -n "$STORM" ] && kill "$STORM" 2>/dev/null; fake_jvm_cleanup; cleanup' EXIT INT TERM
[ "$(id -u)" -eq 0 ] && [ -n "$JVM_AS" ] || {
	if [ "${CI:-}" = "true" ]; then fail "must run as root with setpriv under CI=true"; else skip "needs root and setpriv"; fi
	exit 0
}
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

start_fake_jvm jdk17-G1.hsperfdata 'StormMain' || exit 0
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$FAKE_JVM" 2>"$WORK/serve.err" &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"
wait_until 50 grep -qs 'serving http' "$WORK/serve.err" || { fail "--serve did not start: $(head -c 300 "$WORK/serve.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/serve.err")
# The scrapers count a scrape answered when it holds the target's series,
# so the storm starts once the target is in /metrics: on a busy machine
# its session opened more than a second after "serving" (15 scrapes
# answered without it, before the storm had any say).
in_metrics() { curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" 2>/dev/null | grep -q "^gctop_target_info{pid=\"$FAKE_JVM\""; }
wait_until 100 in_metrics || { fail "the fake JVM never appeared in /metrics: $(head -c 300 "$WORK/serve.err")"; exit 0; }

# storm NAME: the storm, as the test user, in the background.
storm() {
	# shellcheck disable=SC2086
	$JVM_AS "$JVM_PY" tests/integration/serve_storm.py storm "$PORT" 25 200 14000 >"$WORK/storm.$1" 2>&1 &
	STORM=$!
	sleep 1
}
storm_end() {
	wait "$STORM"
	STORM=""
	echo "$1: $(cat "$WORK/storm.$1")"
}

storm one
comparator one-scraper "$JVM_PY" tests/integration/serve_storm.py scrape "$PORT" "one scraper" 127.0.0.250 1 60 "$FAKE_JVM"
storm_end one
storm two
comparator two-scrapers "$JVM_PY" tests/integration/serve_storm.py scrape "$PORT" "two overlapping scrapers from one address" \
	127.0.0.251 2 100 "$FAKE_JVM"
storm_end two
check "gctop --serve still runs" kill -0 "$SPID"
