#!/bin/sh
# contrib/ (the systemd unit, the Kubernetes DaemonSet, the Grafana
# dashboard) is well formed and agrees with itself (tests/static/contrib.py);
# systemd-analyze verifies the unit and rates its sandbox where systemd is
# installed.
. tests/lib.sh
comparator contrib.py python3 tests/static/contrib.py "$TEST_NAME"
if ! command -v systemd-analyze >/dev/null 2>&1; then
	skip_unless_ci runtime "systemd-analyze (Debian package systemd) is missing: the unit is not verified"
	exit 0
fi
# verify needs ExecStart's program and the Documentation= page to exist.
mkdir -p "$WORK/unit" "$WORK/man/man1"
cp man/gctop.1 "$WORK/man/man1/"
sed "s#^ExecStart=[^ ]*#ExecStart=$(cd "$(dirname "$GCTOP_BIN")" && pwd)/$(basename "$GCTOP_BIN")#" \
	contrib/systemd/gctop.service >"$WORK/unit/gctop.service"
if [ -x "$GCTOP_BIN" ]; then
	MANPATH="$WORK/man" systemd-analyze verify "$WORK/unit/gctop.service" >"$WORK/verify.log" 2>&1
	rc=$?
	verified() { [ "$rc" -eq 0 ] && [ ! -s "$WORK/verify.log" ]; }
	check "systemd-analyze verify accepts the unit, silently ($rc: $(head -c 300 "$WORK/verify.log"))" verified
	# systemd-analyze security rates the unit's sandbox: 4.3 before its
	# system-call filter and the settings gctop tolerates beside it
	# (tests/integration/contrib_syscalls.sh), 2.5 with them.
	MANPATH="$WORK/man" systemd-analyze security --offline=true --no-pager "$WORK/unit/gctop.service" >"$WORK/security.log" 2>&1
	exposure=$(sed -n 's/.*Overall exposure level for gctop.service: \([0-9.]*\).*/\1/p' "$WORK/security.log")
	rated() { [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 3.0) }'; }
	check "systemd-analyze security rates the unit's exposure at most 3.0 (${exposure:-no rating}: $(grep -m1 -i 'error\|fail' "$WORK/security.log"))" rated
else
	fail "$GCTOP_BIN is missing; run make"
fi
