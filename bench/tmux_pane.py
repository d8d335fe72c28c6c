"""A program on a terminal of its own: a detached tmux window on the run's
private socket (harness.TMUX_SOCK), for the sections that time a full
screen's first frame and count its bytes."""
import os
import re
import subprocess
import time

from harness import RUN, TMUX_SOCK


def tmux(*args, check=True):
    r = subprocess.run(["tmux", "-L", TMUX_SOCK, "-f", "/dev/null"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


class Pane:
    """A program in a detached tmux window of 160x48, held at a fifo until
    go(), its output copied by pipe-pane to a file."""
    n = 0

    def __init__(self, argv):
        Pane.n += 1
        self.name = "b%d" % Pane.n
        self.fifo = os.path.join(RUN.tmpdir, self.name + ".fifo")
        self.out = os.path.join(RUN.tmpdir, self.name + ".out")
        os.mkfifo(self.fifo)
        open(self.out, "w").close()
        cmd = "read _ < %s; exec %s" % (self.fifo, " ".join(shq(a) for a in argv))
        tmux("new-session", "-d", "-s", self.name, "-x", "160", "-y", "48", "sh", "-c", cmd)
        tmux("pipe-pane", "-t", self.name, "-o", "cat >> %s" % shq(self.out))
        self.pid = int(tmux("display-message", "-p", "-t", self.name, "#{pane_pid}").strip())

    def go(self):
        """Releases the program; returns (first_byte_s, first_frame_s)."""
        fd = os.open(self.fifo, os.O_WRONLY)
        t0 = time.monotonic()
        os.write(fd, b"go\n")
        os.close(fd)
        first_byte = first_frame = None
        deadline = t0 + 10
        while time.monotonic() < deadline and first_byte is None:
            if os.path.getsize(self.out) > 0:
                first_byte = time.monotonic() - t0
            else:
                time.sleep(0.0003)
        while time.monotonic() < deadline and first_frame is None:
            if tmux("capture-pane", "-p", "-t", self.name, check=False).strip():
                first_frame = time.monotonic() - t0
        return first_byte, first_frame

    def bytes(self):
        return os.path.getsize(self.out)

    def close(self):
        tmux("kill-session", "-t", self.name, check=False)
        for _ in range(100):
            if not os.path.exists("/proc/%d" % self.pid):
                break
            time.sleep(0.02)


def shq(s):
    s = str(s)
    if re.fullmatch(r"[A-Za-z0-9_./=:,+-]+", s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"
