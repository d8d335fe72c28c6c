# Benchmark helpers (make bench only; nothing here is part of make all or
# make check): the crafted-segment publisher and the EventPipe parser replay.
BENCH_TOOLS := $(BUILD)/bench/segpub $(BUILD)/bench/nettrace_replay $(BUILD)/bench/hsperf_copy $(BUILD)/bench/rusage \
	$(BUILD)/bench/wakeloop $(BUILD)/bench/epsession

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LIBS)

bench: $(BENCH_TOOLS) $(AGENT)

# Built (not run) by make test-bins, so a change in the collectors that breaks
# them is seen in CI rather than at the next benchmark run.
EXTRA_TEST_TARGETS += $(BENCH_TOOLS)
