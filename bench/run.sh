#!/bin/sh
# make bench: gctop's benchmarks. Needs build/gctop and the bench tools (make
# bench builds them), a JDK, tmux and python3; the .NET parts also need a
# .NET 10 SDK and are skipped with a message without one.
#   BENCH_ARGS="--quick"              short runs, to try the scripts
#   BENCH_ARGS="--only sites,events"  some sections only (see bench/README.md)
set -eu
cd "$(dirname "$0")/.."
for t in python3 java javac jstat tmux top; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench: $t is required but not installed" >&2; exit 1; }
done
# shellcheck disable=SC2086
exec python3 bench/bench.py ${BENCH_ARGS:-}
