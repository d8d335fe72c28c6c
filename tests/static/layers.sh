#!/bin/sh
# The folders are layers, and includes go one way only: down.
#
#   base        helpers every layer may use: waits, clock, quit flag,
#               errors, UTF-16, bounds-checked reading, growable arrays
#   model       the sample, the derive step, history, allocation tables
#   segment     the shared-memory segment's format, publisher and reader
#   collectors  host/ (proc, cgroup, paths), hotspot/, dotnet/, and the
#               target that composes them
#   session     one watched target, or many (the picker): open, schedule,
#               previous sample, derive, history, allocation window, freeze
#   record      recordings read back, and the comparison of recorded runs
#               (fed through a session)
#   views       panes and writers: read a session's figures, draw or print
#   tui         the screen, keys, the batch loop and main
#
# A file may include from its own layer and the layers below it; views and
# tui reach collectors only through the session. Inside collectors, the
# runtimes do not include each other, host/ includes no runtime, and the
# .NET sources (dotnet/ipc, dotnet/nettrace, dotnet/proc) do not include the
# .NET backend or its decoders above them (dotnet/*.h). The
# in-process agent includes only itself, segment/ and base/.
#
# Prints one FAIL line per include that goes the wrong way, naming it.
. tests/lib.sh

rank() {
	case "$1" in
	base/*) echo 0 ;; model/*) echo 1 ;; segment/*) echo 2 ;; collectors/*) echo 3 ;;
	session/*) echo 4 ;; record/*) echo 5 ;; views/*) echo 6 ;; tui/*) echo 7 ;; *) echo -1 ;;
	esac
}

# wrong FILE INCLUDED: prints why FILE must not include INCLUDED, or nothing.
wrong() {
	f=$1 h=$2
	case "$f" in
	agent/*)
		case "$h" in agent/* | segment/gctop_segment.h | segment/publish.h | base/*) return ;; esac
		echo "the in-process agent includes only agent/, segment/ and base/"
		return ;;
	esac
	rf=$(rank "$f") rh=$(rank "$h")
	[ "$rf" -lt 0 ] && return
	if [ "$rh" -gt "$rf" ]; then
		echo "a lower layer includes a higher one"
		return
	fi
	case "$f:$h" in
	views/*:collectors/* | tui/*:collectors/* | views/*:segment/* | tui/*:segment/* | \
	record/*:collectors/* | record/*:segment/*)
		echo "views and the screen reach collectors only through session/" ;;
	collectors/hotspot/*:collectors/dotnet/* | collectors/dotnet/*:collectors/hotspot/*)
		echo "one runtime's backend includes another's" ;;
	collectors/host/*:collectors/hotspot/* | collectors/host/*:collectors/dotnet/* | \
	collectors/host/*:collectors/target.h | collectors/host/*:collectors/backend.h)
		echo "host figures include a runtime" ;;
	collectors/dotnet/*/*:collectors/dotnet/*)
		case "${h#collectors/dotnet/}" in
		*/*) ;;
		*) echo "a .NET source includes the .NET backend above it" ;;
		esac ;;
	esac
}

bad=0 seen=0
for f in $(git ls-files 'base/*' 'model/*' 'segment/*' 'collectors/*' 'session/*' 'record/*' 'views/*' 'tui/*' 'agent/*' | grep -E '\.(c|h)$'); do
	[ -f "$f" ] || continue
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		seen=$((seen + 1))
		if [ ! -f "$h" ]; then
			fail "$f includes \"$h\", which is not a path from the top of the tree"
			bad=$((bad + 1))
			continue
		fi
		why=$(wrong "$f" "$h")
		if [ -n "$why" ]; then
			fail "$f includes $h: $why"
			bad=$((bad + 1))
		fi
	done
done
check "$seen includes read" [ "$seen" -gt 100 ]
check "every include goes down ($bad go the wrong way)" [ "$bad" -eq 0 ]
# The rule itself refuses what it must (so a broken rule cannot pass silently).
check "the rule refuses views including tui" [ -n "$(wrong views/pane_help.c tui/keys.h)" ]
check "the rule refuses hotspot including dotnet" [ -n "$(wrong collectors/hotspot/hotspot.c collectors/dotnet/proc/dotnet_proc.h)" ]
check "the rule refuses a .NET source including the backend" \
	[ -n "$(wrong collectors/dotnet/ipc/diag_ipc_discover.c collectors/dotnet/dotnet_info.h)" ]
check "the rule allows the backend including a .NET source" \
	[ -z "$(wrong collectors/dotnet/dotnet.c collectors/dotnet/proc/dotnet_proc.h)" ]
check "the rule allows tui including views" [ -z "$(wrong tui/loop.c views/pane.h)" ]
check "the rule refuses the session including a recording" [ -n "$(wrong session/session.c record/record_reader.h)" ]
check "the rule refuses record/ reaching a collector" [ -n "$(wrong record/compare.c collectors/target.h)" ]
check "the rule allows views including record/" [ -z "$(wrong views/record_writer.c record/record_format.h)" ]
