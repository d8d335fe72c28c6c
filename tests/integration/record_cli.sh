#!/bin/sh
# sanitizer: yes
# gctop -w and -r from the command line on a live JVM: the replay of a
# --json recording prints exactly what gctop printed live; the full-screen
# view records too; a gctop killed (SIGKILL) while recording leaves a file
# -r reads; and recordings gctop cannot read, or cannot write, end with one
# sentence and the documented status (10, 1; 2 for a bad command line).
. tests/lib.sh
. tests/tui/tui_common.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$CLASSES" AllocWorkload small 40 30 1
wait_until 100 grep -q '^alloc ' "$WORK/java.log"

# Live --json and its replay: the same lines, byte for byte.
"$GCTOP_BIN" -p "$JPID" --json -d 0.3 -n 5 -w "$WORK/rec.ndjson" >"$WORK/live.json" 2>"$WORK/live.err"
rc=$?
check "gctop --json -w exits 0 ($(head -c 200 "$WORK/live.err"))" [ "$rc" -eq 0 ]
check "the recording has a header and six samples (the first starts the first interval)" \
	sh -c '[ "$(head -1 "$1" | grep -c "\"format\":\"gctop-recording\",\"version\":2")" = 1 ] && [ "$(grep -c "\"type\":\"sample\"" "$1")" = 6 ]' - "$WORK/rec.ndjson"
check "the recording is private to its owner (0600)" [ "$(stat -c %a "$WORK/rec.ndjson")" = 600 ]
"$GCTOP_BIN" -r "$WORK/rec.ndjson" --json >"$WORK/replay.json" 2>"$WORK/replay.err"
rc=$?
check "gctop -r --json exits 0 ($(head -c 200 "$WORK/replay.err"))" [ "$rc" -eq 0 ]
check "the replay prints what gctop printed live" cmp -s "$WORK/live.json" "$WORK/replay.json"
"$GCTOP_BIN" -r "$WORK/rec.ndjson" -b -n 2 >"$WORK/replay.txt"
check "gctop -r -b -n 2 prints two blocks" [ "$(grep -c '^gctop - ' "$WORK/replay.txt")" -eq 2 ]
check "a -b replay's header says replay and names the file, not live" \
	[ "$(grep -c "^gctop - .*  replay $WORK/rec.ndjson\$" "$WORK/replay.txt")" -eq 2 ]

# The full-screen view records as well.
start_gctop -p "$JPID" -d 0.3 -w "$WORK/tui.ndjson"
if wait_screen "LIVE +PID $JPID" 10; then
	pass "the full-screen view shows PID $JPID live"
else
	fail "the full-screen view did not show PID $JPID live within 10 s: $(screen | head -3)"
fi
sleep 1.5
tm send-keys q
status=$(wait_exit 5)
check "the full-screen view with -w exits 0 on q (status '$status'; $(screen | tail -3))" [ "$status" = 0 ]
n=$(grep -c '"type":"sample"' "$WORK/tui.ndjson")
check "the full-screen view recorded its samples ($n)" [ "$n" -ge 3 ]
"$GCTOP_BIN" -r "$WORK/tui.ndjson" -b >/dev/null 2>"$WORK/tui.err"
rc=$?
check "and -r reads them ($(head -c 200 "$WORK/tui.err"))" [ "$rc" -eq 0 ]

# Killed while recording: every line but perhaps the last is whole.
"$GCTOP_BIN" -p "$JPID" -b -d 0.1 -w "$WORK/killed.ndjson" >/dev/null 2>&1 &
g=$!
wait_until 50 sh -c '[ "$(grep -c "\"type\":\"sample\"" "$1" 2>/dev/null)" -ge 5 ] 2>/dev/null' - "$WORK/killed.ndjson"
kill -KILL "$g"
wait "$g" 2>/dev/null
"$GCTOP_BIN" -r "$WORK/killed.ndjson" --json >/dev/null 2>"$WORK/killed.err"
rc=$?
check "a recording of a killed gctop is read ($(head -c 200 "$WORK/killed.err"))" [ "$rc" -eq 0 ]

# Recordings gctop cannot read: status 10 and one sentence.
head -c 300 "$WORK/rec.ndjson" >"$WORK/cut-header.ndjson"
: >"$WORK/empty.ndjson"
printf 'hello\n' >"$WORK/text.ndjson"
{ head -2 "$WORK/rec.ndjson"; printf '{"type":"sample","mono_ns":-5}\n'; } >"$WORK/negative.ndjson"
head -2 "$WORK/rec.ndjson" >"$WORK/one.ndjson"
for f in cut-header empty text negative; do
	"$GCTOP_BIN" -r "$WORK/$f.ndjson" -b >/dev/null 2>"$WORK/$f.err"
	rc=$?
	check "-r $f: status 10 ($rc) and one sentence ($(cat "$WORK/$f.err"))" \
		sh -c '[ "$1" -eq 10 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "not a recording gctop can read" "$2"' - "$rc" "$WORK/$f.err"
done
"$GCTOP_BIN" --compare "$WORK/rec.ndjson" "$WORK/one.ndjson" >/dev/null 2>"$WORK/one.err"
rc=$?
check "--compare with a one-sample recording: status 10 ($(cat "$WORK/one.err"))" [ "$rc" -eq 10 ]
"$GCTOP_BIN" --compare "$WORK/rec.ndjson" "$WORK/missing.ndjson" >/dev/null 2>"$WORK/missing.err"
rc=$?
check "--compare with a missing file: status 1 ($(cat "$WORK/missing.err"))" [ "$rc" -eq 1 ]
"$GCTOP_BIN" -p "$JPID" -b -n 1 -w /proc/self/no-such-dir/x >/dev/null 2>"$WORK/unwritable.err"
rc=$?
check "-w to a file that cannot be made: status 1 ($(cat "$WORK/unwritable.err"))" \
	sh -c '[ "$1" -eq 1 ] && grep -q "cannot create the recording" "$2"' - "$rc" "$WORK/unwritable.err"
"$GCTOP_BIN" --compare "$WORK/rec.ndjson" --fail-if 'nothing>+1%' >/dev/null 2>"$WORK/usage.err"
rc=$?
check "--fail-if naming no figure: status 2 ($(cat "$WORK/usage.err"))" [ "$rc" -eq 2 ]
