#!/bin/sh
# sanitizer: yes
# Issue 25, item 5: root's -w FILE where another user prepared the path.
# A user's symbolic link (to a file of root's), file of their own (0666),
# hard link of root's file, FIFO, or link to a directory above the name is
# refused with one sentence and status 15, and root's file is untouched;
# an existing file of root's gets mode 0600 whatever its mode and the umask;
# a link only root could have made is still followed above the name.
# (Before: the link's target was overwritten, the user's 0666 file got the
# recording, a FIFO held gctop for ever, a 0666 file of root's stayed 0666.)
# The kernel's fs.protected_symlinks and protected_hardlinks would stop
# some of these on their own: they are set to 0 here, as on many systems,
# and put back at the end. Where they cannot be changed, the same cases are
# made in a directory the user owns (not sticky), which they do not cover.
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
make_test_user
build_fake

# The sysctls, put back at exit.
SYSCTLS="protected_symlinks protected_hardlinks"
SAVED=""
for s in $SYSCTLS; do SAVED="$SAVED $s=$(cat /proc/sys/fs/$s)"; done
restore_sysctls() {
	for kv in $SAVED; do echo "${kv#*=}" >"/proc/sys/fs/${kv%%=*}" 2>/dev/null; done
	sec_cleanup
}
trap restore_sysctls EXIT INT TERM
KERNEL_OFF=1
for s in $SYSCTLS; do echo 0 >"/proc/sys/fs/$s" 2>/dev/null || KERNEL_OFF=0; done

# The place the user prepares: a sticky world-writable directory of root's,
# as /tmp is (kept inside $WORK, which the user may pass through), or the
# user's own directory where the kernel's protections cannot be turned off.
chmod 0711 "$WORK"
PREP="$WORK/prep"
mkdir "$PREP"
if [ "$KERNEL_OFF" = 1 ]; then
	chmod 1777 "$PREP"
	echo "note: fs.protected_symlinks and protected_hardlinks set to 0: the cases are made in a sticky /tmp-like directory"
else
	chown "$SEC_UID:$SEC_GID" "$PREP"
	chmod 0755 "$PREP"
	echo "note: fs.protected_* cannot be changed here: the cases are made in the user's own directory instead"
fi
as_user() { setpriv --reuid="$SEC_UID" --regid="$SEC_GID" --clear-groups "$@"; }

start_fake sleep / "$WORK/libjvm.so"
wait_until 50 "$GCTOP_BIN" -p "$FAKE" -b -n 1 -d 0.1 >/dev/null 2>&1 ||
	{ fail "gctop cannot read the fake JVM: $("$GCTOP_BIN" -p "$FAKE" -b -n 1 -d 0.1 2>&1 | head -c 300)"; exit 1; }

# record PATH: root's gctop -b -n 1 -w PATH under umask 0; sets RC and ERR.
record() {
	(umask 0; timeout -s KILL 10 "$GCTOP_BIN" -p "$FAKE" -b -n 1 -d 0.1 -w "$1" >/dev/null 2>"$WORK/err")
	RC=$?
	ERR=$(head -c 300 "$WORK/err")
}

# refused WHAT: status 15 and one sentence that refuses.
refused() {
	check "$1: refused with status 15 and one sentence ($RC: $ERR)" \
		sh -c '[ "$1" -eq 15 ] && [ "$(grep -c . "$2")" -eq 1 ] && grep -q "refusing to write the recording" "$2"' - "$RC" "$WORK/err"
}

VICTIM="$WORK/victim"
printf 'precious\n' >"$VICTIM"
chmod 0644 "$VICTIM"
intact() { [ "$(cat "$VICTIM")" = precious ] && [ "$(stat -c '%U %a %h' "$VICTIM")" = "root 644 1" ]; }

as_user ln -s "$VICTIM" "$PREP/link.ndjson"
record "$PREP/link.ndjson"
refused "a user's symbolic link to a file of root's"
check "root's file the link points at is untouched" intact

as_user sh -c 'umask 0; printf "mine\n" >"$1"' - "$PREP/theirs.ndjson"
record "$PREP/theirs.ndjson"
refused "a user's own file, mode 0666"
check "the user's file neither got the recording nor changed ($(stat -c '%U %a' "$PREP/theirs.ndjson"))" \
	[ "$(cat "$PREP/theirs.ndjson")" = mine ]

# Where fs.protected_hardlinks stops the user, root makes the same link in
# the user's directory: gctop must refuse it whoever made it, and the case
# is run on every machine rather than skipped.
as_user ln "$VICTIM" "$PREP/hard.ndjson" 2>/dev/null || ln "$VICTIM" "$PREP/hard.ndjson"
record "$PREP/hard.ndjson"
refused "a user's hard link to a file of root's"
rm -f "$PREP/hard.ndjson"
check "root's hard-linked file is untouched" intact

as_user mkfifo "$PREP/fifo.ndjson"
record "$PREP/fifo.ndjson"
refused "a user's FIFO (not a regular file; before, it held gctop)"

ROOTDIR="$WORK/rootdir"
mkdir "$ROOTDIR"
as_user ln -s "$ROOTDIR" "$PREP/dir"
record "$PREP/dir/gc.ndjson"
refused "a user's symbolic link to a directory of root's above the name"
check "nothing was made in root's directory" [ ! -e "$ROOTDIR/gc.ndjson" ]

# Root's own files and links.
(umask 0; printf 'old\n' >"$WORK/open.ndjson")
record "$WORK/open.ndjson"
check "root's own file, mode 0666: written ($RC: $ERR), now 0600 ($(stat -c %a "$WORK/open.ndjson"))" \
	sh -c '[ "$1" -eq 0 ] && [ "$(stat -c %a "$2")" = 600 ] && head -1 "$2" | grep -q gctop-recording' - "$RC" "$WORK/open.ndjson"
record "$WORK/new.ndjson"
check "a new file under umask 0: written ($RC: $ERR), mode 0600 ($(stat -c %a "$WORK/new.ndjson" 2>/dev/null))" \
	[ "$RC" -eq 0 -a "$(stat -c %a "$WORK/new.ndjson" 2>/dev/null)" = 600 ]
ln -s "$ROOTDIR" "$WORK/rootlink"
record "$WORK/rootlink/gc.ndjson"
check "a link of root's in root's directory is followed above the name ($RC: $ERR)" \
	[ "$RC" -eq 0 -a -s "$ROOTDIR/gc.ndjson" ]
ln -s "$VICTIM" "$WORK/lastlink.ndjson"
record "$WORK/lastlink.ndjson"
refused "a link of root's as the name itself (never followed)"
check "root's file is still untouched" intact
