#!/usr/bin/env python3
"""Writes the perf-data file of a fake JVM for the security_* tests.

usage: security_fake_jvm.py SRC DST PID [COMMAND [VMARGS [LASTCAUSE [VERSION]]]]

Copies the real perf-data file SRC to DST with sun.rt.createVmBeginTime set
to the start time of process PID (so gctop takes the file as that process's,
not a stale one), and, when given, sun.rt.javaCommand, java.rt.vmArgs and
sun.gc.lastCause and java.property.java.vm.version replaced by COMMAND,
VMARGS, LASTCAUSE and VERSION (Python escapes
such as \\x1b are decoded, so a test can plant escape sequences and invalid
UTF-8). A replaced string's old entry is renamed and a new one appended.
Not a test itself.
"""
import os
import struct
import sys

ENTRY_HEADER = struct.Struct("<IIIBBBBI")


def entries(b):
    used, _, _, off, num = struct.unpack_from("<IIqII", b, 8)
    for _ in range(num):
        length, name_off, vlen, dtype, _, _, _, data_off = ENTRY_HEADER.unpack_from(b, off)
        end = b.index(b"\0", off + name_off)
        yield off, b[off + name_off:end].decode(), vlen, dtype, data_off
        off += length


def start_ms(pid):
    with open("/proc/%d/stat" % pid) as f:
        ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/stat") as f:
        btime = next(int(line.split()[1]) for line in f if line.startswith("btime "))
    return btime * 1000 + ticks * 1000 // 100  # USER_HZ is 100 on Linux


def rename(b, name):
    for off, n, _, _, _ in entries(b):
        if n == name:
            name_off = ENTRY_HEADER.unpack_from(b, off)[1]
            b[off + name_off + len(n) - 1] = ord("X")


def append_string(b, name, value):
    used, _, _, _, num = struct.unpack_from("<IIqII", b, 8)
    raw = name.encode() + b"\0"
    name_off = ENTRY_HEADER.size
    data_off = (name_off + len(raw) + 7) & ~7
    length = (data_off + len(value) + 1 + 7) & ~7
    if used + length > len(b):
        sys.exit("no room for %s" % name)
    e = bytearray(length)
    ENTRY_HEADER.pack_into(e, 0, length, name_off, len(value) + 1, ord("B"), 0, 5, 1, data_off)
    e[name_off:name_off + len(raw)] = raw
    e[data_off:data_off + len(value)] = value
    b[used:used + length] = e
    struct.pack_into("<I", b, 8, used + length)
    struct.pack_into("<I", b, 28, num + 1)


def main():
    src, dst, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = bytearray(open(src, "rb").read())
    for off, name, vlen, dtype, data_off in entries(b):
        if name == "sun.rt.createVmBeginTime":
            struct.pack_into("<q", b, off + data_off, start_ms(pid))
    for key, arg in (("sun.rt.javaCommand", 4), ("java.rt.vmArgs", 5), ("sun.gc.lastCause", 6),
                     ("java.property.java.vm.version", 7)):
        if len(sys.argv) > arg:
            value = sys.argv[arg].encode("latin-1").decode("unicode_escape").encode("latin-1")
            rename(b, key)
            append_string(b, key, value)
    with open(dst + ".tmp", "wb") as f:
        f.write(b)
    os.rename(dst + ".tmp", dst)


if __name__ == "__main__":
    main()
