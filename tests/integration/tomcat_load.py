"""Load for tests/integration/tomcat_requests.sh: THREADS keep-alive
connections to 127.0.0.1:PORT each GET PATH (/work unless given) RATE times a second (or as
fast as Tomcat answers, when slower), for SECONDS at most and MAX requests
in all (bounded in count and time), while
one more polls /alloc every 100 ms and writes its answers ("WALL_MS BYTES",
the JVM's own allocation total) to ALLOC_LOG. Prints the requests sent."""
import http.client
import sys
import threading
import time

port, seconds, threads, rate, max_requests, alloc_log = (int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]),
                                                         float(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
path = sys.argv[7] if len(sys.argv) > 7 else "/work"
start = time.monotonic()
end = start + seconds
lock = threading.Lock()
sent = [0]
errors = []


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    if r.status != 200:
        raise RuntimeError("%s: HTTP %d" % (path, r.status))
    return body


def worker():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        k = 0
        while time.monotonic() < end:
            # paced: request k is due at start + k / rate
            due = start + k / rate - time.monotonic()
            if due > 0:
                time.sleep(due)
            k += 1
            with lock:
                if sent[0] >= max_requests:
                    return
                sent[0] += 1
            get(conn, path)
    except Exception as e:  # noqa: BLE001 - reported, the test fails on it
        errors.append(repr(e))
    finally:
        conn.close()


def poller(out):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        while time.monotonic() < end + 0.5:
            out.write(get(conn, "/alloc").decode())
            out.flush()
            time.sleep(0.1)
    except Exception as e:  # noqa: BLE001
        errors.append(repr(e))
    finally:
        conn.close()


with open(alloc_log, "w") as out:
    ts = [threading.Thread(target=worker) for _ in range(threads)] + [threading.Thread(target=poller, args=(out,))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
print(sent[0])
if errors:
    print("errors: " + "; ".join(errors[:3]), file=sys.stderr)
    sys.exit(1)
