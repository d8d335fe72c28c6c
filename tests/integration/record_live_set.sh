#!/bin/sh
# sanitizer: yes
# The live set from a crafted recording (tests/integration/record_live_set.py:
# 300 MiB growing exactly 1 MiB/s, a point 1 s before each sample every
# 10 s, heap and old max 1 GiB): its replay refolds the points into the
# same figures as live, in --json (live_set, the live-set-growth finding)
# and -b; --compare puts the live set and its growth per run; a recording
# made before the live set was written reads as n/a with why.
. tests/lib.sh
[ -x "$GCTOP_BIN" ] || { fail "build/gctop is missing; run make"; exit 0; }
SYNTH=tests/integration/record_live_set.py
python3 "$SYNTH" "$WORK/leak.ndjson" 40 && python3 "$SYNTH" "$WORK/flat.ndjson" 40 --flat &&
	python3 "$SYNTH" "$WORK/old.ndjson" 40 --old || { fail "$SYNTH failed"; exit 0; }

"$GCTOP_BIN" -r "$WORK/leak.ndjson" --json >"$WORK/leak.json" 2>"$WORK/leak.err"
rc=$?
check "gctop -r --json exits 0 ($(head -c 200 "$WORK/leak.err"))" [ "$rc" -eq 0 ]
# The last sample, at 1390 s: 40 points, the newest 689 MiB at 1389 s; the
# line is at 690 MiB now, 334 MiB under the old generation's max of 1 GiB
# at 1 MiB/s: 334 s. The points are exact, so the tolerances are rounding.
python3 - "$WORK/leak.json" >"$WORK/leak.check" 2>&1 <<'PY'
import json, sys
MIB = 1 << 20
last = [json.loads(l) for l in open(sys.argv[1])][-1]
ls, bad = last["live_set"], []
def want(what, ok):
    if not ok:
        bad.append(what)
want("bytes %s == 689 MiB" % ls["bytes"], ls["bytes"] == 689 * MIB)
want("points %s == 40" % ls["points"], ls["points"] == 40)
want("growth_bps %s == 1 MiB/s" % ls["growth_bps"], abs(ls["growth_bps"] - MIB) < 1)
want("interval [%s, %s] around it" % (ls["growth_low_bps"], ls["growth_high_bps"]),
     ls["growth_low_bps"] <= ls["growth_bps"] <= ls["growth_high_bps"] and ls["confidence"] == 0.9)
want("exhaustion_s %s == 334" % ls["exhaustion_s"], abs(ls["exhaustion_s"] - 334) < 1e-6)
want("limit %s heap-max of 1 GiB" % ls["limit"], ls["limit"] == "heap-max" and ls["limit_bytes"] == 1024 * MIB)
want("why %s null" % ls["why"], ls["why"] is None)
want("old %s" % ls["old"], ls["old"]["used_bytes"] == 709 * MIB and ls["old"]["committed_bytes"] == 800 * MIB
     and abs(ls["old"]["used_share"] - 709 / 800) < 1e-9)
f = [x for x in last["findings"] if x["id"] == "live-set-growth"]
want("finding %s critical" % f, len(f) == 1 and f[0]["severity"] == "critical"
     and f[0]["evidence"]["points"] == 40 and abs(f[0]["evidence"]["exhaustion_s"] - 334) < 1e-6)
print("; ".join(bad) if bad else "ok")
PY
check "the replay's live_set and finding are the recording's ($(head -c 400 "$WORK/leak.check"))" \
	[ "$(cat "$WORK/leak.check")" = ok ]

"$GCTOP_BIN" -r "$WORK/leak.ndjson" -b >"$WORK/leak.txt" 2>&1
check "-b prints the live set, its growth per minute and the time to the heap's max" \
	grep -q '^Live:    689 MiB after full GC, 40 points over 6.5 min   growth +60.0 MiB/min (90%: 60.0..60.0)   exhaustion in 5.6 min to heap max (1.00 GiB)$' "$WORK/leak.txt"
check "-b prints old's occupancy as jstat" grep -q "^Old:     used 709 MiB / committed 800 MiB / max 1.00 GiB, 88.6% of committed used (jstat's O)\$" "$WORK/leak.txt"
check "-b says why while the points are too few" \
	grep -q '^Live:    309 MiB after full GC, 2 points over 10 s   growth n/a (too few points' "$WORK/leak.txt"

"$GCTOP_BIN" -r "$WORK/flat.ndjson" --json >"$WORK/flat.json" 2>&1
check "a flat live set: growth 0, no exhaustion, why, no finding" python3 -c '
import json, sys
last = [json.loads(l) for l in open(sys.argv[1])][-1]
ls = last["live_set"]
sys.exit(not (ls["growth_bps"] == 0 and ls["exhaustion_s"] is None and ls["why"] == "the live set is not growing"
              and not [f for f in last["findings"] if f["id"] == "live-set-growth"]))' "$WORK/flat.json"

"$GCTOP_BIN" -r "$WORK/old.ndjson" --json -n 1 >"$WORK/old.json" 2>&1
check "a recording without the live set reads as n/a with why" python3 -c '
import json, sys
ls = json.loads(open(sys.argv[1]).readline())["live_set"]
sys.exit(not (ls["bytes"] is None and ls["growth_bps"] is None and ls["old"]["used_bytes"] is None
              and ls["why"] == "the recording holds no live-set points"))' "$WORK/old.json"

"$GCTOP_BIN" --compare "$WORK/leak.ndjson" "$WORK/flat.ndjson" >"$WORK/compare.txt" 2>&1
check "--compare: the live set at each run's end" grep -Eq '^live set, at the end +689 MiB +300 MiB' "$WORK/compare.txt"
check "--compare: its growth per run" grep -Eq '^live set growth, at the end +1.00 MiB/s +0 B/s' "$WORK/compare.txt"
"$GCTOP_BIN" --compare "$WORK/leak.ndjson" "$WORK/flat.ndjson" --json >"$WORK/compare.json" 2>&1
check "--compare --json: live_set.bytes and growth_bps per run" python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
sys.exit(not (runs[0]["live_set"]["growth_bps"] == 1 << 20 and runs[1]["live_set"]["growth_bps"] == 0
              and runs[0]["live_set"]["bytes"] == 689 << 20))' "$WORK/compare.json"
