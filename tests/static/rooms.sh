#!/bin/sh
# Each outside library is used in the one room whose job it is, so the rooms'
# names stay true: ncurses only by the screen (tui/), libmicrohttpd only by
# --serve's front end, libproc2 and libcgroup only by the host collectors
# (collectors/host/), and main() only in frontends/main.c.
. tests/lib.sh

# room_of HEADER: the folder (a path prefix) that alone may include HEADER.
room_of() {
	case "$1" in
	ncurses.h | ncursesw/* | curses.h | term.h) echo tui/ ;;
	microhttpd.h) echo frontends/serve ;;
	libproc2/* | libcgroup.h | libcgroup/*) echo collectors/host/ ;;
	*) echo "" ;;
	esac
}

# misplaced FILE HEADER: prints why FILE must not include <HEADER>, or nothing.
misplaced() {
	room=$(room_of "$2")
	[ -z "$room" ] && return
	case "$1" in "$room"*) return ;; esac
	echo "<$2> belongs to $room"
}

LAYER_NAMES=$(layer_names)
bad=0 seen=0
# shellcheck disable=SC2046,SC2086
for f in $(git ls-files -- $(printf '%s/ ' $LAYER_NAMES) | grep -E '\.(c|h)$'); do
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f"); do
		seen=$((seen + 1))
		why=$(misplaced "$f" "$h")
		if [ -n "$why" ]; then
			fail "$f includes <$h>: $why"
			bad=$((bad + 1))
		fi
	done
done
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
