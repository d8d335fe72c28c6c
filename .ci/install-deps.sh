#!/bin/sh
# Installs the Debian packages gctop needs; idempotent: it calls apt-get only
# when something is missing.
#
#   sh .ci/install-deps.sh          what the build and every test need (.ci/run)
#   sh .ci/install-deps.sh demo     what the build and `make demo` need: no
#                                   fuzzing compiler, no Prometheus, no tmux
#   sh .ci/install-deps.sh --list [demo]   print the packages, install nothing
set -eu
# the build (Makefile's PKGS: libyaml, GnuTLS and libcrypt for --web-config's
# YAML, certificates and bcrypt hashes) and the demo's JVM
DEMO_PKGS="build-essential pkg-config libncurses-dev libproc2-dev libcgroup-dev libjson-c-dev libmicrohttpd-dev
libyaml-dev libgnutls28-dev libcrypt-dev openjdk-17-jdk-headless"
# the tests besides: terminal tests (tmux), scripts (python3, procps), make
# fuzz (clang-14), the man page check (groff-base), Prometheus scraping, a
# real Tomcat for --ops jmx:requests (tests/integration/tomcat_requests.sh
# runs its own instance; the system service is stopped and disabled below),
# systemd-analyze for the unit in contrib/ (tests/static/contrib.sh),
# taskset and unshare (util-linux) for the CPU-starved and namespace tests,
# openssl and curl for --web-config's test (its certificates; python3's crypt
# module makes its bcrypt hashes), strace for the system calls the unit's
# filter must allow (systemd-analyze expands it where systemd is installed),
# wrk for HTTP load (tests/integration/dotnet_census_load.sh)
TEST_PKGS="tmux python3 procps clang-14 libclang-rt-14-dev groff-base prometheus tomcat10 systemd util-linux openssl curl strace wrk"

list=false
[ "${1:-}" = "--list" ] && { list=true; shift; }
case "${1:-all}" in
demo) PKGS=$DEMO_PKGS ;;
all) PKGS="$DEMO_PKGS $TEST_PKGS" ;;
*) echo "gctop: usage: sh .ci/install-deps.sh [--list] [demo]" >&2; exit 2 ;;
esac
if $list; then
	echo $PKGS
	exit 0
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
		echo "gctop: these packages are missing and I am not root to install them:$missing" >&2
		exit 1
	fi
else
	SUDO=""
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing
# Debian starts tomcat10's service on install where systemd runs: the tests
# want no Tomcat on port 8080 but their own.
case " $missing " in *" tomcat10 "*)
	if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now tomcat10 >/dev/null 2>&1 || true; fi ;;
esac
