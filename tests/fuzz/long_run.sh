#!/bin/sh
# Long fuzzing runs for tests/fuzz/README: build each libFuzzer target like
# `make fuzz` (clang, ASan + UBSan, UBSan fatal) and run it to a fixed number
# of executions, one target at a time and at the lowest priority (the build
# machines are shared). Usage: sh tests/fuzz/long_run.sh [runs] [target...]
# MAX_LEN (default 8192) caps an input's size: real inputs are this small
# (cgroup files, IPC replies, attach replies) or repeat one structure (perf
# data entries, nettrace blocks), and libFuzzer slows down with big inputs.
# MAX_TIME (seconds, default none) caps each target's run.
# A crash leaves its input in build-fuzz/<target>.crash-*; copy it to
# tests/fuzz/corpus/<name>/ once fixed.
set -eu
cd "$(dirname "$0")/../.."
RUNS=${1:-10000000}
[ $# -gt 0 ] && shift
CC=${FUZZ_CC:-clang-14}
TARGETS=${*:-$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)}
# --serve's libraries are compiled against, not linked (frontends/serve_libs.h)
PKG_CFLAGS=$(pkg-config --cflags ncursesw libproc2 libcgroup json-c libmicrohttpd yaml-0.1 gnutls libcrypt zlib)
PKG_LIBS=$(pkg-config --libs ncursesw libproc2 libcgroup json-c)
# The parsers and what they need, as the Makefile's fuzz target: every layer
# in LAYERS but the screen and the front ends, of which the --web-config
# parser and --serve's Accept-Encoding reader, with their libraries' loader.
LIB_SRC="$(for l in $(sed -n 's/^\([a-z]\{1,\}\)[[:space:]].*/\1/p' LAYERS); do find "$l" -name '*.c'; done | grep -vE '^(screen|frontends)/' | sort)
frontends/web_config.c frontends/serve_libs.c frontends/serve_gzip.c"
mkdir -p build-fuzz
for n in $TARGETS; do
	# shellcheck disable=SC2086
	nice -n 19 "$CC" -std=c11 -D_GNU_SOURCE -I. -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined $PKG_CFLAGS -o "build-fuzz/$n" "tests/fuzz/$n.c" $LIB_SRC $PKG_LIBS -lm
	mkdir -p "build-fuzz/$n.corpus"
	start=$(date +%s)
	rc=0
	nice -n 19 "./build-fuzz/$n" -runs="$RUNS" -print_final_stats=1 -max_len="${MAX_LEN:-8192}" \
		${MAX_TIME:+-max_total_time=$MAX_TIME} \
		-artifact_prefix="build-fuzz/$n." "build-fuzz/$n.corpus" "tests/fuzz/corpus/${n#fuzz_}" \
		>"build-fuzz/$n.log" 2>&1 || rc=$?
	end=$(date +%s)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$n.log")
	echo "$n: rc=$rc runs=${runs:-?} seconds=$((end - start))"
done
