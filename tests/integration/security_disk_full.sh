#!/bin/sh
# sanitizer: yes
# A full disk named as one: gctop -w recording an unprivileged user's fake
# JVM (security_fake_jvm.*) onto a 64 KiB tmpfs this test mounts stops with
# a sentence that says the disk is full (not "the disk took only part of a
# line", whatever part of the line fit), and gctop -r of what it left says
# its partial last line was cut by the full disk, not that "gctop was
# stopped". Then a recording whose writer was killed mid-line, on a disk
# with room, still names both causes.
. tests/lib.sh
. tests/integration/security_fake_jvm.shlib
FULL="$WORK/full"
trap 'mountpoint -q "$FULL" && umount "$FULL"; fake_jvm_cleanup; cleanup' EXIT INT TERM
[ "$(id -u)" -eq 0 ] || {
	if [ "${CI:-}" = "true" ]; then fail "must run as root under CI=true (it mounts a tmpfs)"; else skip "needs root to mount a tmpfs"; fi
	exit 0
}
mkdir "$FULL" && mount -t tmpfs -o size=64k,mode=0700 gctop-full "$FULL" ||
	{ fail "cannot mount a small tmpfs at $FULL"; exit 0; }

start_fake_jvm jdk17-G1.hsperfdata 'DiskFullMain' || exit 0
# The recording fills the 64 KiB within some tens of samples; 600 at
# 0.1 s is a bound, not a wait.
"$GCTOP_BIN" -b -w "$FULL/rec.ndjson" -p "$FAKE_JVM" -d 0.1 -n 600 >/dev/null 2>"$WORK/w.err"
rc=$?
check "-w on a full disk fails (status $rc)" [ "$rc" -ne 0 ]
check "-w says the disk is full: $(head -c 300 "$WORK/w.err")" grep -q "the disk is full" "$WORK/w.err"
check "-w's sentence is not 'took only part of a line'" sh -c "! grep -q 'took only part' '$WORK/w.err'"

"$GCTOP_BIN" -r "$FULL/rec.ndjson" -b >/dev/null 2>"$WORK/r.err"
rc=$?
check "-r reads the recording the full disk cut (status $rc: $(head -c 300 "$WORK/r.err"))" [ "$rc" -eq 0 ]
check "-r says the disk was full: $(head -c 300 "$WORK/r.err")" grep -q "partial line (the disk holding it is full" "$WORK/r.err"
check "-r does not blame a stopped gctop alone" sh -c "! grep -q '(gctop was stopped while writing it)' '$WORK/r.err'"

# A cut line on a disk with room: either cause, since -r cannot tell.
head -n 2 "$FULL/rec.ndjson" >"$WORK/cut.ndjson"
printf '{"type":"sample","mono_ns":' >>"$WORK/cut.ndjson"
"$GCTOP_BIN" -r "$WORK/cut.ndjson" -b >/dev/null 2>"$WORK/cut.err"
check "-r of a line cut on a disk with room names both causes: $(head -c 300 "$WORK/cut.err")" \
	grep -q "gctop was stopped while writing it, or its disk filled up" "$WORK/cut.err"
