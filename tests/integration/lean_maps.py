#!/usr/bin/env python3
"""What a gctop process has mapped, from its /proc/PID/maps (issue 40: a run
that does not serve maps no HTTP, TLS, YAML, crypt or zlib library; --serve
loads them, frontends/serve_libs.h).

  lean_maps.py blocked LABEL CMD...   runs CMD with its stdout a pipe already
        full, so that its first write blocks once it has done its work (a
        gctop -l or --help that exits at once is caught too); reads its maps
        then, and ends it
  lean_maps.py pid LABEL PID          a running gctop that does not serve
  lean_maps.py serving LABEL PID      a running gctop --serve: it holds them

Prints PASS:/FAIL: lines, each as it is decided."""
import fcntl
import os
import re
import subprocess
import sys
import time

NAME = "lean_maps"
# --serve's libraries and what they bring (GnuTLS's own dependencies).
SERVE_ONLY = {
    "libmicrohttpd": r"/libmicrohttpd\.so",
    "GnuTLS": r"/libgnutls\.so",
    "p11-kit": r"/libp11-kit\.so",
    "nettle": r"/libnettle\.so",
    "hogweed": r"/libhogweed\.so",
    "libtasn1": r"/libtasn1\.so",
    "libidn2": r"/libidn2\.so",
    "libyaml": r"/libyaml-0\.so",
    "libcrypt": r"/libcrypt\.so",
    "zlib": r"/libz\.so",
}
# How long a blocked command may take to reach its first write (a -b run
# writes after its first interval, on a busy machine a few seconds).
BLOCK_WAIT_S = 30


def report(ok, what):
    print("%s: %s: %s" % ("PASS" if ok else "FAIL", NAME, what), flush=True)
    return ok


def mapped(pid):
    """The paths of the files pid maps."""
    with open("/proc/%d/maps" % pid) as f:
        return {line.split(None, 5)[5].strip() for line in f if len(line.split(None, 5)) == 6}


def check_lean(label, paths):
    held = sorted(name for name, pat in SERVE_ONLY.items() if any(re.search(pat, p) for p in paths))
    report(not held, "%s maps none of --serve's libraries (%s)" % (label, ", ".join(held) if held else "none held"))
    # libgcrypt comes with libproc2's libsystemd, for top as for gctop: held
    # only through it, never on its own (GnuTLS brought it too).
    gcrypt = any(re.search(r"/libgcrypt\.so", p) for p in paths)
    systemd = any(re.search(r"/libsystemd\.so", p) for p in paths)
    report(not gcrypt or systemd, "%s maps libgcrypt only as top does, through libsystemd (gcrypt %s, libsystemd %s)"
           % (label, gcrypt, systemd))
    report(any(re.search(r"/libproc2\.so", p) for p in paths),
           "%s's maps were read (it holds libproc2, which every run links)" % label)


def full_pipe():
    """A pipe whose write end is full (and blocking again)."""
    r, w = os.pipe()
    fl = fcntl.fcntl(w, fcntl.F_GETFL)
    fcntl.fcntl(w, fcntl.F_SETFL, fl | os.O_NONBLOCK)
    for size in (65536, 4096, 1):
        try:
            while True:
                os.write(w, b"x" * size)
        except BlockingIOError:
            pass
    fcntl.fcntl(w, fcntl.F_SETFL, fl)
    return r, w


def wchan(pid):
    try:
        with open("/proc/%d/wchan" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""


def blocked(label, cmd):
    r, w = full_pipe()
    p = subprocess.Popen(cmd, stdout=w, stderr=subprocess.DEVNULL)
    os.close(w)
    deadline = time.monotonic() + BLOCK_WAIT_S
    # the kernel's function is pipe_write, or anon_pipe_write (6.x)
    while not wchan(p.pid).endswith("pipe_write") and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if report(wchan(p.pid).endswith("pipe_write"), "%s reached its first write (%s)" % (
            label, "still running" if p.poll() is None else "exited with status %d first" % p.returncode)):
        check_lean(label, mapped(p.pid))
    p.terminate()
    os.close(r)
    p.wait()


def main():
    mode, label = sys.argv[1], sys.argv[2]
    if mode == "blocked":
        blocked(label, sys.argv[3:])
    elif mode == "pid":
        check_lean(label, mapped(int(sys.argv[3])))
    elif mode == "serving":
        paths = mapped(int(sys.argv[3]))
        for name in ("libmicrohttpd", "GnuTLS", "zlib"):
            report(any(re.search(SERVE_ONLY[name], p) for p in paths), "%s maps %s" % (label, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
