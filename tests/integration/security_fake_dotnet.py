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
  silent    every connection is accepted and read, and never answered
  hold      ProcessInfo answers at once; every other command (CollectTracing)
            is read and never answered
The socket goes in $TMPDIR when it is set, as the runtime's does.
READYFILE gets the socket path once it listens. Not a test itself (run.sh
runs only *.sh).
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


def process_info3():
    p = struct.pack("<I", 0) + struct.pack("<Q", os.getpid()) + b"\0" * 16
    for s in ("fake", "Linux", "x64", "Fake", "10.0.0", "linux-x64"):
        p += utf16(s)
    return header(len(p)) + p


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


def serve(conn, mode, delay):
    try:
        h = recv_exact(conn, 20)
        size, cset, cid = struct.unpack("<HBB", h[14:18])
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
            threading.Thread(target=serve, args=(conn, mode, delay), daemon=True).start()
    finally:
        os.unlink(path)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
