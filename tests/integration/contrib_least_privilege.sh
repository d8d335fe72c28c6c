#!/bin/sh
# The capabilities contrib/systemd/gctop.service and the Kubernetes
# DaemonSet grant (CapabilityBoundingSet=, read from the unit) are enough
# and each is needed: root with only those watches a JVM and a .NET process
# of another user (nobody), with every mount read-only as ProtectSystem=
# strict makes them; without either capability one of the two is refused.
# Needs root, setpriv and unshare; skips otherwise.
. tests/lib.sh
require_java
require_dotnet
[ "$(id -u)" -eq 0 ] || { skip "needs root, to run workloads as another user and drop capabilities"; exit 0; }
for t in setpriv unshare; do command -v $t >/dev/null 2>&1 || { skip "$t is missing"; exit 0; }; done
unshare -m true 2>/dev/null || { skip "cannot make a mount namespace here"; exit 0; }
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
GCALLOC=$(dotnet_program GcAlloc) || { fail "cannot build tests/dotnet/GcAlloc (log: $WORK/dotnet-build-GcAlloc.log)"; exit 0; }
CAPS=$(sed -n 's/^CapabilityBoundingSet=//p' contrib/systemd/gctop.service | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')
[ -n "$CAPS" ] || { fail "contrib/systemd/gctop.service has no CapabilityBoundingSet="; exit 0; }
GCTOP=$(cd "$(dirname "$GCTOP_BIN")" && pwd)/$(basename "$GCTOP_BIN")

# The workloads as nobody (65534): an idle JVM, a .NET process allocating
# a little for 40 s (as_nobody execs, so $! is the workload).
as_nobody() { exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp DOTNET_CLI_HOME=/tmp "$@"; }
as_nobody java -Xmx32m -cp "$CLASSES" SleepyHeap 4 >"$WORK/jvm.log" 2>&1 &
JPID=$!
as_nobody "$GCALLOC" 2 40 0 0 0 >"$WORK/dotnet.log" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $JPID $DPID"
wait_for_hsperf "$JPID" 20 || { fail "the JVM of nobody published no perf data: $(head -c 300 "$WORK/jvm.log")"; exit 0; }
wait_until 100 dotnet_socket_exists "$DPID" || { fail "the .NET process of nobody has no socket: $(head -c 300 "$WORK/dotnet.log")"; exit 0; }

# watch CAPS PID: gctop -p PID --json -n 1 as root holding only CAPS, in a
# mount namespace whose every mount is read-only.
watch() {
	unshare -m sh -c '
		mount --make-rprivate / && awk "{ print \$5 }" /proc/self/mountinfo | sort -r |
			while read -r m; do mount -o remount,bind,ro "$m" 2>/dev/null; done
		touch /tmp/.gctop-rw-probe-$$ 2>/dev/null && { rm -f /tmp/.gctop-rw-probe-$$; echo "/tmp is writable"; exit 9; }
		exec setpriv --inh-caps=-all$1 --ambient-caps=-all$1 --bounding-set=-all$1 --no-new-privs \
			"$2" -p "$3" --json -n 1' - "$1" "$GCTOP" "$2" >"$WORK/out.json" 2>"$WORK/out.err"
}
for p in "$JPID" "$DPID"; do
	watch ",$CAPS" "$p"
	rc=$?
	check "root with only $CAPS, every mount read-only, watches pid $p of nobody ($rc: $(head -c 200 "$WORK/out.err"))" \
		grep -q "\"pid\":$p," "$WORK/out.json"
done
# each one taken away in turn: something is refused
for cap in $(echo "$CAPS" | tr ',' ' '); do
	rest=$(echo ",$CAPS," | sed "s/,$cap,/,/; s/,\$//; s/^,\$//")
	refused=
	for p in "$JPID" "$DPID"; do
		watch "$rest" "$p" || refused="$refused $p"
	done
	check "without ${cap#+} gctop is refused some process (refused:$refused)" [ -n "$refused" ]
done
