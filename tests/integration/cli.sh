#!/bin/sh
# sanitizer: yes
# The command line end to end: help, version, and the documented exit status
# with one sentence on stderr for each kind of bad input.
. tests/lib.sh

# expect_exit DESCRIPTION STATUS PATTERN COMMAND...: the command exits with
# STATUS and its stderr is one line matching PATTERN.
expect_exit() {
	desc=$1 want=$2 pattern=$3
	shift 3
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	lines=$(wc -l <"$WORK/err")
	if [ "$got" -ne "$want" ]; then
		fail "$desc: exit status $got, expected $want (stderr: $(cat "$WORK/err"))"
	elif [ "$lines" -ne 1 ] || ! grep -Eq -- "$pattern" "$WORK/err"; then
		fail "$desc: stderr is not one sentence matching '$pattern': $(cat "$WORK/err")"
	else
		pass "$desc"
	fi
}

"$GCTOP_BIN" --help >"$WORK/help" 2>&1
check "--help exits 0 and shows the usage" grep -q '^Usage: gctop' "$WORK/help"
"$GCTOP_BIN" -V >"$WORK/version" 2>&1
check "--version prints the version" grep -Eq '^gctop [0-9]+\.[0-9]+' "$WORK/version"

expect_exit "unknown option" 2 "unknown option" "$GCTOP_BIN" --frobnicate
expect_exit "bad interval" 2 "-d wants seconds" "$GCTOP_BIN" -p 1 -b -d 0
expect_exit "bad pid" 2 "-p wants a process id" "$GCTOP_BIN" -p twelve -b
expect_exit "json without pid" 2 "needs a process" "$GCTOP_BIN" --json
expect_exit "json with text" 2 "choose one" "$GCTOP_BIN" -p 1 -b --json

# A PID that certainly does not exist: one of ours that has been reaped.
sh -c 'exit 0' &
dead=$!
wait "$dead"
expect_exit "no such process" 3 "there is no process $dead" "$GCTOP_BIN" -p "$dead" --json -n 1

sleep 30 &
sleeper=$!
CHILD_PIDS="$CHILD_PIDS $sleeper"
expect_exit "not a JVM" 4 "process $sleeper is neither a JVM" "$GCTOP_BIN" -p "$sleeper" --json -n 1

# Without a terminal and without -p there is nothing to pick in.
expect_exit "picker without a terminal" 2 "no terminal" "$GCTOP_BIN" </dev/null

# --list always works, even with nothing to list, and its JSON is valid.
"$GCTOP_BIN" --list --json >"$WORK/list" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 0 ] && python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' "$WORK/list"; then
	pass "--list --json exits 0 with valid JSON lines"
else
	fail "--list --json: status $rc, output $(head -c 300 "$WORK/list")"
fi
