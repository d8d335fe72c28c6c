#!/bin/sh
# sanitizer: yes
# The stacks behind an allocation site on a JVM: FormatText's Report.line
# formats numbers with String.format, so java.util.Formatter and java.lang
# allocate on its behalf. Through gctop's agent (loaded by --allocators):
#   the top site by first application frame is FormatText$Report.line
#   its top stacks run through java.util.Formatter frames up to the site
#     and its caller, with shares of the site's bytes in 0..1
#   every frame before the site is the runtime's (java., jdk., sun.)
#   -b names the top stack under the allocator tables
. tests/lib.sh
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
classes=$(java_classes) || { fail "tests/java does not compile"; exit 0; }
start_java "$WORK/java.log" -Xmx128m -XX:+UseG1GC -cp "$classes" FormatText 40
wait_for_hsperf "$JPID" 15 || { fail "the JVM published no perf data: $(head -c 300 "$WORK/java.log")"; exit 0; }

"$GCTOP_BIN" -p "$JPID" --allocators=agent --json -d 1 -n 4 >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators --json exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]

comparator stacks_check.py python3 tests/integration/stacks_check.py "$WORK/g.json" jvm_stacks 'FormatText$Report.line' FormatText.main \
	java.util.Formatter java.,jdk.,sun.

"$GCTOP_BIN" -p "$JPID" --allocators=agent -b -d 1 -n 2 >"$WORK/b.txt" 2>"$WORK/b.err"
rc=$?
check "gctop --allocators -b exits 0 ($(head -c 300 "$WORK/b.err"))" [ "$rc" -eq 0 ]
check "-b names the top stack of the top site" grep -q 'top stack of FormatText\$Report.line: ' "$WORK/b.txt"
check "-b lists java. frames under it" grep -q "^    java\." "$WORK/b.txt"
