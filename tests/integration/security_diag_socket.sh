#!/bin/sh
# sanitizer: yes
# Issue 10, items 3 and 4: a diagnostics socket counts only if the process
# runs the .NET runtime and the socket is its user's own, is no link, and
# its listening end is that very process. Root's gctop must not connect
# (or send a byte) to a socket planted for a root `sleep`, to a root-only
# socket a link points at, or to another process's socket of the same user.
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
# A python the test user can run (a per-user install under /root is not).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || missing_runtime "python3"
make_test_user
build_fake

# listener PATH: a Unix socket at PATH logging each connection (the
# connecting pid: other gctops on this machine may list every process too)
# and the bytes it received to stdout, until killed.
listener='
import os, socket, struct, sys
p = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(p)
os.chmod(p, 0o600)
s.listen(8)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    c.settimeout(1.0)
    try:
        data = c.recv(4096)
    except OSError:
        data = b""
    pid = struct.unpack("3i", c.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[0]
    print("connection pid=%d bytes=%d %r" % (pid, len(data), data[:14]), flush=True)
    c.close()
'
start_listener() { # LOG PATH [as-user]
	if [ -n "${3:-}" ]; then
		setpriv --reuid="$SEC_UID" --regid="$SEC_GID" --clear-groups "$py" -c "$listener" "$2" >"$1" 2>&1 &
	else
		"$py" -c "$listener" "$2" >"$1" 2>&1 &
	fi
	CHILD_PIDS="$CHILD_PIDS $!"
	wait_until 100 grep -q listening "$1"
	grep -q listening "$1" || { fail "the listener at $2 did not start: $(head -c 300 "$1")"; exit 1; }
}
start_ticks() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
# run_gctop NAME PID: gctop -p PID --json -n 1, bounded to 30 s; sets rc and
# G (gctop's pid, to tell its connections from those of other gctops).
run_gctop() {
	"$GCTOP_BIN" -p "$2" --json -n 1 >"$WORK/$1.out" 2>"$WORK/$1.err" &
	G=$!
	( sleep 30; kill "$G" 2>/dev/null ) &
	dog=$!
	wait "$G"
	rc=$?
	kill "$dog" 2>/dev/null
}

# A socket any user can bind, named for a root process that is no runtime.
sleep 60 &
S=$!
CHILD_PIDS="$CHILD_PIDS $S"
sock="/tmp/dotnet-diagnostic-$S-$(start_ticks "$S")-socket"
start_listener "$WORK/planted.log" "$sock" user
run_gctop a "$S"
check "a root sleep with a planted socket is no .NET process (status $rc: $(head -c 200 "$WORK/a.err"))" [ "$rc" -eq 4 ]
check "gctop never connected to the planted socket: $(grep "pid=$G " "$WORK/planted.log" | head -2)" \
	sh -c "! grep -q 'pid=$G ' '$WORK/planted.log'"
rm -f "$sock"

# A process of the test user that maps libcoreclr.so (and is not named
# java); its socket name is a link to a root-only socket.
cp "$WORK/java" "$WORK/app"
FAKE_BIN="$WORK/app" start_fake sleep / "$WORK/libcoreclr.so"
F=$FAKE
mkdir -m 0700 "$WORK/rootonly"
start_listener "$WORK/root.log" "$WORK/rootonly/s"
sock="/tmp/dotnet-diagnostic-$F-$(start_ticks "$F")-socket"
ln -s "$WORK/rootonly/s" "$sock"
chown -h "$SEC_UID:$SEC_GID" "$sock"
run_gctop b "$F"
check "a link in place of the socket is not followed (status $rc: $(head -c 200 "$WORK/b.err"))" [ "$rc" -ne 0 ]
check "gctop never connected to the root-only socket: $(grep "pid=$G " "$WORK/root.log" | head -2)" \
	sh -c "! grep -q 'pid=$G ' '$WORK/root.log'"
rm -f "$sock"

# The user's own socket, but another process listens on it.
start_listener "$WORK/squat.log" "$sock" user
run_gctop c "$F"
check "a socket another process listens on is refused (status $rc: $(head -c 200 "$WORK/c.err"))" [ "$rc" -ne 0 ]
check "not one byte was sent to it: $(grep "pid=$G " "$WORK/squat.log" | head -2)" \
	sh -c "! grep -q 'pid=$G bytes=[1-9]' '$WORK/squat.log'"
rm -f "$sock"

# A TMPDIR that is a link (the user's) to a root-only directory holding a
# root socket with the process's socket name.
mkdir -m 0700 "$WORK/rootonly2"
link="/tmp/gctopsec-tmpdir-$$"
ln -s "$WORK/rootonly2" "$link"
chown -h "$SEC_UID:$SEC_GID" "$link"
TMPDIR=$link FAKE_BIN="$WORK/app" start_fake sleep / "$WORK/libcoreclr.so"
start_listener "$WORK/root2.log" "$WORK/rootonly2/dotnet-diagnostic-$FAKE-$(start_ticks "$FAKE")-socket"
run_gctop d "$FAKE"
rm -f "$link"
check "a TMPDIR through a link is refused with a sentence (status $rc: $(head -c 200 "$WORK/d.err"))" \
	sh -c "[ $rc -eq 7 ] && grep -q 'TMPDIR' '$WORK/d.err'"
check "gctop never connected to the root socket behind the link: $(grep "pid=$G " "$WORK/root2.log" | head -2)" \
	sh -c "! grep -q 'pid=$G ' '$WORK/root2.log'"
