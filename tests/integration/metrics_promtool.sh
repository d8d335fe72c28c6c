#!/bin/sh
# sanitizer: yes
# promtool (Prometheus' own checker) accepts the /metrics writer's classic
# text output, crafted with every kind of family (the unit test leaves it
# behind). `promtool check metrics` reads the classic format only; the
# OpenMetrics output is checked by a real Prometheus scraping it
# (prometheus_exporter.sh) and here by Prometheus' own OpenMetrics parser
# (om_ok, tests/integration/hostile_text.shlib).
# Then hostile target strings, in both formats: the metrics_writer fuzz
# corpus (a main class of 101 double quotes and 60 euro signs as a JVM's
# and as a .NET process's, bidi controls, escapes, C1 controls, invalid
# UTF-8, names cut by their fields' sizes) through the writer, beside a
# well-named process; promtool accepts every output (issue 25: one such
# name made it refuse every target's /metrics).
. tests/lib.sh
. tests/integration/hostile_text.shlib
command -v promtool >/dev/null 2>&1 || missing_runtime "promtool (Debian package prometheus)"
bin="$GCTOP_BUILD/tests/test_metrics_writer"
[ -x "$bin" ] || { fail "$bin is not built (make test-bins)"; exit 0; }
GCTOP_METRICS_EXAMPLE_DIR=$WORK "$bin" >"$WORK/unit.log" 2>&1
both_written() { [ -s "$WORK/text.txt" ] && [ -s "$WORK/openmetrics.txt" ]; }
check "the unit test wrote both formats" both_written
promtool check metrics <"$WORK/text.txt" >"$WORK/promtool.log" 2>&1
rc=$?
clean() { [ "$rc" -eq 0 ] && [ ! -s "$WORK/promtool.log" ]; }
check "promtool check metrics passes, no lint problem ($(tr '\n' ' ' <"$WORK/promtool.log"))" clean
check "the crafted output has histograms, counters and an info series" \
	grep -q '^gctop_gc_pause_seconds_bucket{.*le="+Inf"}' "$WORK/text.txt"

if om_ok "$WORK/openmetrics.txt"; then
	pass "promtool's OpenMetrics parser takes the crafted output"
else
	fail "promtool's OpenMetrics parser refuses the crafted output: $(tail -1 "$WORK/om.log")"
fi

replay="$GCTOP_BUILD/tests/replay_fuzz_metrics_writer"
[ -x "$replay" ] || { fail "$replay is not built (make test-bins)"; exit 0; }
# One case at a time, so that a case the writer's own checks refuse still
# leaves its output for promtool and the cases after it still run.
bad_replay="" bad_text="" bad_om="" cases=0
for c in tests/fuzz/corpus/metrics_writer/*; do
	n=${c##*/} cases=$((cases + 1))
	mkdir -p "$WORK/in/$n" "$WORK/out/$n"
	cp "$c" "$WORK/in/$n/"
	GCTOP_FUZZ_METRICS_OUT=$WORK/out/$n "$replay" "$WORK/in/$n" >"$WORK/replay.log" 2>&1 || bad_replay="$bad_replay $n"
	if [ ! -s "$WORK/out/$n/0.txt" ] || [ ! -s "$WORK/out/$n/0.om" ]; then
		bad_text="$bad_text $n: not written"
		continue
	fi
	promtool check metrics <"$WORK/out/$n/0.txt" >"$WORK/promtool.log" 2>&1 ||
		bad_text="$bad_text $n: $(head -c 200 "$WORK/promtool.log")"
	om_ok "$WORK/out/$n/0.om" || bad_om="$bad_om $n: $(tail -1 "$WORK/om.log" | head -c 200)"
done
check "the writer's own checks (UTF-8, no control, syntax) pass every hostile case${bad_replay:+, not:$bad_replay}" [ -z "$bad_replay" ]
check "promtool check metrics accepts every hostile classic text (of $cases)${bad_text:+:$bad_text}" [ -z "$bad_text" ]
check "promtool's OpenMetrics parser accepts every hostile OpenMetrics text (of $cases)${bad_om:+:$bad_om}" [ -z "$bad_om" ]
