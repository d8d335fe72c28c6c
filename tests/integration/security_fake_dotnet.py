#!/usr/bin/env python3
"""A hostile stand-in for a .NET process, for the security_hang_* tests.

It maps a library named libcoreclr.so (as a real runtime does, so gctop's
check that the target is .NET passes) and serves a diagnostics socket at
/tmp/dotnet-diagnostic-<pid>-<start ticks>-socket, where gctop looks for one.

usage: security_fake_dotnet.py MODE LIBCORECLR READYFILE
MODE:
  dribble   every reply (ProcessInfo first) is valid but sent one byte every
            DRIBBLE_S seconds (default 1.5), so it never completes in time
  stop      ProcessInfo and CollectTracing answer at once (the stream then
            stays silent); the StopTracing reply is sent one byte every
            DRIBBLE_S seconds (default 0.45)
  metaflood CollectTracing answers at once and the fake appends "tracing"
            to READYFILE.log; once a file "go" exists beside READYFILE, the
            stream declares META_KINDS (default 16383) event kinds of 100
            fields each with long names, some 40 MB of metadata, in blocks
            of 50 kinds; once all is sent, or gctop hung up or stopped
            reading for 5 s, the fake appends "flood done" to READYFILE.log
            and holds the connection open
  silent    every connection is accepted and read, and never answered
  hold      ProcessInfo answers at once; every other command (CollectTracing)
            is read and never answered
  reset     ProcessInfo answers at once; CollectTracing answers and starts
            the stream (its header and Trace object), and RESET_AFTER_S
            later (default 0.3) the fake appends "reset MONOTONIC_S" to
            READYFILE.log and closes the connection with the request's
            payload unread, which resets it (ECONNRESET for the reader)
The socket goes in $TMPDIR when it is set, as the runtime's does.
READYFILE gets the socket path once it listens. FAKE_ENTRY_ASSEMBLY, when
set, is the entry assembly ProcessInfo names (Python escapes such as \u202e
are decoded; default "Fake"); FAKE_RUNTIME_VERSION the runtime version
it names (decoded alike; default "10.0.0"). Not a test itself (run.sh runs only *.sh).
"""
import ctypes
import os
import signal
import socket
import struct
import sys
import threading
import time

MAGIC = b"DOTNET_IPC_V1\0"
SET_EVENTPIPE, SET_PROCESS, SET_SERVER = 0x02, 0x04, 0xFF
EP_STOP = 0x01
SERVER_OK = 0x00


def header(payload_len, cset=SET_SERVER, cid=SERVER_OK):
    return MAGIC + struct.pack("<HBBH", 20 + payload_len, cset, cid, 0)


def utf16(s):
    data = (s + "\0").encode("utf-16-le")
    return struct.pack("<I", len(s) + 1) + data


def entry_assembly():
    name = os.environ.get("FAKE_ENTRY_ASSEMBLY")
    return name.encode("utf-8").decode("unicode_escape") if name else "Fake"


def runtime_version():
    v = os.environ.get("FAKE_RUNTIME_VERSION")
    return v.encode("utf-8").decode("unicode_escape") if v else "10.0.0"


def process_info3():
    p = struct.pack("<I", 0) + struct.pack("<Q", os.getpid()) + b"\0" * 16
    for s in ("fake", "Linux", "x64", entry_assembly(), runtime_version(), "linux-x64"):
        p += utf16(s)
    return header(len(p)) + p


def nettrace_object(name, body):
    """A FastSerialization object: tags, version 2, type name, body, end."""
    n = name.encode()
    return b"\x05\x05\x01" + struct.pack("<iii", 2, 2, len(n)) + n + b"\x06" + body + b"\x06"


def nettrace_head():
    trace = struct.pack("<8H", 2026, 1, 1, 1, 1, 1, 1, 1)
    trace += struct.pack("<qqiiii", 0, 1000000000, 8, os.getpid(), 1, 1000000)
    return (b"Nettrace" + struct.pack("<I", 20) + b"!FastSerialization.1"
            + nettrace_object("Trace", trace))


def varuint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def meta_record(kind):
    """Event kind `kind`: long provider and event names, 100 Int32 fields."""
    name = ("Flood%05d" % kind) * 8
    r = struct.pack("<I", kind) + (name + "\0").encode("utf-16-le")
    r += struct.pack("<I", kind) + (name + "\0").encode("utf-16-le")
    r += struct.pack("<QII", 0, 0, 4) + struct.pack("<I", 100)
    for i in range(100):
        r += struct.pack("<I", 9) + ("Field%02d\0" % i).encode("utf-16-le")
    return r


def metadata_block(first, last, offset):
    """A MetadataBlock of kinds first..last written at stream offset `offset`
    (its content pads to a 4-byte offset of the stream)."""
    content = struct.pack("<HHQQ", 20, 1, 0, 0)
    for kind in range(first, last + 1):
        r = meta_record(kind)
        content += b"\x80" + varuint(0) + varuint(len(r)) + r
    head = b"\x05\x05\x01" + struct.pack("<iii", 2, 2, 13) + b"MetadataBlock\x06"
    head += struct.pack("<i", len(content))
    head += b"\0" * ((4 - (offset + len(head)) % 4) % 4)
    return head + content + b"\x06"


def log_line(ready, line):
    with open(ready + ".log", "a") as f:
        f.write(line + "\n")


def metaflood(conn, ready):
    kinds = int(os.environ.get("META_KINDS", "16383"))
    sent, kind = 0, 1
    log_line(ready, "tracing")
    while not os.path.exists(os.path.join(os.path.dirname(ready), "go")):
        time.sleep(0.05)
    conn.settimeout(5)
    try:
        data = nettrace_head()
        while True:
            conn.sendall(data)
            sent += len(data)
            if kind > kinds:
                break
            last = min(kinds, kind + 49)
            data = metadata_block(kind, last, sent)
            kind = last + 1
    except OSError:
        pass
    log_line(ready, "flood done %d bytes" % sent)
    conn.settimeout(None)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def recv_exact(conn, n):
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def dribble(conn, data, delay):
    for i in range(len(data)):
        conn.sendall(data[i:i + 1])
        time.sleep(delay)


def reset_stream(conn, ready):
    """Starts the stream; its caller then closes with the payload unread."""
    conn.sendall(header(8) + struct.pack("<Q", 1) + nettrace_head())
    time.sleep(float(os.environ.get("RESET_AFTER_S", "0.3")))
    log_line(ready, "reset %.6f" % time.monotonic())


def serve(conn, mode, delay, ready):
    try:
        h = recv_exact(conn, 20)
        size, cset, cid = struct.unpack("<HBB", h[14:18])
        if mode == "reset" and cset == SET_EVENTPIPE and cid != EP_STOP:
            reset_stream(conn, ready)
            return
        recv_exact(conn, size - 20)
        if mode == "silent" or (mode == "hold" and cset != SET_PROCESS):
            while conn.recv(4096):
                pass
        elif mode == "hold":
            conn.sendall(process_info3())
        elif mode == "dribble":
            dribble(conn, process_info3(), delay)
        elif cset == SET_PROCESS:
            conn.sendall(process_info3())
        elif cset == SET_EVENTPIPE and cid == EP_STOP:
            dribble(conn, header(8) + struct.pack("<Q", 1), delay)
        elif cset == SET_EVENTPIPE and mode == "metaflood":
            conn.sendall(header(8) + struct.pack("<Q", 1))
            metaflood(conn, ready)
        elif cset == SET_EVENTPIPE:
            conn.sendall(header(8) + struct.pack("<Q", 1))
            while conn.recv(4096):
                pass
    except (EOFError, OSError):
        pass
    finally:
        conn.close()


def start_ticks():
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[19])


def main():
    mode, lib, ready = sys.argv[1:4]
    delay = float(os.environ.get("DRIBBLE_S", "1.5" if mode == "dribble" else "0.45"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    ctypes.CDLL(lib)
    tmpdir = os.environ.get("TMPDIR") or "/tmp"
    path = os.path.join(tmpdir, "dotnet-diagnostic-%d-%d-socket" % (os.getpid(), start_ticks()))
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(16)
    with open(ready + ".tmp", "w") as f:
        f.write(path + "\n")
    os.rename(ready + ".tmp", ready)
    try:
        while True:
            conn, _ = srv.accept()
            threading.Thread(target=serve, args=(conn, mode, delay, ready), daemon=True).start()
    finally:
        os.unlink(path)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
