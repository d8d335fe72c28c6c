#!/bin/sh
# sanitizer: yes
# gctop -r in the full-screen view: a crafted recording whose interval N
# allocates N x 10 MiB/s and has N young collections; t, T and r move the
# figures shown to the recorded ones, b jumps to a sample, space plays to the end, and the
# footer says which sample is shown.
. tests/lib.sh
. tests/tui/tui_common.shlib
require_tmux
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }

python3 - "$WORK/rec.ndjson" <<'PY'
import json, sys
MIB = 1 << 20
info = {"pid": 4242, "nspid": 4242, "runtime": "hotspot", "runtime_version": "17.0.15", "gc_name": "G1",
        "gc_mode": "", "main_class": "Recorded", "command_line": "java Recorded", "heap_flags": "-Xmx256m",
        "user": "u", "cgroup_path": "/", "source": "hsperfdata", "start_time_ms": 1796000000000,
        "heap_max_bytes": 256 * MIB, "cgroup_limit_bytes": None, "cgroup_version": 2}
lines = [{"type": "header", "format": "gctop-recording", "version": 1, "info": info}]
total, young = 0, 0
for i in range(6):
    if i:
        total += i * 10 * MIB   # interval i: i x 10 MiB/s
        young += i
    lines.append({"type": "sample", "mono_ns": (1000 + i) * 10**9, "wall_ms": 1796000100000 + i * 1000, "pid": 4242,
                  "state": "live", "alloc_source": "exact", "alloc_since": "attach", "collections_since": "attach",
                  "agent_pause_window": 0, "alloc_bytes_total": total, "heap_used_bytes": 50 * MIB,
                  "heap_committed_bytes": 128 * MIB, "heap_max_bytes": 256 * MIB, "pause_total_ns": young * 10**6,
                  "generations": [{"name": "young", "collections": young}, {"name": "old", "collections": 0}]})
open(sys.argv[1], "w").write("".join(json.dumps(l) + "\n" for l in lines))
PY

start_gctop -r "$WORK/rec.ndjson" -d 0.2
if ! wait_screen "rate 10.0 MiB/s" 10; then
	fail "the first interval (10 MiB/s) is not shown: $(screen | head -12)"
	exit 0
fi
check "the header says REPLAY and names the recorded program" wait_screen "REPLAY +PID 4242 +Recorded" 2
check "the footer says sample 2" wait_screen "replay: sample 2" 2
tm send-keys t
check "t: the second interval, 20 MiB/s" wait_screen "rate 20.0 MiB/s" 5
check "t: the footer says sample 3" wait_screen "replay: sample 3" 2
tm send-keys t
check "t again: 30 MiB/s" wait_screen "rate 30.0 MiB/s" 5
tm send-keys T
check "T: back to 20 MiB/s" wait_screen "rate 20.0 MiB/s" 5
check "T: the footer says sample 3" wait_screen "replay: sample 3" 2
tm send-keys r
check "r: back to the first interval, 10 MiB/s" wait_screen "rate 10.0 MiB/s" 5
tm send-keys T
check "T at the start stays on the first interval" wait_screen "replay: sample 2" 2
tm send-keys b 4 Enter
check "b 4: the interval ending at sample 4, 30 MiB/s" wait_screen "rate 30.0 MiB/s" 5
check "b 4: the footer says sample 4" wait_screen "replay: sample 4" 2
tm send-keys b x Enter
check "b with no number is refused in a sentence" wait_screen "sample \"x\" ignored" 5
tm send-keys b 9 9 Enter
check "b past the end goes to the last sample (50 MiB/s)" wait_screen "rate 50.0 MiB/s" 5
tm send-keys r
check "r again: 10 MiB/s" wait_screen "rate 10.0 MiB/s" 5
tm send-keys ' '
check "space plays to the last sample (50 MiB/s)" wait_screen "rate 50.0 MiB/s" 10
check "the footer says it is the last" wait_screen "sample 6 \\(the last\\)" 5
tm send-keys q
status=$(wait_exit 5)
check "q ends the replay with status 0 ($status)" [ "$status" = 0 ]

# A recording gctop cannot read: the sentence and status 10, no screen.
printf '{"type":"header","format":"gctop-recording","version":7,"info":{}}\n' >"$WORK/new.ndjson"
new_server
rm -f "$WORK/status"
start_gctop -r "$WORK/new.ndjson"
status=$(wait_exit 5)
check "a recording of a newer format ends with status 10 ($status)" [ "$status" = 10 ]
check "and says why" wait_screen "newer gctop" 2
