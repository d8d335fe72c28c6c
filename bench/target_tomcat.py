"""2f, 2e on Tomcat under load (target-tomcat): Debian's tomcat10 on JDK 17
serving the tests' servlet (tests/java/tomcat: /work allocates 256 KiB a
request), driven by wrk as fast as it answers; its requests per second
alone, with gctop's JFR recording, with JFR's profile settings and with
gctop's agent, in blocks of one Tomcat per round (block_ratios), and the
watcher's CPU, RSS and the JFR repository's size as in 2e."""
import os
import re
import socket
import subprocess
import time
import urllib.request

from block_ratios import blocks_summary
from harness import ROOT, RUN, log, spawn, kill, proc_cpu_ns, loadavg
from target_cost import target_table
from target_lab import JFR_GCTOP, JFR_PROFILE, AGENT, WatchReadings, lab_watch, repository_path, lab_costs_table

TOMCAT_HOME = "/usr/share/tomcat10"
JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64"
# wrk's load: one thread, 4 connections kept alive, each sending its next
# request when the last is answered (closed loop: Tomcat's pace).
WRK = ["wrk", "-t1", "-c4"]
# No access log: a line written per request would measure the disk.
SERVER_XML = """<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="%d" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false"/>
    </Engine>
  </Service>
</Server>
"""


def tomcat_base():
    """A CATALINA_BASE under the run's scratch directory with the tests'
    servlet compiled into ROOT; returns (base, port)."""
    base = os.path.join(RUN.tmpdir, "tomcat")
    app = os.path.join(base, "webapps", "ROOT", "WEB-INF")
    for d in ("conf", "logs", "temp", "work"):
        os.makedirs(os.path.join(base, d), exist_ok=True)
    os.makedirs(os.path.join(app, "classes"), exist_ok=True)
    for f in ("web.xml", "catalina.properties", "logging.properties"):
        subprocess.run(["cp", os.path.join("/etc/tomcat10", f), os.path.join(base, "conf", f)], check=True)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with open(os.path.join(base, "conf", "server.xml"), "w") as f:
        f.write(SERVER_XML % port)
    src = os.path.join(ROOT, "tests", "java", "tomcat")
    subprocess.run(["cp", os.path.join(src, "web.xml"), app], check=True)
    subprocess.run([os.path.join(JDK17, "bin", "javac"), "-cp", os.path.join(TOMCAT_HOME, "lib", "servlet-api.jar"),
                    "-d", os.path.join(app, "classes"), os.path.join(src, "GctopLoadServlet.java")], check=True)
    return base, port


def start_tomcat(base, port):
    env = dict(os.environ, JAVA_HOME=JDK17, CATALINA_HOME=TOMCAT_HOME, CATALINA_BASE=base,
               CATALINA_TMPDIR=os.path.join(base, "temp"), CATALINA_OPTS="-Xms256m -Xmx256m -XX:+UseG1GC")
    # catalina.sh run execs the JVM: the child is Tomcat's JVM.
    t = spawn([os.path.join(TOMCAT_HOME, "bin", "catalina.sh"), "run"], env=env,
              stdout=open(os.path.join(base, "logs", "run.out"), "w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/work" % port, timeout=2).read()
            return t
        except OSError:
            time.sleep(0.2)
    kill(t)
    return None


def wrk_start(url, secs):
    return subprocess.Popen(WRK + ["-d%ds" % secs, url], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def wrk_rate(p):
    m = re.search(r"Requests/sec:\s+([\d.]+)", p.communicate()[0])
    return float(m.group(1)) if m else None


def tomcat_block(t, url, secs, readings=None):
    """secs of wrk's load: ([its requests/s], Tomcat's CPU share), reading
    WatchReadings once a second meanwhile."""
    c0, t0 = proc_cpu_ns(t.pid), time.monotonic()
    p = wrk_start(url, secs)
    while p.poll() is None:
        time.sleep(1)
        if readings:
            readings.tick()
    rate = wrk_rate(p)
    return [rate], (proc_cpu_ns(t.pid) - c0) / 1e9 / (time.monotonic() - t0)


def tomcat_round(java, configs, warm, secs, base, port, jfr_path):
    url = "http://127.0.0.1:%d/work" % port
    t = start_tomcat(base, port)
    if t is None:
        return None
    tomcat_block(t, url, warm)
    blocks = [("alone",) + tomcat_block(t, url, secs) + ({},)]
    for c in configs:
        w, stop = lab_watch(java, t.pid, c, jfr_path)
        tomcat_block(t, url, 3)
        repository = repository_path(java, t.pid) if c != AGENT else None
        tomcat_block(t, url, 2)
        readings = WatchReadings(w, repository)
        v, share = tomcat_block(t, url, secs, readings)
        info = readings.info()
        stop()
        blocks.append((c, v, share, info))
        tomcat_block(t, url, 7 if c == AGENT else 3)
        blocks.append(("alone",) + tomcat_block(t, url, secs) + ({},))
    kill(t)
    return blocks


def target_tomcat(avail, res):
    missing = [what for what, ok in (("tomcat10", os.path.exists(os.path.join(TOMCAT_HOME, "bin", "catalina.sh"))),
                                     ("JDK 17", os.path.exists(os.path.join(JDK17, "bin", "java"))),
                                     ("wrk", subprocess.run(["sh", "-c", "command -v wrk"],
                                                            stdout=subprocess.DEVNULL).returncode == 0)) if not ok]
    if missing:
        print("\n2f. Tomcat under load: skipped (%s not installed)" % ", ".join(missing))
        res["target_tomcat"] = {"skipped": missing}
        return
    rounds = RUN.rounds or (1 if RUN.quick else 3)
    warm, secs = (8, 4) if RUN.quick else (15, 8)
    java = os.path.join(JDK17, "bin", "java")
    base, port = tomcat_base()
    jfr = os.path.join(RUN.tmpdir, "jfr-tomcat")
    os.makedirs(jfr, exist_ok=True)
    gctops = [JFR_GCTOP, AGENT]
    load, raw = [loadavg()[0]], []
    for r in range(rounds):
        order = gctops[r % 2:] + gctops[:r % 2] + [JFR_PROFILE]
        log("target tomcat: round %d/%d, %s" % (r + 1, rounds, ", ".join(order)))
        blocks = tomcat_round(java, order, warm, secs, base, port, jfr)
        if blocks is None:
            print("\n2f. Tomcat under load: Tomcat did not answer (see %s)" % os.path.join(base, "logs"))
            res["target_tomcat"] = {"failed": "Tomcat did not answer"}
            return
        raw.append(blocks)
    load.append(loadavg()[0])
    out = blocks_summary(raw, gctops + [JFR_PROFILE])
    res["target_tomcat"] = {"configs": out, "raw": raw, "load_1min": load}
    target_table("2f. Tomcat requests/s under wrk (%s, 4 connections), JDK 17 (%d rounds, one Tomcat each: %d s blocks, "
                 "each config between two alone blocks; load %.1f-%.1f)"
                 % (" ".join(WRK), rounds, secs, load[0], load[1]), out)
    lab_costs_table("2f'. Tomcat, JDK 17", out, raw)
