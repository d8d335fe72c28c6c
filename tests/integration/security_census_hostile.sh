#!/bin/sh
# test-lane: timed
# sanitizer: yes
# A census of a hostile JVM: a fake JVM (as nobody) whose attach listener
# answers inspectheap with class names full of escape sequences, C1 and
# bidirectional controls and invalid UTF-8, with more than the census's
# 16 MiB cap, and with a refusal that holds escape bytes. gctop sends jmap's
# three arguments and nothing else; its table and JSON carry no control
# byte and only valid UTF-8; the flood ends at the cap as a partial census
# that says so; a flood of short rows keeps 65536 types in bounded memory
# and says so; the refusal is one clean sentence and status 1; nothing is
# copied into the JVM's /tmp; a JVM that never answers holds gctop only
# until it is interrupted, and a census cut short so is no census: status
# 1 and a sentence that says so, nothing on stdout (issue 36; before, status
# 0 and empty output, which a script could not tell from success).
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
trap 'fake_jvm_cleanup; cleanup' EXIT INT TERM

# Only the fake JVM's shared library is needed here: the listener is the
# fake JVM itself (gctop checks that the socket's peer is the process).
start_fake_jvm jdk17-G1.hsperfdata 'Main' || exit 0
stop_fake_jvm
PIDFILE=$JVM_DIR/census.pid
chmod 777 "$JVM_DIR"
stage_for_others tests/integration/security_census_jvm.py || { fail "cannot stage the fake JVM where nobody can read it"; exit 0; }
# shellcheck disable=SC2086
$JVM_AS "$JVM_PY" "$STAGED/security_census_jvm.py" "$JVM_DIR/libjvm.so" "$PIDFILE" \
	hostile,hostile,flood,short,refuse,hang >"$WORK/server.log" 2>&1 &
SERVER=$!
CHILD_PIDS="$CHILD_PIDS $SERVER"
wait_for_file "$PIDFILE" 10 || { fail "the fake JVM did not start: $(cat "$WORK/server.log")"; exit 0; }
PID=$(cat "$PIDFILE")
FAKE_JVM_FILE=$JVM_PERF_DIR/$PID
"$JVM_PY" tests/integration/security_fake_jvm.py tests/data/hsperfdata/jdk17-G1.hsperfdata "$FAKE_JVM_FILE" "$PID" Main ||
	{ fail "cannot write the fake JVM's perf data"; exit 0; }
chmod 600 "$FAKE_JVM_FILE"
[ -n "$JVM_AS" ] && chown 65534:65534 "$FAKE_JVM_FILE"

# census N ARGS...: one census into out.N, err.N; its status in rc.N.
census() {
	n=$1
	shift
	LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" --census -p "$PID" "$@" >"$WORK/out.$n" 2>"$WORK/err.$n"
	echo $? >"$WORK/rc.$n"
}

census 1
check "the table of a hostile histogram: status 0 ($(cat "$WORK/rc.1"): $(head -c 200 "$WORK/err.1"))" [ "$(cat "$WORK/rc.1")" -eq 0 ]
check "the request is jmap -histo:live's: inspectheap -live, no file, default parallelism ($(cat "$PIDFILE.req1"))" \
	grep -qx '1|inspectheap|-live|||' "$PIDFILE.req1"
why=$(clean "$WORK/out.1" 2>&1)
check "the table has no control byte and is valid UTF-8 ($why)" [ -z "$why" ]
check "the table still names the types, in source form" grep -q 'com.evil.*Title\[\]' "$WORK/out.1"
check "byte[][] from [[B" grep -q 'byte\[\]\[\]' "$WORK/out.1"

census 2 --json
check "the JSON of a hostile histogram: status 0" [ "$(cat "$WORK/rc.2")" -eq 0 ]
why=$(clean "$WORK/out.2" 2>&1)
check "the JSON has no control byte and is valid UTF-8 ($why)" [ -z "$why" ]
comparator "of the hostile JSON" "$JVM_PY" - "$WORK/out.2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["total_count"] == 1527 and len(d["types"]) == 4 and d["partial"] is None
print(("PASS" if ok else "FAIL") + ": security_census_hostile: the JSON parses with its 4 types and the Total line's 1527 (%s, %d, %s)" % (d["total_count"], len(d["types"]), d["partial"]), flush=True)
PY

census 3 --json
check "a histogram past the cap: status 0 ($(cat "$WORK/rc.3"): $(head -c 200 "$WORK/err.3"))" [ "$(cat "$WORK/rc.3")" -eq 0 ]
comparator "of the capped JSON" "$JVM_PY" - "$WORK/out.3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# ~240000 rows of ~70 bytes: cut at 16 MiB, and the types at their cap
ok = d["partial"] is not None and "16 MiB" in d["partial"] and "65536" in d["partial"] and len(d["types"]) == 65536
print(("PASS" if ok else "FAIL") + ": security_census_hostile: cut at the 16 MiB cap and said so (%d types, partial %r)" % (len(d["types"]), d["partial"]), flush=True)
PY

# Short rows: ~840000 of them in 15 MiB, each a 272-byte type were it
# kept (1.1 GB peak measured before the type cap). Kept to 65536, gctop's
# peak is the reply's buffer (15 MiB), the types (~18 MB), qsort's copy of
# them, and the JSON: json-c's tree of 65536 objects (~40 MB) and its
# text; ~90 MB measured. 128 MiB leaves room for malloc's rounding, not
# for a type of every row. ASan's shadow and held-back blocks inflate
# every allocation, so there the bound is not checked.
"$JVM_PY" - "$WORK/out.4" "$WORK/err.4" "$WORK/rc.4" "$GCTOP_BIN" "$PID" <<'PY'
import resource, subprocess, sys
out, err, rcf, gctop, pid = sys.argv[1:6]
env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}
with open(out, "wb") as o, open(err, "wb") as e:
    rc = subprocess.call([gctop, "--census", "-p", pid, "--json"], stdout=o, stderr=e, env=env)
open(rcf, "w").write("%d\n" % rc)
open(out + ".rss", "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
check "short rows: status 0 ($(cat "$WORK/rc.4"): $(head -c 200 "$WORK/err.4"))" [ "$(cat "$WORK/rc.4")" -eq 0 ]
rss=$(cat "$WORK/out.4.rss")
if grep -qa __asan_init "$GCTOP_BIN"; then
	skip sanitizer "short rows: peak RSS $rss KB under ASan, whose allocations the bound is not for"
else
	check "short rows: gctop's peak RSS $rss KB stays under 128 MiB" [ "$rss" -lt 131072 ]
fi
comparator "of the short rows' JSON" "$JVM_PY" - "$WORK/out.4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = (len(d["types"]) == 65536 and d["partial"] is not None and "65536" in d["partial"]
      and d["total_count"] == 987654 and d["total_bytes"] == 321)
print(("PASS" if ok else "FAIL") + ": security_census_hostile: short rows keep 65536 types, the Total line's totals, and say why (%d types, %s, %s, partial %r)" % (len(d["types"]), d["total_count"], d["total_bytes"], d["partial"]), flush=True)
PY

census 5
rc=$(cat "$WORK/rc.5")
check "a refusal: status 1 (got $rc)" [ "$rc" -eq 1 ]
why=$(clean "$WORK/err.5" 2>&1)
check "the refusal is one clean sentence ($why: $(cat "$WORK/err.5"))" \
	sh -c '[ -z "$1" ] && [ "$(grep -c . "$2")" -eq 1 ]' - "$why" "$WORK/err.5"
check "it says the JVM refused" grep -q "refused the class histogram (status 101)" "$WORK/err.5"
check "nothing was copied into the JVM's /tmp" [ -z "$(ls /tmp/.gctop-agent-"$PID"* 2>/dev/null)" ]

# No answer: an interrupt ends the wait at once, with status 1. timeout
# bounds the wait should the interrupt not end it (it passes the INT on to
# gctop, and ends with gctop's status); unlike a watchdog subshell it
# leaves no sleep behind.
LANG=C.UTF-8 timeout -s KILL 8 "$GCTOP_BIN" --census -p "$PID" >"$WORK/out.6" 2>"$WORK/err.6" &
G=$!
CHILD_PIDS="$CHILD_PIDS $G"
wait_until 50 file_exists "$PIDFILE.req6"
sleep 0.5
check "a JVM that never answers: gctop still waits for it" kill -0 "$G"
t0=$(now_ms)
kill -INT "$G"
wait "$G"
rc=$?
took=$(($(now_ms) - t0))
check "an interrupt ends the wait within 2 s (took $took ms)" [ "$took" -lt 2000 ]
check "with status 1, not 0: no census was taken (got $rc: $(cat "$WORK/err.6"))" [ "$rc" -eq 1 ]
check "a sentence names the interrupt ($(cat "$WORK/err.6"))" \
	grep -q "^gctop: the census of process $PID was interrupted by SIGINT before it ended; nothing was written$" "$WORK/err.6"
check "and nothing is written on stdout" [ ! -s "$WORK/out.6" ]
