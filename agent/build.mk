# The in-process JVMTI agent, a shared library loaded into the target JVM.
# Built without sanitizers whatever SAN says: it runs inside java, which
# does not load the ASan runtime first.
JNI_HOME := $(shell j=$$(command -v javac 2>/dev/null) && dirname "$$(dirname "$$(readlink -f "$$j")")")
AGENT := $(BUILD)/libgctop-agent.so
AGENT_SRC := $(wildcard agent/*.c) base/jvm_type_name.c segment/publish.c segment/publish_ops.c segment/sample_weight.c
AGENT_OBJ := $(AGENT_SRC:%.c=$(BUILD)/agent-obj/%.o)
AGENT_CFLAGS := -std=c11 -D_GNU_SOURCE -I. $(WARN) -O2 -g -fPIC -fvisibility=hidden \
	-isystem $(JNI_HOME)/include -isystem $(JNI_HOME)/include/linux -MMD -MP

$(BUILD)/agent-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(AGENT_CFLAGS) -c $< -o $@

$(AGENT): $(AGENT_OBJ)
	$(CC) -shared -Wl,-z,defs -o $@ $^ -lm -lpthread

all: $(AGENT)
EXTRA_TEST_TARGETS += $(AGENT)
INSTALL_EXTRA += install -d $(DESTDIR)$(PREFIX)/lib/gctop && install -m 0644 $(AGENT) $(DESTDIR)$(PREFIX)/lib/gctop/libgctop-agent.so;
