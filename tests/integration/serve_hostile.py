#!/usr/bin/env python3
"""gctop --serve with hostile clients holding connections: starts gctop
--serve on 127.0.0.1 for one process, opens CONNS connections from the
loopback addresses given (any local user can bind 127.0.0.0/8), half of
them sending one header line every 4 s and never ending their request,
half sending nothing (--kinds mixed; --kinds slow: all send header lines),
each reopened 0.2 s after the server drops it; after
HOLD seconds scrapes /metrics from 127.0.0.1 and from the first hostile
address (a fresh connection each, as Prometheus makes after a drop), then
sends gctop the signal 0.1 s after a round of header lines (the clients
then stay quiet for 3.9 s: a server that waits for their traffic to notice
the signal shows it) and times its exit. Times are CLOCK_MONOTONIC
(time.monotonic). Loopback only: any other address is refused.

usage: serve_hostile.py GCTOP PID TERM|INT [--conns N] [--ips A,B,...]
                        [--kinds slow|mixed] [--hold S] [--scrapes N]
                        [--json FILE]
Prints one line per scrape and a last line
  summary ok=K of=N max_ms=X quit_ms=Y rc=R held=H reopened=D
(quit_ms "none" when gctop was still running 10 s after the signal)."""

import argparse
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

TRICKLE_S = 4.0       # one header line this often, as in the issue
REOPEN_S = 0.2        # a dropped connection comes back after this
SCRAPE_TIMEOUT_S = 2.0  # past 1 s a scrape has failed anyway
QUIT_LIMIT_S = 10.0


def loopback(ip):
    parts = ip.split(".")
    return len(parts) == 4 and parts[0] == "127" and all(p.isdigit() and int(p) < 256 for p in parts)


class Hostile(threading.Thread):
    """CONNS connections that never finish a request, kept open."""

    def __init__(self, port, ips, conns, mixed):
        super().__init__(daemon=True)
        self.port, self.ips, self.n = port, ips, conns
        # which connections send header lines (the others send nothing)
        self.slow = [not mixed or i % 2 == 0 for i in range(conns)]
        self.socks = [None] * conns
        self.reopen_at = [0.0] * conns
        self.reopened = 0
        self.stop = threading.Event()
        self.trickled = threading.Event()

    def open(self, i):
        s = socket.socket()
        try:
            s.bind((self.ips[i % len(self.ips)], 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", self.port))
            if self.slow[i]:
                s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        except OSError:
            s.close()
            self.reopen_at[i] = time.monotonic() + REOPEN_S
            return
        self.socks[i] = s

    def drop(self, i):
        self.socks[i].close()
        self.socks[i] = None
        self.reopen_at[i] = time.monotonic() + REOPEN_S
        self.reopened += 1

    def poll_closed(self):
        live = {s.fileno(): i for i, s in enumerate(self.socks) if s}
        if not live:
            time.sleep(0.05)
            return
        p = select.poll()
        for fd in live:
            p.register(fd, select.POLLIN)
        for fd, _ in p.poll(50):
            i = live[fd]
            try:
                data = self.socks[i].recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                self.drop(i)

    def trickle(self):
        for i, s in enumerate(self.socks):
            if s and self.slow[i]:
                try:
                    s.send(b"X-Slow: 1\r\n")
                except OSError:
                    self.drop(i)
        self.trickled.set()

    def run(self):
        next_line = time.monotonic() + TRICKLE_S
        while not self.stop.is_set():
            now = time.monotonic()
            for i in range(self.n):
                if self.socks[i] is None and now >= self.reopen_at[i]:
                    self.open(i)
            if now >= next_line:
                self.trickle()
                next_line += TRICKLE_S
            self.poll_closed()
        for s in self.socks:
            if s:
                s.close()


def start_gctop(binary, pid):
    def child():
        # a background job of a script starts with SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    g = subprocess.Popen([binary, "--serve", "127.0.0.1:0", "-p", str(pid), "-d", "1"],
                         stderr=subprocess.PIPE, preexec_fn=child)
    line = b""
    if select.select([g.stderr], [], [], 10)[0]:
        line = g.stderr.readline()
    m = re.search(rb"http://127\.0\.0\.1:(\d+)/metrics", line)
    return g, (int(m.group(1)) if m else None), line.decode("utf-8", "replace").strip()


def scrape(port, src, pid):
    """(milliseconds, ok, what): one GET /metrics on a new connection."""
    t0 = time.monotonic()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=SCRAPE_TIMEOUT_S, source_address=(src, 0))
    try:
        c.request("GET", "/metrics", headers={"Accept": "application/openmetrics-text;version=1.0.0"})
        r = c.getresponse()
        body = r.read()
        ok = r.status == 200 and ('gctop_target_info{pid="%s"' % pid).encode() in body
        what = "status %d, %d bytes" % (r.status, len(body))
    except (OSError, http.client.HTTPException) as e:
        ok, what = False, "%s: %s" % (type(e).__name__, e)
    finally:
        c.close()
    return (time.monotonic() - t0) * 1000, ok, what


def socket_fds(pid):
    n = 0
    try:
        for f in os.listdir("/proc/%d/fd" % pid):
            try:
                n += os.readlink("/proc/%d/fd/%s" % (pid, f)).startswith("socket:")
            except OSError:
                pass
    except OSError:
        pass
    return n


def cpu_ms(pid):
    """utime + stime of pid so far, in milliseconds."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def wait_served(port, pid, limit_s):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if scrape(port, "127.0.0.1", pid)[1]:
            return True
        time.sleep(0.1)
    return False


def quit_time(g, sig):
    t0 = time.monotonic()
    g.send_signal(sig)
    try:
        rc = g.wait(timeout=QUIT_LIMIT_S)
        return (time.monotonic() - t0) * 1000, rc
    except subprocess.TimeoutExpired:
        g.kill()
        return None, g.wait()


def run(a):
    g, port, said = start_gctop(a.gctop, a.pid)
    if port is None:
        g.kill()
        g.wait()
        print("summary error=gctop-did-not-start said=%r" % said)
        return {"error": "gctop --serve did not start: " + said}
    try:
        if not wait_served(port, a.pid, 15):
            print("summary error=target-not-served")
            return {"error": "the target was not served within 15 s"}
        base = socket_fds(g.pid)
        c0, t0 = cpu_ms(g.pid), time.monotonic()
        h = Hostile(port, a.ips, a.conns, a.kinds == "mixed")
        h.start()
        time.sleep(a.hold)
        held = socket_fds(g.pid) - base
        res = {"scrapes": [], "held": held}
        for i in range(a.scrapes):
            for src in ("127.0.0.1", a.ips[0]):
                ms, ok, what = scrape(port, src, a.pid)
                res["scrapes"].append({"from": src, "ms": ms, "ok": ok, "what": what})
                print("scrape from=%s ms=%.1f ok=%d %s" % (src, ms, ok, what))
            time.sleep(0.3)
        res["held_after"] = socket_fds(g.pid) - base
        c1 = cpu_ms(g.pid)
        res["cpu_ms_per_s"] = (c1 - c0) / (time.monotonic() - t0) if c0 is not None and c1 is not None else None
        h.trickled.clear()
        h.trickled.wait(TRICKLE_S + 1)
        time.sleep(0.1)
        res["quit_ms"], res["rc"] = quit_time(g, signal.SIGTERM if a.signal == "TERM" else signal.SIGINT)
        h.stop.set()
        h.join()
        res["reopened"] = h.reopened
    finally:
        if g.poll() is None:
            g.kill()
            g.wait()
    ok = [s for s in res["scrapes"] if s["ok"]]
    print("summary ok=%d of=%d max_ms=%.1f quit_ms=%s rc=%s held=%d reopened=%d" % (
        len(ok), len(res["scrapes"]), max(s["ms"] for s in res["scrapes"]),
        "none" if res["quit_ms"] is None else "%.1f" % res["quit_ms"], res["rc"], res["held"], res["reopened"]))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gctop")
    ap.add_argument("pid", type=int)
    ap.add_argument("signal", choices=["TERM", "INT"])
    ap.add_argument("--conns", type=int, default=100)
    ap.add_argument("--ips", default="127.0.0.10,127.0.0.11,127.0.0.12,127.0.0.13")
    ap.add_argument("--kinds", choices=["slow", "mixed"], default="mixed")
    ap.add_argument("--hold", type=float, default=5.0)
    ap.add_argument("--scrapes", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    a.ips = a.ips.split(",")
    if not all(loopback(ip) for ip in a.ips):
        sys.exit("serve_hostile.py: loopback addresses (127.x.y.z) only")
    # stopped from outside (the bench's cleanup): run's finally still ends gctop
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    res = run(a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f)


if __name__ == "__main__":
    main()
