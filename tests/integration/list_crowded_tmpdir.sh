#!/bin/sh
# sanitizer: yes
# gctop -l is not slowed by a crowded TMPDIR: 15 fake .NET processes (as
# another user) keep their diagnostics sockets in a TMPDIR of their own,
# which then gets 200,000 more entries. gctop looks each socket up by its
# one name (dotnet-diagnostic-PID-START-socket) instead of reading the
# whole directory for every process. (Before: 15 reads of the directory,
# 1.1 s instead of 0.01 s.)
#
# The bound: -l with the crowded directory takes less than three reads of
# that directory longer than with the sparse one. gctop now reads it no
# time at all; before it read it once a process, fifteen times. A read is
# measured here, on this machine and under its load (ls -f of the
# directory), and each time is the best of three runs, so that a moment of
# contention on a shared machine counts for neither side.
. tests/lib.sh
. tests/integration/security_fake_dotnet.shlib
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
trap 'fake_cleanup; rm -rf "$CROWD"; cleanup' EXIT INT TERM

N_FAKES=15
N_ENTRIES=200000
CROWD=$(mktemp -d /tmp/gctop-crowd.XXXXXX)
chmod 1777 "$CROWD"
FAKE_TMPDIR=$CROWD
start_fakes "$N_FAKES" stop 0 || exit 0

# best_ms RUNS COMMAND...: the shortest of RUNS timed runs, in ms.
best_ms() {
	runs=$1
	shift
	best=""
	k=0
	while [ "$k" -lt "$runs" ]; do
		t0=$(now_ms)
		"$@" >/dev/null 2>&1
		t=$(($(now_ms) - t0))
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
		k=$((k + 1))
	done
	echo "$best"
}

# listed_all: gctop -l lists every fake.
listed_all() {
	"$GCTOP_BIN" -l >"$WORK/list.txt" 2>&1 || return 1
	for p in $FAKES; do
		grep -q "^ *$p " "$WORK/list.txt" || { echo "PID $p is missing" >>"$WORK/missing"; return 1; }
	done
}
check "-l lists the $N_FAKES processes whose sockets are in their TMPDIR" listed_all
sparse=$(best_ms 3 "$GCTOP_BIN" -l)

# The crowd: empty files, made in one process (a shell loop would take minutes).
"$PY" -c 'import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    os.close(os.open(os.path.join(d, "f%d" % i), os.O_CREAT | os.O_WRONLY, 0o600))' "$CROWD" "$N_ENTRIES" ||
	{ fail "cannot fill $CROWD"; exit 0; }
check "-l still lists the $N_FAKES processes with $N_ENTRIES more entries beside their sockets" listed_all
crowded=$(best_ms 3 "$GCTOP_BIN" -l)
scan=$(best_ms 3 ls -f "$CROWD")
bound=$((sparse + 3 * scan))
check "-l with $N_ENTRIES entries in the TMPDIR of $N_FAKES processes takes $crowded ms, less than $bound ms (sparse $sparse ms + 3 reads of the directory at $scan ms)" \
	[ "$crowded" -lt "$bound" ]
