#!/bin/sh
# promtool (Prometheus' own checker) accepts the /metrics writer's classic
# text output, crafted with every kind of family (the unit test leaves it
# behind). promtool reads the classic format only; the OpenMetrics output is
# checked by a real Prometheus scraping it (prometheus_exporter.sh).
. tests/lib.sh
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
