#!/bin/sh
# sanitizer: yes
# The memory pane's live-set rows at 80 columns (the pane is half of them,
# beside the allocation pane), from a crafted recording
# (tests/integration/record_live_set.py: 300 MiB growing 1 MiB/s, heap and
# old max 1 GiB): n/a with why while the points are too few, then at the
# last sample the live set, its growth per minute with its interval, the
# time to the heap's max, and old's occupancy as jstat.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
python3 tests/integration/record_live_set.py "$WORK/leak.ndjson" 40 || { fail "record_live_set.py failed"; exit 0; }

tm new-session -d -x 80 -y 40 "$GCTOP_BIN -r $WORK/leak.ndjson; $(status_to gctop-exit "$WORK/status"); sleep 120"
if ! wait_screen "replay: sample 2" 10; then
	fail "the replay did not start: $(screen | head -12)"
	exit 0
fi
check "the first interval: the live set" wait_screen "live set 309 MiB" 2
check "its growth n/a" wait_screen "growth n/a" 2
check "and why there is no deadline yet" wait_screen "full in n/a  too few points" 2
tm send-keys b 4 0 Enter
check "at the last sample: the live set" wait_screen "live set 689 MiB" 5
check "its growth per minute with its interval" wait_screen "growth \+60\.0 MiB/min \(90%: 60\.0\.\.60\.0\)" 2
check "the time until it fills the heap's max" wait_screen "full in 5\.6 min to heap max" 2
check "old's occupancy as jstat: used, committed" wait_screen "old used 709 MiB  committed 800 MiB" 2
check "max and the share of committed used" wait_screen "max 1\.00 GiB  used 88\.6% of committed" 2
tm send-keys q
status=$(wait_exit 5)
check "q exits 0 ($status)" [ "$status" = 0 ]
