#!/usr/bin/env python3
"""Runs gctop against fake .NET processes in metaflood mode (see
security_fake_dotnet.py) and measures its peak memory around the flood.
Not a test itself (run.sh runs only *.sh).

usage: security_meta_flood_run.py FAKE_DIR TARGETS TIMEOUT_S gctop-args...
gctop runs under bench/rusage (RUSAGE names it): a process keeps the peak
RSS of the image it was exec'd from, so gctop started straight from python
would carry python's. Waits until TARGETS fakes log "tracing", reads gctop's VmHWM (base), creates
FAKE_DIR/go, and waits until gctop exits (peak: its ru_maxrss as rusage
saw it, the same high-water mark) or all TARGETS fakes log "flood done" and gctop is still
up a second later (peak: its VmHWM then; gctop is then sent SIGTERM). Prints "base KB", "peak KB",
"status N" ("status running" when the flood ended with gctop still up),
one a line.
"""
import os
import signal
import subprocess
import sys
import time


def count(log, what):
    try:
        with open(log) as f:
            return sum(1 for line in f if line.startswith(what))
    except FileNotFoundError:
        return 0


def hwm_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def wait_exit(proc, deadline, out):
    """(status, gctop's maxrss KB) once proc (rusage) exits before
    deadline, else None."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            with open(out) as f:
                return proc.returncode, int(f.read().split()[2])
        time.sleep(0.05)
    return None


def only_child(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return int(f.read().split()[0])


def main():
    fake_dir, targets, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    log = os.path.join(fake_dir, "ready.log")
    out = os.environ["ERR"] + ".rusage"
    proc = subprocess.Popen([os.environ["RUSAGE"], out] + sys.argv[4:], stdout=subprocess.DEVNULL, stderr=open(os.environ["ERR"], "w"))
    deadline = time.monotonic() + timeout
    while count(log, "tracing") < targets and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    if proc.poll() is not None or count(log, "tracing") < targets:
        print("base -1\npeak -1\nstatus %s" % proc.poll())
        proc.kill()
        return
    gctop = only_child(proc.pid)
    print("base %d" % hwm_kb(gctop))
    open(os.path.join(fake_dir, "go"), "w").close()
    ended = None
    while not ended and time.monotonic() < deadline and count(log, "flood done") < targets:
        ended = wait_exit(proc, time.monotonic() + 0.2, out)
    # A session that ends hangs up, which ends the flood: give gctop a
    # second to exit before taking it for running.
    ended = ended or wait_exit(proc, time.monotonic() + 1, out)
    if ended:
        print("peak %d\nstatus %d" % (ended[1], ended[0]))
        return
    print("peak %d\nstatus %s" % (hwm_kb(gctop), "running" if time.monotonic() < deadline else "timeout"))
    proc.send_signal(signal.SIGTERM)
    if not wait_exit(proc, time.monotonic() + 5, out):
        os.kill(gctop, signal.SIGKILL)
        proc.wait()

if __name__ == "__main__":
    main()
