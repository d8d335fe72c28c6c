#!/bin/sh
# sanitizer: yes
# Each way of pointing gctop at something it cannot watch ends with the
# documented exit status and one sentence on stderr naming the cause.
. tests/lib.sh
require_java
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 1; }

# expect STATUS WORD LABEL gctop-args...: exit status and a word of the message.
expect() {
	want=$1 word=$2 label=$3
	shift 3
	# shellcheck disable=SC2086
	$GCTOP_BIN "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	lines=$(grep -c . "$WORK/err")
	if [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -q -- "$word" "$WORK/err"; then
		pass "$label: exit $rc: $(cat "$WORK/err")"
	else
		fail "$label: exit $rc (wanted $want), stderr: $(cat "$WORK/err")"
	fi
}

# A pid that is not in use: past the kernel's pid_max.
expect 3 "no process" "no such process" -p 99999999 --json -n 1

sleep 30 &
SLEEPER=$!
CHILD_PIDS="$CHILD_PIDS $SLEEPER"
expect 4 "$SLEEPER" "not a JVM" -p "$SLEEPER" --json -n 1

# 60 s, killed at the end: the stale-file cases below use NOPERF's pid
# after the short-lived JVM's case, which under ASan beside a CPU hog came
# more than the 6 s these once had after their start.
start_java "$WORK/noperf.log" -XX:-UsePerfData -Xmx32m -cp "$CLASSES" AllocWorkload small 5 60 0
NOPERF=$JPID
start_java "$WORK/noshared.log" -XX:+PerfDisableSharedMem -Xmx32m -cp "$CLASSES" AllocWorkload small 5 60 0
NOSHARED=$JPID
sleep 1
expect 6 "UsePerfData" "-XX:-UsePerfData" -p "$NOPERF" --json -n 1
expect 6 "PerfDisableSharedMem" "-XX:+PerfDisableSharedMem" -p "$NOSHARED" --json -n 1

# The JVM exits while gctop watches it (no -n: gctop would run forever).
start_java "$WORK/short.log" -Xmx32m -cp "$CLASSES" AllocWorkload small 20 1.5 0
SHORT=$JPID
wait_for_hsperf "$SHORT" 5 || fail "no perf-data file for the short-lived JVM"
expect 8 "exited" "JVM exiting mid-run" -p "$SHORT" --json -d 0.3
samples=$(grep -c '"runtime"' "$WORK/out")
check "samples printed before the exit ($samples)" [ "$samples" -ge 2 ]
# the man page's promise (JSON OUTPUT, state): the last object says so
states=$(json_get "$WORK/out" 1 '" ".join(o["state"] for o in lines)')
check "the last object's state is exited, every one before live ($states)" \
	python3 -c 'import sys; s = sys.argv[1].split(); sys.exit(not (s[-1] == "exited" and set(s[:-1]) == {"live"}))' "$states"

# PID reuse: a perf-data file left by an earlier JVM under the pid of a JVM
# that publishes none (its createVmBeginTime is long before this start).
user=$(id -un)
dir=/tmp/hsperfdata_$user
if [ -d "$dir" ] && [ ! -e "$dir/$NOPERF" ]; then
	cp tests/data/hsperfdata/jdk17-G1.hsperfdata "$dir/$NOPERF" && chmod 600 "$dir/$NOPERF"
	expect 6 "earlier process" "stale file of an earlier process" -p "$NOPERF" --json -n 1
	rm -f "$dir/$NOPERF"
	# A symlink in its place is refused, not followed.
	ln -s /etc/passwd "$dir/$NOPERF"
	expect 7 "symbolic link" "symlinked perf-data file" -p "$NOPERF" --json -n 1
	rm -f "$dir/$NOPERF"
else
	skip_unless_ci root "cannot plant a file in $dir for the stale-file case"
fi

# Another user's JVM: gctop run as nobody against our JVM is refused with
# status 5 and a sentence saying whose it is and what to do.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	start_java "$WORK/other.log" -Xmx32m -cp "$CLASSES" AllocWorkload small 5 20 0
	OTHER=$JPID
	wait_for_hsperf "$OTHER" 5 || fail "no perf-data file for the JVM of another user"
	pub=$(mktemp -d /tmp/gctop-nobody.XXXXXX)
	chmod 755 "$pub"
	cp "$GCTOP_BIN" "$pub/gctop"
	chmod 755 "$pub/gctop"
	GCTOP_BIN_SAVED=$GCTOP_BIN
	GCTOP_BIN="setpriv --reuid=65534 --regid=65534 --clear-groups $pub/gctop"
	# shellcheck disable=SC2086
	expect 5 "another user" "a JVM of another user" -p "$OTHER" --json -n 1
	GCTOP_BIN=$GCTOP_BIN_SAVED
	rm -rf "$pub"
else
	skip_unless_ci root "needs root and setpriv to run gctop as another user"
fi
