# Benchmark helpers (make bench only; nothing here is part of make all or
# make check): the crafted-segment publisher, the EventPipe parser replay,
# the fleet bench's fake JVM and the rest.
BENCH_TOOLS := $(BUILD)/bench/segpub $(BUILD)/bench/nettrace_replay $(BUILD)/bench/hsperf_copy $(BUILD)/bench/rusage \
	$(BUILD)/bench/wakeloop $(BUILD)/bench/epsession $(BUILD)/bench/fakejvm/java

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(LIBS)

# The fleet-scale bench's fake JVM: named java, as gctop's finder expects of
# a launcher; it needs nothing of gctop's library.
$(BUILD)/bench/fakejvm/java: bench/fakejvm.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

bench: $(BENCH_TOOLS) $(AGENT)

# Built (not run) by make test-bins, so a change in the collectors that breaks
# them is seen in CI rather than at the next benchmark run.
EXTRA_TEST_TARGETS += $(BENCH_TOOLS)
