#!/bin/sh
# test-lane: timed
# sanitizer: yes
# (Its bounds, a second or less of wall time measured from outside gctop,
# have no clock of gctop's own to come from: in the timed lane no other
# test's workload shares the two cores with them.)
# A .NET runtime that resets gctop's EventPipe stream while gctop waits for
# its first figures (dotnet_settle, until the counter interval and 0.7 s
# after the session began): the first sample is not held to that deadline,
# it reports the stream's end as soon as the reset comes, with status 6 and
# its sentence. The fake answers CollectTracing, starts the stream, and
# RESET_AFTER_S later (the first sample is due at 1 s, and the settle waits
# from then) closes the connection with bytes unread, which resets it: the
# reader gets ECONNRESET once, then the end of the stream, which ends the
# settle (measured with strace: one more poll and read after the reset).
. tests/lib.sh
. tests/integration/security_fake_dotnet.shlib
[ -x "$GCTOP_BIN" ] || { fail "$GCTOP_BIN is missing; run make"; exit 0; }

RESET_AFTER_S=1.05
export RESET_AFTER_S
# The settle's deadline comes 1.7 s after the session began, 650 ms after the
# reset; the output must come well before it: the reset wakes the settle at
# once (a few ms), and the bound sits between the two, leaving a loaded
# machine's scheduling and an ASan build's exit 450 ms, and a settle held to
# its deadline 200 ms past it.
BOUND_MS=450

start_fake reset 0 || exit 0
"$PY" - "$GCTOP_BIN" "$FAKE" "$FAKE_DIR/ready.log" >"$WORK/timing" 2>"$WORK/gctop.err" <<'PY'
import subprocess, sys, time
gctop, pid, log = sys.argv[1:4]
p = subprocess.run([gctop, "-b", "-n", "1", "-p", pid], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                   timeout=30)
end = time.monotonic()
sys.stderr.write(p.stderr.decode(errors="replace"))
reset = [float(l.split()[1]) for l in open(log) if l.startswith("reset ")]
print(p.returncode, int((end - reset[0]) * 1000) if reset else -1)
PY
read -r rc late <"$WORK/timing"
check "gctop -b -n 1 ends with status 6 when the stream is reset (status $rc)" [ "$rc" = 6 ]
check "and says the session ended ($(head -c 200 "$WORK/gctop.err"))" \
	grep -q "ended gctop's EventPipe session" "$WORK/gctop.err"
check "its output came ${late} ms after the reset, within ${BOUND_MS} ms (the settle's deadline: 650 ms after it)" \
	sh -c "[ '$late' -ge 0 ] && [ '$late' -le $BOUND_MS ]"
