"""gctop --serve --web-config, judged from outside (tests/integration/
serve_web_config.sh):

  targets WORK: Prometheus' /api/v1/targets ($WORK/targets.json), each of
      the four jobs as the test expects: "good" (the CA, a client
      certificate, the password) up without error; "wrong_password" down
      with 401; "no_ca" down, the server's certificate not trusted;
      "no_client_cert" down with 403.
  flood PORT CA CERT KEY SECONDS: wrong passwords, each new, from 127.0.0.2
      over TLS with a good client certificate, from 8 threads for SECONDS;
      prints what they were answered (JSON), for the shell to keep.
  up WORK FROM TO: the good job's up samples stored between FROM and TO
      (Unix seconds; $WORK/up.json, the raw samples of a range-vector
      query at TO): every one is 1, and there are at least (TO - FROM) - 1
      of them (Prometheus scrapes once a second).

usage: serve_web_config.py targets|flood|up ARGS...
"""
import base64
import http.client
import json
import ssl
import sys
import threading
import time

TEST = "serve_web_config"


def report(ok, what):
    print(("PASS" if ok else "FAIL") + ": %s: %s" % (TEST, what), flush=True)


def targets(work):
    data = json.load(open(work + "/targets.json"))["data"]["activeTargets"]
    by_job = {t["labels"]["job"]: t for t in data}
    want = {
        "good": ("up", lambda e: e == ""),
        "wrong_password": ("down", lambda e: "401" in e),
        "no_ca": ("down", lambda e: "certificate" in e and ("unknown authority" in e or "verify" in e)),
        "no_client_cert": ("down", lambda e: "403" in e),
    }
    for job, (health, err_ok) in want.items():
        t = by_job.get(job)
        if t is None:
            report(False, "Prometheus has a target for job %s" % job)
            continue
        ok = t["health"] == health and err_ok(t["lastError"])
        report(ok, "job %s is %s (%s, lastError %r)" % (job, health, t["health"], t["lastError"][:200]))


def flood(port, ca, cert, key, seconds):
    ctx = ssl.create_default_context(cafile=ca)
    ctx.load_cert_chain(cert, key)
    answers = {}
    lock = threading.Lock()
    stop = time.time() + seconds

    def worker(k):
        i = 0
        while time.time() < stop:
            i += 1
            c = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=10,
                                            source_address=("127.0.0.2", 0))
            auth = base64.b64encode(("prometheus:wrong-%d-%d" % (k, i)).encode()).decode()
            try:
                c.request("GET", "/metrics", headers={"Authorization": "Basic " + auth})
                what = str(c.getresponse().status)
            except Exception as e:
                what = type(e).__name__
            finally:
                c.close()
            with lock:
                answers[what] = answers.get(what, 0) + 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps(answers), flush=True)


def up(work, start, end):
    res = json.load(open(work + "/up.json"))["data"]["result"]
    values = [float(v) for t, v in res[0]["values"] if start <= float(t) <= end] if res else []
    want = int(end - start) - 1
    report(len(values) >= want and all(v == 1 for v in values),
           "the good scraper was answered through the flood: %d of %d scrapes up (at least %d wanted)"
           % (sum(1 for v in values if v == 1), len(values), want))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "targets":
        targets(sys.argv[2])
    elif mode == "flood":
        flood(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], float(sys.argv[6]))
    elif mode == "up":
        up(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))
    sys.exit(0)
