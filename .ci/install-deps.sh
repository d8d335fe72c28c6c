#!/bin/sh
# Installs the Debian packages gctop's build, tests and demo need; idempotent:
# it calls apt-get only when something is missing.
set -eu
PKGS="build-essential pkg-config libncurses-dev libproc2-dev libcgroup-dev libjson-c-dev libmicrohttpd-dev
openjdk-17-jdk-headless tmux python3 procps clang-14 libclang-rt-14-dev groff-base prometheus"
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
