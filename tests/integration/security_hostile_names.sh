#!/bin/sh
# sanitizer: yes
# One target's hostile names break nothing gctop writes for every target
# (issue 25 items 1, 6, 9): an unprivileged user's fake JVM and fake .NET
# process (security_fake_jvm.*, security_fake_dotnet.*, run as nobody when
# the test runs as root) against root's gctop.
#   /metrics: the JVM's main class and the .NET entry assembly are a
#     right-to-left override, 101 double quotes and 60 euro signs (escaped,
#     past the 320 bytes the old writer cut at, inside a euro sign). Both
#     formats are accepted whole by promtool (the classic text by `promtool
#     check metrics`, OpenMetrics by Prometheus' own parser), with a
#     well-named JVM's series in them, the hostile labels kept whole, and
#     no control or bidi character anywhere.
#   -w: the JVM's perf data names a last cause with raw and UTF-8 C1
#     controls, an override, ESC, BEL and invalid UTF-8. The recording is
#     valid UTF-8 with no such character, raw or as a JSON escape, and holds
#     the cause in the sanitiser's form.
#   -b and --json show no bidi control either.
. tests/lib.sh
. tests/integration/hostile_text.shlib
. tests/integration/security_fake_jvm.shlib
. tests/integration/security_fake_dotnet.shlib
trap 'stop_fake_jvm; [ -n "${PLAIN:-}" ] && kill "$PLAIN" 2>/dev/null; rm -f "${PLAIN_FILE:-}"; fake_jvm_cleanup; fake_cleanup; cleanup' EXIT INT TERM
command -v promtool >/dev/null 2>&1 || missing_runtime "promtool (Debian package prometheus)"
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

QUOTES=$(printf '"%.0s' $(seq 101))
# As Python escapes: the fakes decode them (security_fake_jvm.py, FAKE_ENTRY_ASSEMBLY).
EUROS_UTF8=$(printf '\\xe2\\x82\\xac%.0s' $(seq 60))
EUROS_UTF16=$(printf '\\u20ac%.0s' $(seq 60))
CAUSE='G1 \x9b2J\xc2\x9b1mEvac\xff\xc0\xaf\xe2\x80\xaePause\x1b]0;T\x07'
CAUSE_CLEAN='G1 ?2J?1mEvac????Pause?]0;T?'

start_fake_jvm jdk17-G1.hsperfdata "\\xe2\\x80\\xae$QUOTES$EUROS_UTF8 arg" '-Xmx64m' "$CAUSE" || exit 0
EVIL=$FAKE_JVM EVIL_FILE=$FAKE_JVM_FILE
FAKE_JVM=""
start_fake_jvm jdk17-Serial.hsperfdata 'PlainMain arg' || exit 0
PLAIN=$FAKE_JVM PLAIN_FILE=$FAKE_JVM_FILE
FAKE_JVM=$EVIL FAKE_JVM_FILE=$EVIL_FILE
FAKE_ENTRY_ASSEMBLY="\\u202e$QUOTES$EUROS_UTF16" start_fake stop 0.45 || exit 0
DOTNET=$FAKE

# ---- /metrics ----
"$GCTOP_BIN" --serve 127.0.0.1:0 -p "$EVIL,$PLAIN,$DOTNET" -d 0.5 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
serving() { grep -q 'serving http' "$WORK/gctop.err"; }
wait_until 100 serving || { fail "gctop --serve did not start: $(head -c 300 "$WORK/gctop.err")"; exit 0; }
PORT=$(sed -n 's#.*http://127.0.0.1:\([0-9]*\)/metrics#\1#p' "$WORK/gctop.err")
URL="http://127.0.0.1:$PORT/metrics"
# scrape FILE [ACCEPT]: every target's info series is in FILE.
scrape() {
	curl -s --max-time 2 ${2:+-H "Accept: $2"} "$URL" >"$1" 2>/dev/null &&
		for p in "$EVIL" "$PLAIN" "$DOTNET"; do grep -q "^gctop_target_info{pid=\"$p\"" "$1" || return 1; done
}
OM_ACCEPT='application/openmetrics-text;version=1.0.0'
check "every target is served, the hostile ones too" wait_until 150 scrape "$WORK/scrape.om" "$OM_ACCEPT"
scrape "$WORK/scrape.txt" || fail "the classic text lacks a target's info series: $(grep -c . "$WORK/scrape.txt") lines"
# want_main FILE PID RUNTIME TAIL: PID's main label is the override as '?',
# the quotes escaped, the 50 whole euro signs the 255 bytes of a main class
# hold, then TAIL: the JVM's is cut inside the 51st euro sign when read,
# which the sanitiser makes a '?'; .NET's is cut whole from its UTF-16.
want_main() {
	"${PY:-python3}" -c '
import sys
path, pid, runtime, tail = sys.argv[1:5]
want = "pid=\"%s\",runtime=\"%s\",main=\"?%s%s%s\"" % (pid, runtime, "\\\"" * 101, "\u20ac" * 50, tail)
sys.exit(0 if want in open(path, encoding="utf-8", errors="replace").read() else 1)
' "$@"
}
for f in scrape.txt scrape.om; do
	if why=$(text_clean "$WORK/$f" 2>&1); then pass "$f: valid UTF-8, no control or bidi character"; else fail "$f: $why"; fi
	check "$f: the hostile JVM's main label whole" want_main "$WORK/$f" "$EVIL" hotspot "?"
	check "$f: the hostile .NET entry assembly's label whole" want_main "$WORK/$f" "$DOTNET" dotnet ""
	check "$f: the well-named JVM's series" grep -q "^jvm_memory_used_bytes{pid=\"$PLAIN\",runtime=\"hotspot\",main=\"PlainMain\"" "$WORK/$f"
done
promtool check metrics <"$WORK/scrape.txt" >"$WORK/promtool.log" 2>&1
rc=$?
check "promtool check metrics accepts the classic text whole ($(head -c 300 "$WORK/promtool.log"))" [ "$rc" -eq 0 ]
if om_ok "$WORK/scrape.om"; then
	pass "Prometheus' OpenMetrics parser accepts the OpenMetrics text whole"
else
	fail "Prometheus' OpenMetrics parser refuses the OpenMetrics text: $(tail -1 "$WORK/om.log")"
fi
kill "$GPID" 2>/dev/null
wait "$GPID" 2>/dev/null

# ---- -w, -b, --json ----
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" -b -p "$EVIL" -n 2 -d 0.5 -w "$WORK/rec.ndjson" >"$WORK/b.txt" 2>"$WORK/err"
rc=$?
check "-b -w exits 0 ($(head -c 200 "$WORK/err"))" [ "$rc" -eq 0 ]
if why=$(text_clean "$WORK/rec.ndjson" ndjson 2>&1); then pass "-w: the recording is valid UTF-8, no control or bidi character, raw or escaped"; else fail "-w: $why"; fi
check "-w: the cause recorded cleaned" grep -qF "\"last_gc_cause\":\"$CAUSE_CLEAN\"" "$WORK/rec.ndjson"
if why=$(text_clean "$WORK/b.txt" 2>&1); then pass "-b: no control or bidi character"; else fail "-b: $why"; fi
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" --json -p "$EVIL" -n 1 >"$WORK/j.ndjson" 2>"$WORK/err"
if why=$(text_clean "$WORK/j.ndjson" ndjson 2>&1); then pass "--json: no control or bidi character, raw or escaped"; else fail "--json: $why"; fi
