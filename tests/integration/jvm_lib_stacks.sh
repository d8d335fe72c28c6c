#!/bin/sh
# test-lane: measuring
# The stacks behind an allocation site when a JDK library does all the
# allocating, deep below the application frame: NestedText's Report.render
# turns a 40-level tree of lists into text with List.toString, so
# java.util.AbstractCollection.toString recurses three frames a level and
# java.lang allocates every byte, up to some 130 frames below the site.
# Through gctop's agent (loaded by --allocators), asserted:
#   the top site is NestedText$Report.render with most bytes (before the
#     fix the agent walked 48 frames at most, and the bytes of the deeper
#     levels went to java.util.Arrays.copyOf and the like as their site)
#   every stack kept of it holds it, followed by its caller NestedText.main,
#     and the top stack holds java.util.AbstractCollection frames below it;
#     every frame before the site is the runtime's (java., jdk., sun.)
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }
start_java "$WORK/java.log" -Xmx256m -XX:+UseG1GC -cp "$classes" NestedText 20 40
wait_for_hsperf "$JPID" 15 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 0; }

"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -d 1 -n 4 >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators --json exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]

comparator stacks_check.py python3 tests/integration/stacks_check.py "$WORK/g.json" jvm_lib_stacks 'NestedText$Report.render' NestedText.main \
	java.util.AbstractCollection java.,jdk.,sun. --top-only
