#!/bin/sh
# make demo installs what a demo needs and no more (no fuzzing compiler, no
# Prometheus, no tmux), while .ci/run still installs everything the tests
# need: the two lists of .ci/install-deps.sh, read with --list.
. tests/lib.sh
demo=" $(sh .ci/install-deps.sh --list demo) "
all=" $(sh .ci/install-deps.sh --list) "
check "make demo runs install-deps.sh with its own list" grep -q '^sh \.ci/install-deps\.sh demo$' demo/run.sh
check ".ci/run installs the full list" grep -q '^sh \.ci/install-deps\.sh$' .ci/run
for p in clang-14 libclang-rt-14-dev prometheus tmux; do
	check "the demo list leaves out $p, the full list has it" \
		eval 'case "$demo" in *" $p "*) false ;; esac && case "$all" in *" $p "*) true ;; *) false ;; esac'
done
# what the Makefile's build and the demo's JVM need is in both
for p in pkg-config libncurses-dev libproc2-dev libcgroup-dev libjson-c-dev libmicrohttpd-dev libyaml-dev libgnutls28-dev \
	libcrypt-dev zlib1g-dev openjdk-17-jdk-headless; do
	check "both lists have $p" eval 'case "$demo$all" in *" $p "*" $p "*) true ;; *) false ;; esac'
done
sh .ci/install-deps.sh bogus 2>/dev/null
check "an unknown list is a usage error" [ $? -eq 2 ]
