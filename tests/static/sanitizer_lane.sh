#!/bin/sh
# The sanitizer lane (make check-asan: tests/run.sh with GCTOP_SUITE=sanitizer)
# runs the unit tests, the fuzz corpus replays and only the scripts marked
# "# sanitizer: yes" in their first 30 lines. What ASan+UBSan alone can catch
# is in what gctop makes of bytes it did not choose, so a script that feeds
# it crafted or hostile input must carry the mark: every security_* test, a
# script that uses the fake runtimes, the hostile strings, the crafted
# recordings, the hostile HTTP clients or the stored perf data
# (CRAFTED_USES below), and one whose header says it feeds something
# crafted, hostile, fake or planted. And the marked scripts run each front
# end once, the full screen included.
. tests/lib.sh

CRAFTED_USES='security_(common|fake_[a-z]+)\.shlib|hostile_text\.shlib|record_synth\.py|record_live_set\.py|serve_hostile\.py|serve_storm\.py|security_[a-z_]+\.py|tests/data/|tests/fuzz/corpus'

marked() { head -n 30 "$1" | grep -q '^# sanitizer: yes$'; }

feeds_crafted() {
	case "${1##*/}" in security_*) return 0 ;; esac
	grep -qE "$CRAFTED_USES" "$1" && return 0
	head -n 30 "$1" | grep '^#' | grep -qiE 'crafted|hostile|fake|planted'
}

found=0 missing=
for f in tests/integration/*.sh tests/tui/*.sh; do
	feeds_crafted "$f" || continue
	found=$((found + 1))
	marked "$f" || missing="$missing $f"
done
check "scripts that feed crafted or hostile input found ($found)" [ "$found" -ge 30 ]
check "each carries \"# sanitizer: yes\" in its first 30 lines (missing:$missing)" [ -z "$missing" ]

# The reader finds what it must: a security_* script, one that sources a
# fake runtime and one whose header says "crafted" need the mark; a script
# with none of those does not, and a marked one is seen as marked.
mkdir -p "$WORK/planted"
printf '#!/bin/sh\n. tests/lib.sh\n' >"$WORK/planted/security_x.sh"
printf '#!/bin/sh\n. tests/integration/security_fake_jvm.shlib\n' >"$WORK/planted/fake.sh"
printf '#!/bin/sh\n# From a crafted recording.\n' >"$WORK/planted/header.sh"
printf '#!/bin/sh\n# A live JVM.\n' >"$WORK/planted/plain.sh"
printf '#!/bin/sh\n# test-lane: measuring\n# sanitizer: yes\n' >"$WORK/planted/marked.sh"
seen=$(for f in security_x fake header plain; do feeds_crafted "$WORK/planted/$f.sh" && printf '%s ' "$f"; done)
check "the reader finds the planted scripts that feed crafted input, and only them ($seen)" \
	[ "$seen" = "security_x fake header " ]
check "a planted marked script is seen as marked" marked "$WORK/planted/marked.sh"

# runs_front_end FLAG: a marked script runs gctop with FLAG.
runs_front_end() {
	for f in tests/integration/*.sh tests/tui/*.sh; do
		marked "$f" && grep -qE -- "GCTOP_BIN\"?[^|;]* $1( |\"|\$)" "$f" && return 0
	done
	return 1
}
for flag in -b --json --serve --doctor --census -r --compare -l; do
	check "a marked script runs gctop $flag" runs_front_end "$flag"
done
screen=$(for f in tests/tui/tui_*.sh; do marked "$f" && echo "$f"; done | head -n 1)
check "a marked script drives the full screen ($screen)" [ -n "$screen" ]
