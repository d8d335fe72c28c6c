#!/bin/sh
# test-lane: measuring
# Bytes per operation from MBean attributes (--ops jmx:OBJECTNAME:ATTRIBUTE):
# OpsWorkload counts its operations in one standard MBean per thread (two
# threads doing operations of 32 KiB each) and logs its own truth; gctop
# --allocators --ops with a pattern that sums both MBeans' Count must give
# bytes per operation within 5% of the workload's in every interval (JSON,
# then a recording's replay and --compare), and -b its operations per
# second; the agent reads them on a thread of its own (gctop-agent-jmx). An
# MBean that is not there, an attribute that is not, and one that is no
# number are n/a with the counter and why, never 0; without --allocators
# (the one option that loads the agent) --ops jmx: is a usage error (2).
# JDK 17 runs under -Xcheck:jni: the agent's JNI calls (the JMX thread,
# the watchdog's exact total, the sampling callback) must draw no warning.
# JDK 25 as JDK 17. About 40 s.
. tests/lib.sh
. tests/integration/jvm_ops.shlib
require_java
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
CLASSES=$(java_classes) || { fail "cannot compile tests/java"; exit 0; }
COUNTER=mbean:gctop.test
SPEC='jmx:gctop.test:type=Ops,*:Count'

# 60 s: the JVM must outlive every gctop below, which beside a CPU hog
# took more than the 24 s it once had (the last -b found it gone); it is
# killed once they are done.
ops_start jmx17.log 60 "$COUNTER" -Xcheck:jni
"$GCTOP_BIN" --json -p "$JPID" --allocators --ops "$SPEC" -d 2 -n 4 -w "$WORK/rec.ndjson" >"$WORK/ops.json" 2>"$WORK/ops.err"
rc=$?
check "gctop --json --allocators --ops jmx: exits 0 ($(head -c 300 "$WORK/ops.err"))" [ "$rc" -eq 0 ]
ops_judge "JDK 17" "$WORK/ops.json" "$WORK/jmx17.log" "$SPEC"
check "the agent reads the MBeans on a thread of its own" sh -c "jcmd $JPID Thread.print 2>/dev/null | grep -q '^\"gctop-agent-jmx\"'"
ops_check_recording "$WORK/ops.json" "$WORK/rec.ndjson"

"$GCTOP_BIN" -b -p "$JPID" --allocators --ops "$SPEC" -d 0.5 -n 1 >"$WORK/ops.txt" 2>&1
check "-b shows operations per second and bytes per op ($(grep '^Alloc' "$WORK/ops.txt"))" \
	grep -Eq '^Alloc: .*   operations/s [0-9.]+, [0-9.]+ KiB per op$' "$WORK/ops.txt"

# na SPEC REASON: --json gives ops null and ops_unavailable with SPEC and
# REASON in its reason, and -b the same.
na() {
	"$GCTOP_BIN" --json -p "$JPID" --allocators --ops "$1" -d 0.5 -n 2 >"$WORK/na.json" 2>"$WORK/na.err"
	rc=$?
	check "$1 is no error (status $rc: $(head -c 300 "$WORK/na.err"))" [ "$rc" -eq 0 -a -s "$WORK/na.json" ]
	check "$1: ops null, ops_unavailable names it and says '$2' ($(json_get "$WORK/na.json" -1 "d['ops_unavailable']"))" \
		[ "$(json_get "$WORK/na.json" -1 "d['ops'] is None and d['ops_unavailable']['counter'] == '$1' and '$2' in d['ops_unavailable']['reason']")" = True ]
}
na 'jmx:gctop.test:type=Nope,*:Count' 'no MBean of this name is registered'
na 'jmx:gctop.test:type=Ops,worker=0:Nope' 'the MBean has no attribute of this name'
na 'jmx:gctop.test:type=Ops,worker=0:Name' 'the attribute is not a number: java.lang.String'
# Three samples: the first can come before the agent's first answer on a
# busy machine (its reason is then the agent's start, not the MBean).
"$GCTOP_BIN" -b -p "$JPID" --allocators --ops 'jmx:gctop.test:type=Nope,*:Count' -d 0.5 -n 3 >"$WORK/none.txt" 2>&1
alloc_line() { grep '^Alloc: ' "$1" | tail -n 1 | grep . || head -c 300 "$1"; }
check "a missing MBean in -b: operations n/a with the name and why ($(alloc_line "$WORK/none.txt"))" \
	grep -q '^Alloc: .*   operations n/a (jmx:gctop.test:type=Nope,\*:Count: no MBean of this name is registered (yet))$' "$WORK/none.txt"

"$GCTOP_BIN" -b -p "$JPID" --ops "$SPEC" -n 1 >/dev/null 2>"$WORK/usage.err"
rc=$?
check "--ops jmx: without --allocators is a usage error that says so (status $rc: $(head -c 200 "$WORK/usage.err"))" \
	sh -c '[ "$1" -eq 2 ] && grep -q "add --allocators" "$2"' _ "$rc" "$WORK/usage.err"
kill "$JPID" 2>/dev/null
check "-Xcheck:jni found nothing in the agent's calls ($(grep -m1 -A2 'WARNING in native method' "$WORK/jmx17.log" | tr '\n' ' ' | head -c 300))" \
	sh -c '! grep -q "WARNING in native method" "$1"' _ "$WORK/jmx17.log"

j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ -x "$j25/java" ]; then
	PATH="$j25:$PATH" ops_start jmx25.log 10 "$COUNTER"
	"$GCTOP_BIN" --json -p "$JPID" --allocators --ops "$SPEC" -d 2 -n 3 >"$WORK/ops25.json" 2>"$WORK/ops25.err"
	rc=$?
	check "JDK 25: gctop --json --allocators --ops jmx: exits 0 ($(head -c 300 "$WORK/ops25.err"))" [ "$rc" -eq 0 ]
	ops_judge "JDK 25" "$WORK/ops25.json" "$WORK/jmx25.log" "$SPEC"
else
	skip_unless_ci runtime "JDK 25 is not installed at $j25"
fi
