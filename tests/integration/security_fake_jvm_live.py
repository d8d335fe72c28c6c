#!/usr/bin/env python3
"""Makes a fake JVM's perf data (security_fake_jvm.py wrote it from a Serial
GC file) move for the security_implausible test: for SECONDS, the clock
(sun.os.hrt.ticks) advances in real time and every STEP seconds a full
collection ends (sun.gc.collector.1.invocations + 1) leaving the old
generation with the next live set of MODE. Written in place, as a JVM
writes its mapped file.

usage: security_fake_jvm_live.py FILE MODE SECONDS

MODE  heapmax  an 8 EiB heap maximum (old generation's maxCapacity), the
               live set 100 MiB growing 1 MiB per collection
      far      a 1 GiB heap maximum, the same live set: its exhaustion lies
               far past 10 times the trend's span
      maximal  a live set of k * 2^58 bytes after collection k (7.5e18 at k = 26, the last)
      absurd   no collection; the old generation holds 2^60 bytes (far above any
               host's memory) and eden grows 2^50 bytes every 0.2 s (5.6e15 B/s,
               over 1000 times the fastest memory's bandwidth)
Not a test itself.
"""
import importlib.util
import os
import struct
import sys
import time

STEP = 3.0
MIB = 1 << 20

spec = importlib.util.spec_from_file_location(
    "fake", os.path.join(os.path.dirname(os.path.abspath(__file__)), "security_fake_jvm.py"))
fake = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fake)


def offsets(path):
    b = bytearray(open(path, "rb").read())
    return {name: off + data_off for off, name, _, dtype, data_off in fake.entries(b) if dtype == ord("J")}


def put(f, at, value):
    f.seek(at)
    f.write(struct.pack("<q", value))


def live(mode, k):
    if mode == "maximal":
        return k * (1 << 58)
    return 100 * MIB + k * MIB


def main():
    path, mode, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    at = offsets(path)
    start = time.monotonic()
    with open(path, "r+b") as f:
        ticks0 = struct.unpack("<q", open(path, "rb").read()[at["sun.os.hrt.ticks"]:][:8])[0]
        if mode in ("heapmax", "far"):
            top = (1 << 63) - 1 if mode == "heapmax" else 1 << 30
            for name in ("sun.gc.generation.1.maxCapacity", "sun.gc.generation.1.space.0.maxCapacity"):
                put(f, at[name], top)
        invocations = struct.unpack("<q", open(path, "rb").read()[at["sun.gc.collector.1.invocations"]:][:8])[0]
        k, next_gc, tick = 0, start + STEP, 0
        if mode == "absurd":
            put(f, at["sun.gc.generation.1.space.0.used"], 1 << 60)
            next_gc = float("inf")
        while time.monotonic() - start < seconds:
            now = time.monotonic()
            ticks = ticks0 + int((now - start) * 1e9)
            tick += 1
            if mode == "absurd":
                put(f, at["sun.gc.generation.0.space.0.used"], tick << 50)
            if now >= next_gc:
                k += 1
                next_gc += STEP
                put(f, at["sun.gc.generation.1.space.0.used"], live(mode, k))
                put(f, at["sun.gc.collector.1.lastEntryTime"], ticks - 1000000)
                put(f, at["sun.gc.collector.1.lastExitTime"], ticks)
                put(f, at["sun.gc.collector.1.invocations"], invocations + k)
            put(f, at["sun.os.hrt.ticks"], ticks)
            f.flush()
            time.sleep(0.2)


if __name__ == "__main__":
    main()
