#!/bin/sh
# sanitizer: yes
# Issue 10, item 5 (the segment): the owner of an allocation segment cuts it
# to nothing and writes it back every 150 microseconds while root's gctop reads it.
# gctop must never die of SIGBUS; it reads on (or says why it cannot).
. tests/lib.sh
. tests/integration/security_common.shlib
require_root
make_test_user
build_fake
start_fake seg / "$WORK/libjvm.so"
seg="/tmp/.gctop-seg-$FAKE"
wait_for_file "$seg" 5 || { fail "the fake JVM published no segment: $(cat "$WORK/fake.err")"; exit 1; }
timeout 60 "$GCTOP_BIN" -p "$FAKE" --allocators=agent --json -n 60 -d 0.1 >"$WORK/out" 2>"$WORK/err"
rc=$?
check "gctop was not killed by a signal (status $rc: $(head -c 300 "$WORK/err"))" [ "$rc" -lt 124 ]
check "gctop read the segment and finished its samples (status $rc, $(grep -c . "$WORK/out") samples)" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c . '$WORK/out') -eq 60 ]"
