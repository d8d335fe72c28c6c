#!/bin/sh
# Each outside library is used in the one room whose job it is, so the rooms'
# names stay true: ncurses only by the screen (tui/), libmicrohttpd only by
# --serve's front end, libproc2 and libcgroup only by the host collectors
# (collectors/host/), and main() only in frontends/main.c.
. tests/lib.sh

# room_of HEADER: sets ROOM to the folder (a path prefix) that alone may
# include HEADER. (It and misplaced set a variable rather than print: the
# loop calls them for each of ~1,000 includes, and a $(...) apiece cost
# the test ~10 s of CPU in forks.)
room_of() {
	case "$1" in
	ncurses.h | ncursesw/* | curses.h | term.h) ROOM=tui/ ;;
	microhttpd.h) ROOM=frontends/serve ;;
	libproc2/* | libcgroup.h | libcgroup/*) ROOM=collectors/host/ ;;
	*) ROOM="" ;;
	esac
}

# why_misplaced FILE HEADER: sets WHY to why FILE must not include
# <HEADER>, or to nothing.
why_misplaced() {
	WHY=""
	room_of "$2"
	[ -z "$ROOM" ] && return
	case "$1" in "$ROOM"*) return ;; esac
	WHY="<$2> belongs to $ROOM"
}

# misplaced FILE HEADER: prints why FILE must not include <HEADER>, or nothing.
misplaced() {
	why_misplaced "$1" "$2"
	echo "$WHY"
}

LAYER_NAMES=$(layer_names)
bad=0 seen=0
# shellcheck disable=SC2046,SC2086
files=$(for f in $(git ls-files -- $(printf '%s/ ' $LAYER_NAMES) | grep -E '\.(c|h)$'); do
	[ -f "$f" ] && echo "$f"
done)
# every system include, "FILE HEADER" a line, read by one awk
# shellcheck disable=SC2086
includes=$(awk 'match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*<[^>]*>/) {
	h = substr($0, RSTART, RLENGTH); sub(/^[^<]*</, "", h); sub(/>$/, "", h); print FILENAME, h
}' $files </dev/null)
while read -r f h; do
	[ -n "$f" ] || continue
	seen=$((seen + 1))
	why_misplaced "$f" "$h"
	if [ -n "$WHY" ]; then
		fail "$f includes <$h>: $WHY"
		bad=$((bad + 1))
	fi
done <<EOT
$includes
EOT
mains=$(git grep -lE '^int main\(' -- $(printf '%s/ ' $LAYER_NAMES) | tr '\n' ' ')
check "$seen system includes read" [ "$seen" -gt 100 ]
check "every outside library is used in its room ($bad are not)" [ "$bad" -eq 0 ]
check "main() is in frontends/main.c alone (found in: $mains)" [ "$mains" = "frontends/main.c " ]
# The rule refuses what it must, so a broken rule cannot pass silently.
check "the rule refuses ncurses in a writer" [ -n "$(misplaced views/text_writer.c ncurses.h)" ]
check "the rule refuses libproc2 in the session" [ -n "$(misplaced session/fleet.c libproc2/pids.h)" ]
check "the rule refuses libmicrohttpd in the screen" [ -n "$(misplaced tui/loop.c microhttpd.h)" ]
check "the rule allows ncurses in a pane" [ -z "$(misplaced tui/panes/pane.h ncurses.h)" ]
check "the rule allows libcgroup in the host collectors" [ -z "$(misplaced collectors/host/cgroup.c libcgroup.h)" ]
