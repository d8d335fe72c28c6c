#!/bin/sh
# make bench: gctop's benchmarks. Needs build/gctop and the bench tools (make
# bench builds them), a JDK, tmux and python3; the .NET parts also need a
# .NET 10 SDK and are skipped with a message without one.
#   BENCH_ARGS="--quick"              short runs, to try the scripts
#   BENCH_ARGS="--only sites,events"  some sections only (see bench/README.md)
# The sections are bench.py's, and leak-death, which is bench/leak_death.py's
# (it takes --quick and --rounds too).
set -eu
cd "$(dirname "$0")/.."
for t in python3 java javac jstat tmux top; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench: $t is required but not installed" >&2; exit 1; }
done
only="" rest=""
# shellcheck disable=SC2086 # the arguments are words
set -- ${BENCH_ARGS:-}
while [ $# -gt 0 ]; do
	case $1 in
	--only) only=${2:-}; shift 2 || shift ;;
	*) rest="$rest $1"; shift ;;
	esac
done
# bench.py's sections of --only (all of them without --only); whether
# leak-death is one
others=$(echo ",$only," | sed 's/,leak-death,/,/; s/^,*//; s/,*$//')
leak=yes
case ",$only," in ,,|*,leak-death,*) ;; *) leak=no ;; esac
# shellcheck disable=SC2086
if [ -z "$only" ]; then
	python3 bench/bench.py $rest
elif [ -n "$others" ]; then
	python3 bench/bench.py $rest --only "$others"
fi
# shellcheck disable=SC2086
[ "$leak" = no ] || python3 bench/leak_death.py $rest
