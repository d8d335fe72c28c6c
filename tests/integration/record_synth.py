#!/usr/bin/env python3
"""Writes a crafted gctop recording of a JVM to stdout: the header, then
COUNT samples (0: without end, for a pipe), each a second apart with 10 MiB
allocated per second; with --blank, the header and then empty lines without
end; with --info, the header and then info lines (the target's facts
again) without end. Kept small per line (some 230 bytes) so that a few hundred thousand
samples are made in seconds. Used by the tests of quitting while a
recording is read (tests/integration/record_quit.sh, tests/tui/tui_replay_quit.sh)."""
import itertools
import json
import sys

MIB = 1 << 20
INFO = {"pid": 4242, "nspid": 4242, "runtime": "hotspot", "runtime_version": "17.0.15", "gc_name": "G1",
        "main_class": "Synth", "command_line": "java Synth", "heap_max_bytes": 256 * MIB, "cgroup_version": 2}
SAMPLE = ('{"type":"sample","mono_ns":%d,"wall_ms":%d,"pid":4242,"agent_pause_window":0,"state":"live",'
          '"alloc_source":"exact","alloc_since":"attach","collections_since":"attach","alloc_bytes_total":%d}\n')


def main():
    count = int(sys.argv[1])
    out = sys.stdout
    out.write(json.dumps({"type": "header", "format": "gctop-recording", "version": 1, "info": INFO}) + "\n")
    try:
        if "--blank" in sys.argv:
            while True:
                out.write("\n" * 65536)
        if "--info" in sys.argv:
            line = json.dumps({"type": "info", "info": INFO}) + "\n"
            while True:
                out.write(line * 256)
        for i in itertools.count() if count == 0 else range(count):
            out.write(SAMPLE % ((1000 + i) * 10**9, 1796000100000 + i * 1000, i * 10 * MIB))
        out.flush()
    except BrokenPipeError:
        pass


main()
