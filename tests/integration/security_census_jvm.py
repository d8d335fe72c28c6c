#!/usr/bin/env python3
"""A fake JVM's attach listener for security_census_hostile.sh (not a test
itself): maps LIBJVM (so gctop takes the process for a JVM), writes its pid
to PIDFILE, listens on /tmp/.java_pid<pid> (mode 0600) and answers the Nth
connection by the Nth of MODES, writing each request's arguments to
PIDFILE.req<N>:
  hostile  a class histogram whose names hold escape sequences, C1 controls,
           bidirectional controls and invalid UTF-8, in the internal form
  flood    a histogram of more than 16 MiB (the census's cap)
  short    15 MiB of short rows ("1: 1 1 a0"): ~740000 types, past the
           census's 65536, then "Total 987654 321"
  refuse   status 101 and a message with escape bytes
  hang     no answer at all (the connection stays open for 60 s)

usage: security_census_jvm.py LIBJVM PIDFILE MODE[,MODE...]"""
import ctypes
import os
import signal
import socket
import sys
import time

HOSTILE = (b" num     #instances         #bytes  class name (module)\n"
           b"-------------------------------------------------------\n"
           b"   1:          1000         640000  [Lcom.evil.\x1b]0;PWNED\x07Title; (java.base@17)\n"
           b"   2:           500          32000  \x1b[2J\x1b[HEvil\x9b31m\xc2\x9bNode\n"
           b"   3:            20           1600  Bidi\xe2\x80\xaeReversed\xff\xc0\xaf\n"
           b"   4:             7            560  [[B\n"
           b"Total          1527         674160\n")


def flood():
    rows = []
    size = 0
    i = 0
    while size < 17 << 20:
        line = b"%7d: %13d %14d  com.example.generated.Type%08d\n" % (i + 1, 1000000 - i, 100000000 - i, i)
        rows.append(line)
        size += len(line)
        i += 1
    return b"".join(rows) + b"Total 1 1\n"


def short_rows():
    rows = []
    size = 0
    i = 0
    while size < 15 << 20:
        line = b"%d: 1 1 a%x\n" % (i + 1, i)
        rows.append(line)
        size += len(line)
        i += 1
    return b"".join(rows) + b"Total 987654 321\n"


def read_request(conn):
    data = b""
    while data.count(b"\0") < 5:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def main():
    ctypes.CDLL(sys.argv[1])
    pidfile, modes = sys.argv[2], sys.argv[3].split(",")
    path = "/tmp/.java_pid%d" % os.getpid()
    # The test ends this process with SIGTERM (in its hang mode too): exit
    # through the finally below, which removes the socket, so that a later
    # process given this pid can bind it; one a killed run left is removed
    # first (it is ours: /tmp is sticky).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        os.unlink(path)
    except OSError:
        pass
    old = os.umask(0o077)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    os.umask(old)
    os.chmod(path, 0o600)
    srv.listen(4)
    with open(pidfile + ".tmp", "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(pidfile + ".tmp", pidfile)
    try:
        for n, mode in enumerate(modes, 1):
            conn, _ = srv.accept()
            req = read_request(conn)
            with open("%s.req%d" % (pidfile, n), "wb") as f:
                f.write(req.replace(b"\0", b"|"))
            if mode == "hang":
                time.sleep(60)
                conn.close()
                continue
            if mode == "hostile":
                reply = b"0\n" + HOSTILE
            elif mode == "flood":
                reply = b"0\n" + flood()
            elif mode == "short":
                reply = b"0\n" + short_rows()
            else:
                reply = b"101\nno \x1b[31mthanks\x1b]0;X\x07\n"
            try:
                conn.sendall(reply)
            except OSError:
                pass  # gctop stops reading at its cap
            conn.close()
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
