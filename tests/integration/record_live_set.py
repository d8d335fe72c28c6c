#!/usr/bin/env python3
"""Writes a crafted gctop recording of a JVM whose live set grows, to the
file named: COUNT samples 10 s apart, each after a full GC whose live-set
point is 300 MiB + 1 MiB/s (exactly, so the figures have exact values),
heap max and old max 1 GiB, old committed 800 MiB; with --flat the live set
stays at 300 MiB; with --old, the same without the live-set log and old
occupancy (a recording made before they were written). Used by
tests/integration/record_live_set.sh and tests/tui/tui_live_set.sh."""
import json
import sys

MIB = 1 << 20
INFO = {"pid": 4343, "nspid": 4343, "runtime": "hotspot", "runtime_version": "17.0.15", "gc_name": "Parallel",
        "gc_mode": "", "main_class": "Leaky", "command_line": "java Leaky", "heap_flags": "-Xmx1g", "user": "u",
        "cgroup_path": "/", "source": "hsperfdata", "start_time_ms": 1796000000000, "heap_max_bytes": 1024 * MIB,
        "cgroup_limit_bytes": None, "cgroup_version": 2}
T0 = 1000  # s, CLOCK_MONOTONIC of the first sample


def live_bytes(t, flat):
    return 300 * MIB + (0 if flat else (t - T0) * MIB)


def sample(i, flat, old):
    t = T0 + 10 * i
    s = {"type": "sample", "mono_ns": t * 10**9, "wall_ms": 1796000100000 + 10000 * i, "pid": 4343, "state": "live",
         "alloc_source": "estimate", "alloc_since": "attach", "collections_since": "process_start",
         "agent_pause_window": 0, "alloc_bytes_total": i * 100 * MIB, "heap_used_bytes": 500 * MIB,
         "heap_committed_bytes": 900 * MIB, "heap_max_bytes": 1024 * MIB,
         "generations": [{"name": "young", "collections": 10 * i}, {"name": "old", "collections": i}]}
    if not old:
        # the full GC 1 s before the sample; only the point new since the last line
        s["live_log"] = {"count": i + 1, "new": [{"bytes": live_bytes(t - 1, flat), "at_ns": (t - 1) * 10**9,
                                                   "kind": "full GC"}]}
        s.update({"old_used_bytes": live_bytes(t - 1, flat) + 20 * MIB, "old_committed_bytes": 800 * MIB,
                  "old_max_bytes": 1024 * MIB})
    return s


def main():
    path, count = sys.argv[1], int(sys.argv[2])
    flat, old = "--flat" in sys.argv, "--old" in sys.argv
    lines = [{"type": "header", "format": "gctop-recording", "version": 2, "info": INFO}]
    lines += [sample(i, flat, old) for i in range(count)]
    with open(path, "w") as f:
        f.write("".join(json.dumps(l) + "\n" for l in lines))


main()
