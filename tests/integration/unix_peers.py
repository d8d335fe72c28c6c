#!/usr/bin/env python3
"""The Unix-socket connections between two processes, or left behind by a
dead client, from the kernel's own table: each socket's peer comes from
sock_diag (NETLINK_SOCK_DIAG, UNIX_DIAG_PEER: what `ss -x` shows), each
process's sockets from /proc/PID/fd. A test counts what its own gctop
holds in a target this way, not all the target's connections: another
gctop, a picker or dotnet-counters watching the machine's .NET processes
holds some too.

usage: unix_peers.py ends CLIENT TARGET
           the TARGET's socket inodes connected to CLIENT's, one a line
       unix_peers.py most CLIENT TARGET
           samples the connections between them until CLIENT exits (or is
           a zombie) and prints the most there were at once
       unix_peers.py orphans TARGET [INODE...]
           TARGET's connected sockets whose peer no process holds (a
           client that is gone), less the INODEs given (those there
           before), one a line"""

import os
import socket
import struct
import sys

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
NLMSG_DONE, NLMSG_ERROR = 3, 2
UDIAG_SHOW_PEER = 0x4
UNIX_DIAG_PEER = 2


def peers():
    """{inode: peer inode} of every Unix socket with a peer."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG)
    req = struct.pack("=BBHIII2I", socket.AF_UNIX, 0, 0, 0xFFFFFFFF, 0, UDIAG_SHOW_PEER, 0xFFFFFFFF, 0xFFFFFFFF)
    s.send(struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + req)
    out = {}
    while True:
        data = s.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, off)
            if kind == NLMSG_DONE or length < 16:
                s.close()
                return out
            if kind == NLMSG_ERROR:
                sys.exit("unix_peers.py: sock_diag refused the request")
            ino = struct.unpack_from("=I", data, off + 16 + 4)[0]
            a = off + 16 + 16
            while a + 4 <= off + length:
                alen, atype = struct.unpack_from("=HH", data, a)
                if alen < 4:
                    break
                if atype == UNIX_DIAG_PEER:
                    out[ino] = struct.unpack_from("=I", data, a + 4)[0]
                a += (alen + 3) & ~3
            off += (length + 3) & ~3


def sockets_of(pid):
    """The socket inodes PID holds (none when it is gone)."""
    inodes = set()
    try:
        names = os.listdir("/proc/%s/fd" % pid)
    except OSError:
        return inodes
    for name in names:
        try:
            link = os.readlink("/proc/%s/fd/%s" % (pid, name))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(int(link[8:-1]))
    return inodes


def all_held():
    """Every socket inode some process holds."""
    held = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            held |= sockets_of(pid)
    return held


def alive(pid):
    """PID runs (a zombie holds no file any more)."""
    try:
        with open("/proc/%s/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def most(client_pid, target_pid):
    """The most connections CLIENT held in TARGET at once, sampled until
    CLIENT is gone (each sample a few ms: a connection of a tenth of a
    second is seen)."""
    top = 0
    while alive(client_pid):
        client = sockets_of(client_pid)
        p = peers()
        top = max(top, len([i for i in sockets_of(target_pid) if p.get(i) in client]))
    return top


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "most":
        print(most(sys.argv[2], sys.argv[3]))
        return
    if len(sys.argv) >= 4 and sys.argv[1] == "ends":
        client = sockets_of(sys.argv[2])
        p = peers()
        ends = [i for i in sockets_of(sys.argv[3]) if p.get(i) in client]
    elif len(sys.argv) >= 3 and sys.argv[1] == "orphans":
        before = {int(i) for i in sys.argv[3:]}
        p = peers()
        held = all_held()
        # a peer that is gone reads as inode 0: its socket has no file any more
        ends = [i for i in sockets_of(sys.argv[2]) if i in p and p[i] not in held and i not in before]
    else:
        sys.exit(__doc__)
    for i in sorted(ends):
        print(i)


if __name__ == "__main__":
    main()
