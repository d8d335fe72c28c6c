#!/bin/sh
# A JVM in its own pid and mount namespaces with a private /tmp, as in a
# container watched from the host: gctop finds its perf data through
# /proc/PID/root/tmp/hsperfdata_USER/NSPID, lists it, watches it, loads
# its sampling agent into it (copied through the same path), and reads its
# flight recording's chunks in its private /tmp.
. tests/lib.sh
require_java
if [ "$(id -u)" -ne 0 ] || ! unshare --pid --fork --mount --mount-proc true 2>/dev/null; then
	skip_unless_ci namespace "pid and mount namespaces need root and unshare"
	exit 0
fi
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }
# The private tmpfs hides the host's /tmp from the JVM, and the repository may
# live under /tmp: give the JVM its classes from a place outside /tmp.
SHM=$(mktemp -d /dev/shm/gctop-ns.XXXXXX)
cp "$CLASSES"/AllocSites*.class "$SHM"/
unshare --pid --fork --mount --mount-proc sh -c \
	"mount -t tmpfs -o mode=1777 tmpfs /tmp && exec java -Xmx64m -cp $SHM AllocSites 40 25" \
	>"$WORK/jvm.log" 2>&1 &
USH=$!
CHILD_PIDS="$CHILD_PIDS $USH"

# The JVM's host pid: the java process whose innermost NSpid is 1.
JPID=""
i=0
while [ -z "$JPID" ] && [ "$i" -lt 100 ]; do
	for p in $(pgrep -f "cp $SHM AllocSites"); do
		ns=$(awk '/^NSpid:/ {print $NF}' "/proc/$p/status" 2>/dev/null)
		[ "$ns" = 1 ] && [ "$(readlink "/proc/$p/exe" | sed 's#.*/##')" = java ] && JPID=$p
	done
	[ -n "$JPID" ] || sleep 0.1
	i=$((i + 1))
done
if [ -z "$JPID" ]; then
	fail "the JVM in the namespace did not start: $(head -c 300 "$WORK/jvm.log")"
	rm -rf "$SHM"
	exit 0
fi
wait_until 100 file_exists "/proc/$JPID/root/tmp/hsperfdata_root/1"
check "the JVM's perf data is only inside its namespace" [ ! -e "/tmp/hsperfdata_root/$JPID" ]

"$GCTOP_BIN" -p "$JPID" --json -n 3 -d 0.5 >"$WORK/watch.json" 2>"$WORK/watch.err"
rc=$?
check "gctop -p HOSTPID watches it (exit $rc: $(head -c 200 "$WORK/watch.err"))" [ "$rc" -eq 0 ]
rate=$(json_get "$WORK/watch.json" -1 'd["alloc"]["rate_bps"] or 0')
check "its allocation rate is live ($rate B/s)" python3 -c "import sys; sys.exit(0 if float('$rate') > 5e6 else 1)"

# Listed once running (a JVM still starting has no readable perf data yet).
"$GCTOP_BIN" --list --json >"$WORK/list.json" 2>"$WORK/list.err"
listed=$(python3 -c 'import json,sys; print(any(json.loads(l)["pid"] == int(sys.argv[2]) for l in open(sys.argv[1]) if l.strip()))' "$WORK/list.json" "$JPID")
check "--list shows the JVM in the container by its host pid" [ "$listed" = True ]

"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -n 4 >"$WORK/alloc.json" 2>"$WORK/alloc.err"
rc=$?
check "--allocators loads the agent into the container (exit $rc: $(head -c 200 "$WORK/alloc.err"))" [ "$rc" -eq 0 ]
top=$(json_get "$WORK/alloc.json" -1 '(d["top_allocators"]["by_frame"] or [{}])[0].get("frame", "")')
case "$top" in
*siteA*) pass "the top allocator in the container is siteA ($top)" ;;
*) fail "the top allocator in the container is '$top', expected AllocSites.siteA" ;;
esac

# The flight recorder (the default source): its repository is in the
# JVM's private /tmp, reached through /proc/PID/root.
srcs=$(python3 -c 'import json,sys; print(",".join(next(json.loads(l) for l in open(sys.argv[1]) if l.strip() and json.loads(l)["pid"] == int(sys.argv[2]))["allocator_sources"] or []))' "$WORK/list.json" "$JPID")
check "--list says the JVM in the container has JFR, read-only (got '$srcs')" [ "$srcs" = "jfr,agent" ]
"$GCTOP_BIN" -p "$JPID" --allocators --json -n 5 >"$WORK/jfr.json" 2>"$WORK/jfr.err"
rc=$?
check "--allocators reads the container's flight recording (exit $rc: $(head -c 200 "$WORK/jfr.err"))" [ "$rc" -eq 0 ]
sites=$(json_get "$WORK/jfr.json" -1 '" ".join(sorted(f["frame"] for f in d["top_allocators"]["by_frame"] if f["frame"].startswith("AllocSites.")))')
check "its three sites come from the chunks in the container's /tmp (got '$sites')" [ "$sites" = "AllocSites.siteA AllocSites.siteB AllocSites.siteC" ]
check "the source is the flight recorder" [ "$(json_get "$WORK/jfr.json" -1 'd["top_allocators"]["source"]')" = jfr-sampled ]

kill "$JPID" 2>/dev/null
rm -rf "$SHM"
