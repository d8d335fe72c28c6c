#!/bin/sh
# Installs the Debian packages gctop needs; idempotent: it calls apt-get only
# when something is missing, and then says which packages and what for.
# As root it runs apt-get itself, otherwise through sudo; with neither it
# names the packages and stops.
#
#   sh .ci/install-deps.sh          what the build and every test need
#                                   (make check, .ci/run)
#   sh .ci/install-deps.sh demo     what the build and `make demo` need: no
#                                   fuzzing compiler, no Prometheus, no tmux
#   sh .ci/install-deps.sh --list [demo]   print the packages, install nothing
set -eu
# the build (Makefile's PKGS and SERVE_PKGS: libyaml, GnuTLS and libcrypt for
# --web-config's YAML, certificates and bcrypt hashes, zlib for gzipped
# /metrics) and the demo's JVM
DEMO_PKGS="build-essential pkg-config libncurses-dev libproc2-dev libcgroup-dev libjson-c-dev libmicrohttpd-dev
libyaml-dev libgnutls28-dev libcrypt-dev zlib1g-dev openjdk-17-jdk-headless"
# the tests besides: terminal tests (tmux), scripts (python3, procps), make
# fuzz (clang-14), the man page check (groff-base), Prometheus scraping, a
# real Tomcat for --ops jmx:requests (tests/integration/tomcat_requests.sh
# runs its own instance; the system service is stopped and disabled below),
# curl for the HTTP tests (--serve, Grafana, Tomcat, --web-config),
# systemd-analyze and PyYAML for the files in contrib/
# (tests/static/contrib.sh), taskset, setpriv and unshare (util-linux) for
# the CPU-starved, least-privilege and namespace tests, openssl for
# --web-config's test certificates (python3's crypt module makes its bcrypt
# hashes), strace for the system calls the unit's filter must allow, and
# wrk for HTTP load (tests/integration/dotnet_census_load.sh)
TEST_PKGS="tmux python3 python3-yaml procps curl clang-14 libclang-rt-14-dev groff-base prometheus tomcat10 systemd util-linux openssl strace wrk"

list=false
[ "${1:-}" = "--list" ] && { list=true; shift; }
case "${1:-all}" in
demo) PKGS=$DEMO_PKGS FOR="the build and the demo" ;;
all) PKGS="$DEMO_PKGS $TEST_PKGS" FOR="the build and the tests" ;;
*) echo "gctop: usage: sh .ci/install-deps.sh [--list] [demo]" >&2; exit 2 ;;
esac
if $list; then
	echo $PKGS
	exit 0
fi
# Not Debian: the names are Debian's, so say so and let the build's own
# check name what pkg-config cannot find.
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "gctop: no dpkg-query, so this is not Debian; $FOR use these Debian packages, install their equivalents: $(echo $PKGS)" >&2
	exit 0
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
	SUDO="" how="with apt-get, as root"
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo how="with sudo apt-get (sudo may ask for your password)"
else
	echo "gctop: $FOR need these Debian packages, missing here:$missing; I am not root and there is no sudo: run \"sh .ci/install-deps.sh${1:+ $1}\" as root and try again" >&2
	exit 1
fi
echo "gctop: $FOR need these Debian packages, missing here:$missing; installing them $how"
# through env: sudo drops the caller's environment
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
# Debian starts tomcat10's service on install where systemd runs: the tests
# want no Tomcat on port 8080 but their own.
case " $missing " in *" tomcat10 "*)
	if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now tomcat10 >/dev/null 2>&1 || true; fi ;;
esac
