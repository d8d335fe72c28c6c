#!/bin/sh
# sanitizer: yes
# gctop --serve --web-config: a real Prometheus (Debian's 2.42) scrapes it
# through tls_config and basic_auth, as a cluster's would:
#   - with the CA, a client certificate the client CA signed, and the
#     password: the target is up;
#   - a wrong password: down with 401; no client certificate: 403; no CA
#     (the server's certificate not trusted): down;
#   - through a flood of new wrong passwords (8 threads, 6 s, from another
#     address), which each cost a bcrypt check, every scrape of the good
#     scraper is answered (its pair is cached; the checks run on their own
#     thread and queue, never on the server's);
#   - curl: 401 with WWW-Authenticate, 200 with the password, plain HTTP
#     refused;
#   - a malformed file (unknown key, missing file, key not the
#     certificate's, hash not bcrypt) exits 18 with one sentence naming
#     the file and the fault, and serves nothing;
#   - gctop --serve holds its seccomp filter in every thread (Seccomp: 2,
#     NoNewPrivs: 1): it cannot exec or ptrace (the filter's effect is
#     tests/unit/test_serve_seccomp.c's).
# Certificates are made here with openssl, the bcrypt hash with python3's
# crypt module (libxcrypt, as gctop's check).
. tests/lib.sh
. tests/integration/prometheus_common.shlib
require_prometheus
command -v openssl >/dev/null 2>&1 || missing_runtime "openssl (Debian package openssl)"
python3 -W ignore -c 'import crypt' 2>/dev/null || missing_runtime "python3's crypt module"
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
PY=tests/integration/serve_web_config.py

# A CA, the server's certificate for 127.0.0.1, a client's from the same CA;
# another CA and its client, which gctop's client CA did not sign.
cd "$WORK" || exit 1
certs() {
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=gctop-test-ca -keyout ca.key -out ca.crt &&
		openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout server.key -out server.csr &&
		printf 'subjectAltName=IP:127.0.0.1\n' >san.ext &&
		openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.crt &&
		openssl req -newkey rsa:2048 -nodes -subj /CN=prometheus -keyout client.key -out client.csr &&
		openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out client.crt &&
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.crt
}
certs >certs.log 2>&1 || { cd - >/dev/null; fail "openssl could not make the certificates: $(tail -3 "$WORK/certs.log")"; exit 0; }
cd - >/dev/null || exit 1
HASH=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 10)))')

web_config() {
	printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n  client_ca_file: ca.crt\n' "${1:-server.crt}" "${2:-server.key}"
	printf '  client_auth_type: RequireAndVerifyClientCert\nbasic_auth_users:\n  prometheus: %s\n' "${3:-$HASH}"
}
web_config >"$WORK/web.yml"

# Malformed files: status 18, one line naming the file and the fault.
refused() {
	"$GCTOP_BIN" --serve 127.0.0.1:0 --web-config "$WORK/$1" >"$WORK/$1.out" 2>"$WORK/$1.err" &
	rp=$!
	wait_until 100 process_gone "$rp" || kill "$rp" 2>/dev/null
	wait "$rp"
	rc=$?
	said() { [ "$(wc -l <"$WORK/$1.err")" -eq 1 ] && grep -q "^gctop: --web-config $WORK/$1: .*$2" "$WORK/$1.err" &&
		! grep -q serving "$WORK/$1.err"; }
	check "$1 is refused with status 18 ($rc) and one sentence: $(head -c 300 "$WORK/$1.err")" \
		sh -c "[ $rc -eq 18 ]"
	check "$1's sentence says '$2'" said "$1" "$2"
}
web_config | sed 's/^tls_server_config:$/&\n  listen: 1/' >"$WORK/unknown_key.yml"
refused unknown_key.yml "line 2: unknown key 'listen' in tls_server_config"
web_config nothing.crt >"$WORK/missing_file.yml"
refused missing_file.yml "cert_file 'nothing.crt' cannot be read: No such file or directory"
web_config server.crt other.key >"$WORK/wrong_key.yml"
refused wrong_key.yml "are not a PEM certificate and its key"
web_config server.crt server.key '$6$salt$Tu1Ty8cFcd7bhZKIlMx3X7oDEulsrZ0Cub8aSNrqUb8' >"$WORK/not_bcrypt.yml"
refused not_bcrypt.yml "the hash of user 'prometheus' is not a bcrypt hash"

# Prometheus first, scraping gctop's port before it listens, in four ways.
PPORT=$(free_port)
GPORT=$(free_port)
job() { # NAME TLS_CONFIG_LINES BASIC_AUTH_PASSWORD
	printf '  - job_name: %s\n    scheme: https\n    tls_config:\n%s\n' "$1" "$2"
	printf '    basic_auth:\n      username: prometheus\n      password: %s\n' "$3"
	printf "    static_configs:\n      - targets: ['127.0.0.1:%s']\n" "$GPORT"
}
W=$WORK
{
	printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n'
	job good "      ca_file: $W/ca.crt\n      cert_file: $W/client.crt\n      key_file: $W/client.key" s3cret
	job wrong_password "      ca_file: $W/ca.crt\n      cert_file: $W/client.crt\n      key_file: $W/client.key" wrong
	job no_ca "      cert_file: $W/client.crt\n      key_file: $W/client.key" s3cret
	job no_client_cert "      ca_file: $W/ca.crt" s3cret
} | sed 's/\\n/\n/g' >"$WORK/prometheus.yml"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" >"$WORK/prometheus.log" 2>&1 &
PROM=$!
CHILD_PIDS="$CHILD_PIDS $PROM"
wait_until 150 prom_ready || { fail "prometheus did not become ready: $(tail -3 "$WORK/prometheus.log")"; exit 0; }

# gctop serves nothing but the shell's (not a runtime: no figures to read,
# only the exposition's own lines), so it costs nothing while scraped.
"$GCTOP_BIN" --serve "127.0.0.1:$GPORT" --web-config "$WORK/web.yml" -p $$ -d 1 2>"$WORK/gctop.err" &
GPID=$!
CHILD_PIDS="$CHILD_PIDS $GPID"
wait_until 50 serving || { fail "gctop --serve --web-config did not start: $(cat "$WORK/gctop.err")"; exit 0; }
check "gctop says it serves https ($(cat "$WORK/gctop.err"))" grep -q "serving https://127.0.0.1:$GPORT/metrics" "$WORK/gctop.err"

# Its seccomp filter, in every thread.
filtered() {
	n=0
	for t in /proc/"$GPID"/task/*/status; do
		grep -q '^Seccomp:[[:space:]]*2$' "$t" && grep -q '^NoNewPrivs:[[:space:]]*1$' "$t" || return 1
		n=$((n + 1))
	done
	[ "$n" -ge 2 ]
}
check "every thread of gctop --serve holds the seccomp filter and no_new_privs" filtered

# curl: what each client is answered.
URL="https://127.0.0.1:$GPORT/metrics"
TLS="--cacert $WORK/ca.crt --cert $WORK/client.crt --key $WORK/client.key"
check "no password: 401 asking for Basic" sh -c "[ \"\$(curl -s -o /dev/null -D '$WORK/h401' -w '%{http_code}' --max-time 10 $TLS '$URL')\" = 401 ] &&
	grep -qi '^WWW-Authenticate: Basic realm=\"gctop\"' '$WORK/h401'"
check "a wrong password: 401" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 $TLS -u prometheus:wrong '$URL')\" = 401 ]"
check "the password: 200 and the exposition" sh -c "[ \"\$(curl -s -o '$WORK/body' -w '%{http_code}' --max-time 10 $TLS -u prometheus:s3cret \
	-H 'Accept: application/openmetrics-text; version=1.0.0' '$URL')\" = 200 ] && grep -q '^# EOF' '$WORK/body'"
check "no client certificate: 403" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert '$WORK/ca.crt' -u prometheus:s3cret '$URL')\" = 403 ]"
check "a client certificate of another CA: 403" sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert '$WORK/ca.crt' --cert '$WORK/other.crt' --key '$WORK/other.key' -u prometheus:s3cret '$URL')\" = 403 ]"
curl -s -o /dev/null --max-time 10 -u prometheus:s3cret "http://127.0.0.1:$GPORT/metrics"
rc=$?
check "plain HTTP gets no answer (curl $rc)" sh -c "[ $rc -ne 0 ]"
curl -s -o /dev/null --max-time 10 --cert "$WORK/client.crt" --key "$WORK/client.key" -u prometheus:s3cret "$URL"
rc=$?
check "a client without the CA refuses gctop's certificate (curl $rc: 60)" sh -c "[ $rc -eq 60 ]"

# Prometheus: each job scraped at least twice since gctop listens.
scraped() {
	curl -s --max-time 2 "http://127.0.0.1:$PPORT/api/v1/targets" >"$WORK/targets.json" &&
		python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["data"]["activeTargets"]
sys.exit(0 if len(t) == 4 and all(x["health"] != "unknown" for x in t) else 1)' "$WORK/targets.json" 2>/dev/null
}
sleep 2
wait_until 150 scraped || fail "Prometheus did not scrape the four jobs: $(head -c 300 "$WORK/targets.json")"
comparator targets python3 "$PY" targets "$WORK"

# The flood, from 127.0.0.2 (its own share of gctop's connection slots).
FROM=$(date +%s)
python3 "$PY" flood "$GPORT" "$WORK/ca.crt" "$WORK/client.crt" "$WORK/client.key" 6 >"$WORK/flood.json" 2>&1
TO=$(date +%s)
check "the flood was answered 401 or 503 ($(cat "$WORK/flood.json"))" grep -q '"401"' "$WORK/flood.json"
sleep 2
curl -s --max-time 5 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=up{job=\"good\"}[$((TO - FROM + 1))s]" \
	--data-urlencode "time=$TO" >"$WORK/up.json"
comparator up python3 "$PY" up "$WORK" "$FROM" "$TO"
