#!/usr/bin/env python3
"""Connect storm and scrapers for tests/integration/security_serve_storm.sh.

usage: serve_storm.py storm PORT SECONDS ADDRESSES RATE
           connects to 127.0.0.1:PORT from 127.0.0.2 .. 127.0.0.(ADDRESSES+1),
           in turn, at most RATE connections a second for SECONDS (both
           bounds hold: at most RATE * SECONDS connections), and never sends
           a byte on them; the newest 512 stay open, older ones are closed.
           Prints "storm N connections in S s" at the end. Loopback only.
       serve_storm.py scrape PORT NAME SOURCE SCRAPERS COUNT PID
           SCRAPERS threads, each from SOURCE (127.0.0.x), scrape /metrics
           one after the other (a new connection each, overlapping the
           others), COUNT scrapes in all, each with a 10 s timeout (a
           Prometheus default); one is answered when it gets 200 with
           PID's gctop_target_info. Prints the PASS/FAIL line of NAME: at
           least 99% answered.
Not a test itself.
"""
import http.client
import socket
import sys
import threading
import time

HOLD = 512


def storm(port, seconds, addresses, rate):
    held, n = [], 0
    start = time.monotonic()
    end = start + seconds
    while time.monotonic() < end and n < rate * seconds:
        # pace: n connections by now at most
        ahead = n / rate - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind(("127.0.0.%d" % (2 + n % addresses), 0))
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        held.append(s)
        n += 1
        if len(held) > HOLD:
            held.pop(0).close()
    for s in held:
        s.close()
    print("storm %d connections in %.1f s" % (n, time.monotonic() - start), flush=True)


class Source(http.client.HTTPConnection):
    def __init__(self, port, source):
        super().__init__("127.0.0.1", port, timeout=10, source_address=(source, 0))


def scrape_once(port, source, pid):
    c = Source(port, source)
    try:
        c.request("GET", "/metrics")
        r = c.getresponse()
        body = r.read().decode("utf-8", "replace")
        return r.status == 200 and ('gctop_target_info{pid="%s"' % pid) in body, "status %d" % r.status
    except (OSError, http.client.HTTPException) as e:
        return False, type(e).__name__ + ": " + str(e)
    finally:
        c.close()


def scrapers(port, name, source, threads, count, pid):
    lock = threading.Lock()
    done = {"n": 0, "ok": 0, "why": {}}

    def run():
        while True:
            with lock:
                if done["n"] >= count:
                    return
                done["n"] += 1
            ok, why = scrape_once(port, source, pid)
            with lock:
                done["ok"] += ok
                if not ok:
                    done["why"][why] = done["why"].get(why, 0) + 1
            time.sleep(0.05)

    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    ok = done["ok"] >= 0.99 * count
    print("%s: security_serve_storm: %s: %d of %d scrapes answered (at least 99%%)%s" % (
        "PASS" if ok else "FAIL", name, done["ok"], count,
        "; failures: %s" % done["why"] if done["why"] else ""), flush=True)


def main():
    if sys.argv[1] == "storm":
        storm(int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        scrapers(int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7])


main()
