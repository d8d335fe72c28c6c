#!/bin/sh
# test-lane: measuring
# Collections per generation on .NET mean one thing wherever gctop shows
# them: each GC once, by the oldest generation it collected (exclusive), as
# dotnet-counters' gen-N-gc-count and OpenTelemetry's dotnet.gc.collections
# count; JSON's collections_inclusive counts as GC.CollectionCount(n) does.
# tests/dotnet/GenMix collects a known mix of gen0, gen1 and gen2 between
# quiet stretches and prints GC.CollectionCount(0..2) after each; gctop -b,
# --json and --serve watch it at once. Over a window whose ends are quiet
# (so every collection's events have arrived), each generation's growth is
# held against the runtime's own: exclusive gen k = CollectionCount(k) -
# CollectionCount(k + 1) (gen2: CollectionCount(2)), inclusive =
# CollectionCount(k). Tolerance: none (whole collections, both ends quiet).
# Each output also says which meaning it shows.
. tests/lib.sh
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
command -v curl >/dev/null 2>&1 || missing_runtime "curl"
exe=$(dotnet_program GenMix) || { fail "cannot build tests/dotnet/GenMix (log: $WORK/dotnet-build-GenMix.log)"; exit 0; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
scrape() { curl -s --max-time 2 "http://127.0.0.1:$GPORT/metrics" >"$1" 2>/dev/null; }
serves_pid() { scrape "$WORK/probe.txt" && grep -q "^gctop_gc_collections_total{.*pid=\"$DPID\".*generation=\"gen0\"" "$WORK/probe.txt"; }
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

# quiet 4 s, collect for 3 s, quiet 7 s
"$exe" 4 3 7 >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 dotnet_socket_exists "$DPID"
wait_until 100 lines_at_least "$WORK/truth" 1

GPORT=$(free_port)
"$GCTOP_BIN" --serve "$GPORT" -p "$DPID" -d 1 2>"$WORK/serve.err" &
SERVE=$!
CHILD_PIDS="$CHILD_PIDS $SERVE"
"$GCTOP_BIN" -p "$DPID" --json -d 1 -n 10 >"$WORK/g.json" 2>"$WORK/g.err" &
GJ=$!
"$GCTOP_BIN" -p "$DPID" -b -d 1 -n 10 >"$WORK/g.txt" 2>"$WORK/b.err" &
GB=$!
CHILD_PIDS="$CHILD_PIDS $GJ $GB"

# /metrics once in the quiet before the collections, once in the quiet after
wait_until 50 serves_pid
if grep -q busy_start "$WORK/truth"; then
	fail "the serve had no sample before the collections began (loaded machine?): $(head -c 200 "$WORK/serve.err")"
	exit 0
fi
before_ms=$(now_ms)
scrape "$WORK/before.txt"
wait_until 150 grep -q busy_end "$WORK/truth"
sleep 3
after_ms=$(now_ms)
scrape "$WORK/after.txt"
wait "$GJ"
rj=$?
wait "$GB"
rb=$?
check "gctop --json exits 0 ($rj: $(head -c 200 "$WORK/g.err"))" [ "$rj" -eq 0 ]
check "gctop -b exits 0 ($rb: $(head -c 200 "$WORK/b.err"))" [ "$rb" -eq 0 ]
kill "$SERVE" 2>/dev/null
wait "$SERVE" 2>/dev/null

comparator "of the generations' counts" python3 - "$WORK/truth" "$WORK/g.json" "$WORK/g.txt" "$WORK/before.txt" "$WORK/after.txt" "$before_ms" "$after_ms" "$DPID" <<'PY'
import json, re, sys
from datetime import datetime
tfile, gfile, bfile, sa, sb, a_ms, b_ms, pid = sys.argv[1:9]
lines = [json.loads(l) for l in open(tfile) if l.strip().startswith("{")]
t = [x for x in lines if "gc0" in x]
phase = {x["phase"]: x["wall_ms"] for x in lines if "phase" in x}
def out(ok, what):
    print(("PASS" if ok else "FAIL") + ": dotnet_gen_counts: %s" % what, flush=True)
def truth_at(wall):
    r = [x for x in t if x["wall_ms"] <= wall]
    return r[-1] if r else None
def excl(r, k):
    return r["gc%d" % k] - (r["gc%d" % (k + 1)] if k < 2 else 0)
def window(name, w0, w1, ours, incl=None):
    """ours(k) at each end as (start, end) pairs; truth over [w0, w1]"""
    r0, r1 = truth_at(w0), truth_at(w1)
    if not r0 or not r1 or w0 >= phase.get("busy_start", 0) or w1 <= phase.get("busy_end", 1e18) + 1000:
        out(False, "%s: a window from the quiet before the collections to the quiet after (%s, %s, %s)" % (name, w0, w1, phase))
        return
    want = [excl(r1, k) - excl(r0, k) for k in range(3)]
    got = [b - a if isinstance(a, int) and isinstance(b, int) else None for a, b in ours]
    out(got == want and sum(want) > 0 and want[0] != r1["gc0"] - r0["gc0"],
        "%s: collections per generation %s vs the runtime's exclusive %s (GC.CollectionCount: %s)" % (
            name, got, want, [r1["gc%d" % k] - r0["gc%d" % k] for k in range(3)]))
    if incl:
        got = [b - a if isinstance(a, int) and isinstance(b, int) else None for a, b in incl]
        want = [r1["gc%d" % k] - r0["gc%d" % k] for k in range(3)]
        out(got == want, "%s: collections_inclusive %s vs GC.CollectionCount %s" % (name, got, want))

def ms(x):
    return datetime.fromisoformat(x["time"].replace("Z", "+00:00")).timestamp() * 1000
g = [json.loads(l) for l in open(gfile) if l.strip()]
if len(g) >= 2:
    a, b = g[0], g[-1]
    gens = lambda x, key: [x["generations"][k].get(key) for k in range(3)]
    window("--json", ms(a), ms(b), list(zip(gens(a, "collections"), gens(b, "collections"))),
           list(zip(gens(a, "collections_inclusive"), gens(b, "collections_inclusive"))))
    out(all(x.get("collections_counting") == "exclusive" for x in b["generations"]),
        "--json: collections_counting says exclusive (%s)" % [x.get("collections_counting") for x in b["generations"]])
else:
    out(False, "--json: %d outputs" % len(g))

blocks = [blk for blk in open(bfile).read().split("\n\n") if blk.startswith("gctop - ")]
def gc_line(blk):
    m = re.search(r"^GC: .*$", blk, re.M)
    return m.group(0) if m else ""
def b_counts(blk):
    c = dict(re.findall(r"\b(gen[0-2]) (\d+)", gc_line(blk)))
    return [int(c.get("gen%d" % k, -1)) for k in range(3)]
def b_wall(blk):
    m = re.match(r"gctop - (\S+)Z", blk)
    return datetime.fromisoformat(m.group(1) + "+00:00").timestamp() * 1000 + 999
if len(blocks) >= 2:
    a, b = blocks[0], blocks[-1]
    # -b's time has whole seconds: the first block is placed at its second's
    # start, the last at its end
    window("-b", b_wall(a) - 999, b_wall(b), list(zip(b_counts(a), b_counts(b))))
    out("[exclusive]" in gc_line(b), "-b says what it counts: %s" % gc_line(b))
else:
    out(False, "-b: %d blocks" % len(blocks))

def metric(path, name, label):
    v = [-1, -1, -1]
    for line in open(path):
        m = re.match(r"%s\{(.*)\} (\S+)" % name, line)
        if m and 'pid="%s"' % pid in m.group(1):
            k = re.search(r'%s="gen([0-2])"' % label, m.group(1))
            if k:
                v[int(k.group(1))] = int(float(m.group(2)))
    return v
for name, label in (("gctop_gc_collections_total", "generation"), ("dotnet_gc_collections_total", "dotnet_gc_heap_generation")):
    a, b = metric(sa, name, label), metric(sb, name, label)
    window("--serve " + name, int(a_ms), int(b_ms), list(zip(a, b)))
help_line = [l for l in open(sb) if l.startswith("# HELP gctop_gc_collections")]
out(help_line and "oldest generation collected" in help_line[0], "--serve's HELP says what gctop_gc_collections counts: %s" % help_line)
PY
for p in $CHILD_PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; rm -f /tmp/dotnet-diagnostic-"$p"-*-socket; done
