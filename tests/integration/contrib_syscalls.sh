#!/bin/sh
# contrib/systemd/gctop.service's SystemCallFilter= lets gctop --serve do
# its work: every system call it makes (strace -f) while it serves a JVM and
# a .NET process over TLS with basic authentication (the unit's
# --web-config), scraped with the password and with a wrong one (the bcrypt
# thread), is in the set the unit's lines allow, as systemd-analyze
# syscall-filter expands them (tests/integration/contrib_syscalls.py).
# systemd cannot start the unit here (no systemd as PID 1 in a container),
# so the filter is checked against what gctop calls, not applied; gctop's
# own seccomp filter is applied and checked in serve_web_config.sh.
. tests/lib.sh
require_java
require_dotnet
command -v strace >/dev/null 2>&1 || missing_runtime "strace (Debian package strace)"
command -v systemd-analyze >/dev/null 2>&1 || { skip "systemd-analyze is missing: the filter cannot be expanded"; exit 0; }
command -v openssl >/dev/null 2>&1 || missing_runtime "openssl (Debian package openssl)"
python3 -W ignore -c 'import crypt' 2>/dev/null || missing_runtime "python3's crypt module"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
UNIT=contrib/systemd/gctop.service
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
GCALLOC=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }

# The unit's gctop arguments, with this test's address and web-config.
args=$(sed -n 's/^ExecStart=[^ ]* //p' "$UNIT")
check "the unit serves with --web-config ($args)" sh -c "echo '$args' | grep -q -- '--serve [^ ]* --web-config /etc/gctop/web-config.yml'"

(cd "$WORK" && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout server.key -out server.crt) >"$WORK/certs.log" 2>&1 ||
	{ fail "openssl could not make a certificate: $(tail -3 "$WORK/certs.log")"; exit 0; }
HASH=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 10)))')
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prometheus: %s\n' "$HASH" \
	>"$WORK/web-config.yml"

java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
"$GCALLOC" 2 40 0 0 0 >"$WORK/dotnet.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $DPID"
wait_for_hsperf "$JPID" 20 || { fail "the JVM published no perf data"; exit 0; }
wait_until 100 dotnet_socket_exists "$DPID" || { fail "the .NET process has no diagnostics socket"; exit 0; }

# shellcheck disable=SC2086 # the unit's arguments, one word each
set -- $(echo "$args" | sed "s#--serve [^ ]*#--serve 127.0.0.1:0#; s#/etc/gctop/web-config.yml#$WORK/web-config.yml#; s#-d 5#-d 1#")
strace -f -qq -o "$WORK/strace.log" "$GCTOP_BIN" "$@" -p "$JPID,$DPID" 2>"$WORK/gctop.err" &
SPID=$!
CHILD_PIDS="$CHILD_PIDS $SPID"
wait_until 100 grep -q 'serving https' "$WORK/gctop.err" || { fail "gctop --serve did not start under strace: $(cat "$WORK/gctop.err")"; exit 0; }
GPID=$(pgrep -P "$SPID" | head -n 1)
PORT=$(sed -n 's#.*https://127.0.0.1:\([0-9]*\)/metrics.*#\1#p' "$WORK/gctop.err")
served() {
	curl -s --max-time 10 --cacert "$WORK/server.crt" -u prometheus:s3cret "https://127.0.0.1:$PORT/metrics" >"$WORK/scrape.txt" &&
		grep -q "pid=\"$JPID\"" "$WORK/scrape.txt" && grep -q "pid=\"$DPID\"" "$WORK/scrape.txt"
}
wait_until 150 served
check "gctop under strace serves the JVM and the .NET process" served
curl -s -o /dev/null --max-time 10 --cacert "$WORK/server.crt" -u prometheus:wrong "https://127.0.0.1:$PORT/metrics"
sleep 2
kill "$GPID"
wait "$SPID"
comparator syscalls python3 tests/integration/contrib_syscalls.py "$TEST_NAME" "$UNIT" "$WORK/strace.log"
