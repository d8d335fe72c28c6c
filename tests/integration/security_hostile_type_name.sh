#!/bin/sh
# sanitizer: yes
# A real .NET process of an unprivileged user allocates arrays of a type it
# made at run time (tests/dotnet/HostileNames: Reflection.Emit takes any
# name) named with a right-to-left override U+202E, a pop directional
# isolate U+2069 and the C1 CSI U+009B; root's gctop --allocators shows it
# as the top allocation type (issue 25 items 6 and 9). --json, -b and the
# recording of -w hold the name with each control as '?' and no control or
# bidi character anywhere, raw or as a JSON escape.
. tests/lib.sh
. tests/integration/hostile_text.shlib
require_dotnet
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }
exe=$(dotnet_program HostileNames) || { fail "cannot build tests/dotnet/HostileNames (log: $WORK/dotnet-build-HostileNames.log)"; exit 0; }
stage_for_others "${exe%/*}" || { fail "cannot stage HostileNames where nobody can read it"; exit 0; }
exe=$STAGED/HostileNames/HostileNames
AS=""
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
# shellcheck disable=SC2086
(cd /tmp && exec env -u TMPDIR HOME=/tmp $AS "$exe" 40) >"$WORK/truth" 2>&1 &
DPID=$!
CHILD_PIDS="$CHILD_PIDS $DPID"
wait_until 100 lines_at_least "$WORK/truth" 2 || { fail "HostileNames did not start: $(head -c 300 "$WORK/truth")"; exit 0; }
WANT='Evil?txt.exe??2J.Type[]'
# 10 and 8 intervals: the allocation sampler's session starts within the
# first few on a busy machine; the checks read the last interval's table.

LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" -p "$DPID" --allocators --json -d 1 -n 10 -w "$WORK/rec.ndjson" >"$WORK/g.json" 2>"$WORK/g.err"
rc=$?
check "gctop --allocators --json -w exits 0 ($(head -c 300 "$WORK/g.err"))" [ "$rc" -eq 0 ]
top_type() {
	python3 -c '
import json, sys
names = [t["type"] for l in open(sys.argv[1]) if l.strip()
         for t in ((json.loads(l).get("top_allocators") or {}).get("by_type") or [])[:1]]
sys.exit(0 if names and names[-1] == sys.argv[2] else "top types: %r" % names[-3:])
' "$@"
}
if why=$(top_type "$WORK/g.json" "$WANT" 2>&1); then pass "--json: the top type is $WANT"; else fail "--json: $why"; fi
for f in g.json rec.ndjson; do
	if why=$(text_clean "$WORK/$f" ndjson 2>&1); then pass "$f: no control or bidi character, raw or escaped"; else fail "$f: $why"; fi
done
check "-w: the type's name recorded cleaned" grep -qF "\"name\":\"$WANT\"" "$WORK/rec.ndjson"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$GCTOP_BIN" -p "$DPID" --allocators -b -d 1 -n 8 >"$WORK/b.txt" 2>"$WORK/b.err"
if why=$(text_clean "$WORK/b.txt" 2>&1); then pass "-b: no control or bidi character"; else fail "-b: $why"; fi
check "-b shows the type's name cleaned" grep -qF "$WANT" "$WORK/b.txt"
