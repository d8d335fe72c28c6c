#!/bin/sh
# The folders are layers, and includes go one way only: down. The layers and
# their order are listed once, in LAYERS at the top of the tree (the Makefile
# builds the same list).
#
# A file may include from its own layer and the layers below it; views,
# the terminal UI and the front ends reach collectors only through the session.
# Inside collectors, the runtimes do not include each other, host/ includes
# no runtime, and the .NET sources (dotnet/ipc, dotnet/nettrace,
# dotnet/proc, dotnet/sampler) do not include the .NET backend or its
# decoders above them (dotnet/*.h). The in-process agent includes only itself, segment/ and base/.
#
# Prints one FAIL line per include that goes the wrong way, naming it.
. tests/lib.sh

LAYER_NAMES=$(layer_names)

# rank FILE: sets RANK to the position of FILE's layer in LAYERS, from 0;
# -1 outside them. (It and the two below set a variable rather than print:
# the loop calls them for each of ~2,000 includes, and a $(...) apiece
# cost the test ~20 s of CPU in forks.)
rank() {
	RANK=0
	for l in $LAYER_NAMES; do
		case "$1" in "$l"/*) return ;; esac
		RANK=$((RANK + 1))
	done
	RANK=-1
}

# runtime_of FILE: sets RUNTIME to the runtime folder under collectors/
# FILE is in (every folder there but host/), or to nothing.
runtime_of() {
	RUNTIME=""
	case "$1" in
	collectors/host/*) ;;
	collectors/*/*) RUNTIME=${1#collectors/} RUNTIME=${RUNTIME%%/*} ;;
	esac
}

# why_wrong FILE INCLUDED: sets WHY to why FILE must not include INCLUDED,
# or to nothing.
why_wrong() {
	WHY=""
	f=$1 h=$2
	case "$f" in
	agent/*)
		case "$h" in agent/* | segment/gctop_segment.h | segment/publish.h | segment/sample_weight.h | base/*) return ;; esac
		WHY="the in-process agent includes only agent/, segment/ and base/"
		return ;;
	esac
	runtime_of "$f"
	fr=$RUNTIME
	runtime_of "$h"
	hr=$RUNTIME
	if [ -n "$hr" ] && [ "$fr" != "$hr" ]; then
		case "$f" in
		collectors/host/*) WHY="host figures include a runtime"; return ;;
		collectors/*/*) WHY="one runtime's backend includes another's"; return ;;
		esac
	fi
	rank "$f"
	rf=$RANK
	rank "$h"
	rh=$RANK
	[ "$rf" -lt 0 ] && return
	if [ "$rh" -gt "$rf" ]; then
		WHY="a lower layer includes a higher one"
		return
	fi
	case "$f:$h" in
	views/*:collectors/* | tui/*:collectors/* | frontends/*:collectors/* | \
	views/*:segment/* | tui/*:segment/* | frontends/*:segment/* | \
	record/*:collectors/* | record/*:segment/*)
		WHY="views, the terminal UI and the front ends reach collectors only through session/" ;;
	collectors/host/*:collectors/target.h | collectors/host/*:collectors/backend.h)
		WHY="host figures include a runtime" ;;
	collectors/dotnet/*/*:collectors/dotnet/*)
		case "${h#collectors/dotnet/}" in
		*/*) ;;
		*) WHY="a .NET source includes the .NET backend above it" ;;
		esac ;;
	esac
}

# wrong FILE INCLUDED: prints why FILE must not include INCLUDED, or nothing.
wrong() {
	why_wrong "$1" "$2"
	echo "$WHY"
}

bad=0 seen=0
# shellcheck disable=SC2046,SC2086
files=$(for f in $(git ls-files -- $(printf '%s/ ' $LAYER_NAMES agent) | grep -E '\.(c|h)$'); do
	[ -f "$f" ] && echo "$f"
done)
# every quoted include, "FILE INCLUDED" a line, read by one awk
# shellcheck disable=SC2086
includes=$(awk 'match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
	h = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", h); sub(/"$/, "", h); print FILENAME, h
}' $files </dev/null)
while read -r f h; do
	[ -n "$f" ] || continue
	seen=$((seen + 1))
	if [ ! -f "$h" ]; then
		fail "$f includes \"$h\", which is not a path from the top of the tree"
		bad=$((bad + 1))
		continue
	fi
	why_wrong "$f" "$h"
	if [ -n "$WHY" ]; then
		fail "$f includes $h: $WHY"
		bad=$((bad + 1))
	fi
done <<EOT
$includes
EOT
check "$seen includes read" [ "$seen" -gt 100 ]
check "every include goes down ($bad go the wrong way)" [ "$bad" -eq 0 ]
# The rule itself refuses what it must (so a broken rule cannot pass silently).
check "LAYERS names nine layers, base first" [ "$(echo $LAYER_NAMES | wc -w)" -eq 9 -a "$(rank base/x.c; echo "$RANK")" -eq 0 ]
check "the rule refuses views including the terminal UI" [ -n "$(wrong views/text_writer.c tui/keys.h)" ]
check "the rule refuses the terminal UI including a front end" [ -n "$(wrong tui/loop.c frontends/options.h)" ]
check "the rule refuses hotspot including dotnet" [ -n "$(wrong collectors/hotspot/hotspot.c collectors/dotnet/proc/dotnet_proc.h)" ]
check "the rule refuses any runtime including another" \
	[ -n "$(wrong collectors/skeleton/skeleton.c collectors/hotspot/hotspot_runtime.h)" ]
check "the rule refuses host figures including a runtime" \
	[ -n "$(wrong collectors/host/proc.c collectors/skeleton/skeleton_runtime.h)" ]
check "the rule allows the registry including a runtime" \
	[ -z "$(wrong collectors/registry.c collectors/skeleton/skeleton_runtime.h)" ]
check "the rule refuses a .NET source including the backend" \
	[ -n "$(wrong collectors/dotnet/ipc/diag_ipc_discover.c collectors/dotnet/dotnet_info.h)" ]
check "the rule refuses the .NET sampler including the backend's header" \
	[ -n "$(wrong collectors/dotnet/sampler/dotnet_sampler.c collectors/dotnet/dotnet_internal.h)" ]
check "the rule allows the backend including a .NET source" \
	[ -z "$(wrong collectors/dotnet/dotnet.c collectors/dotnet/proc/dotnet_proc.h)" ]
check "the rule allows the terminal UI including views" [ -z "$(wrong tui/panes/pane_memory.c views/format_live.h)" ]
check "the rule refuses a front end reaching a collector" [ -n "$(wrong frontends/serve_mode.c collectors/target.h)" ]
check "the rule refuses the session including a recording" [ -n "$(wrong session/session.c record/record_reader.h)" ]
check "the rule refuses record/ reaching a collector" [ -n "$(wrong record/compare.c collectors/target.h)" ]
check "the rule allows views including record/" [ -z "$(wrong views/json_writer.c record/record_format.h)" ]
