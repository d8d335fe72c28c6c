# gctop: top for the garbage collector.
#
#   make              build build/gctop
#   make check        install what is missing, build, run every test (prints
#                     "N passed, N failed")
#   make check-asan   under AddressSanitizer and UndefinedBehaviorSanitizer, the tests
#                     only they add to (tests/run.sh, GCTOP_SUITE=sanitizer)
#   make demo         install what is missing, build, start a demo workload, watch it
#   make fuzz         build the libFuzzer targets (clang) and run each briefly
#   make install      PREFIX=/usr/local DESTDIR=
#
# Sources are found by folder, so a new file needs no Makefile edit. A folder
# that needs rules of its own (the in-process agent) keeps them in build.mk.
# The folders are layers, lowest first, listed once in LAYERS (README, "How it
# is built", draws them); includes name a header by its path from the top of
# the tree, and tests/static/layers.sh fails when a file includes from a
# layer above its own.

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config
# What every run links.
PKGS := ncursesw libproc2 libcgroup json-c
# What --serve alone uses: libmicrohttpd serves /metrics; yaml-0.1 (libyaml)
# parses --web-config, the exporter-toolkit's YAML file; gnutls checks its
# certificates and the clients' (libmicrohttpd does the TLS through it) and
# keys the password cache; libcrypt (libxcrypt) checks its bcrypt hashes;
# zlib gzips /metrics for a scraper that asks. Compiled against (their
# headers type frontends/serve_libs.h's table) but not linked: --serve
# loads them when it starts, so that a run that does not serve maps none of
# them (serve_libs.h says why). Their -dev packages are needed to build.
SERVE_PKGS := libmicrohttpd yaml-0.1 gnutls libcrypt zlib

ifeq ($(SAN),1)
BUILD ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT := -O1
# What LeakSanitizer must not count as ours: tests/lsan.supp says why.
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
else
BUILD ?= build
SANFLAGS :=
OPT := -O2
endif

# A fresh machine: check, check-asan and demo install what is missing
# (.ci/install-deps.sh, as root or through sudo, saying what and why) and
# build in a make of their own. The build alone (make, make test-bins)
# installs nothing, as a build should not run apt-get behind its caller's
# back: it stops with one sentence naming what is missing and how to get
# it, not a compiler error about a header. clean needs nothing.
MISSING_PKGS := $(shell command -v $(PKG_CONFIG) >/dev/null 2>&1 || echo pkg-config; \
	for m in ncursesw:libncurses-dev libproc2:libproc2-dev libcgroup:libcgroup-dev json-c:libjson-c-dev libmicrohttpd:libmicrohttpd-dev \
		yaml-0.1:libyaml-dev gnutls:libgnutls28-dev libcrypt:libcrypt-dev zlib:zlib1g-dev; do \
		$(PKG_CONFIG) --exists $$(echo $$m | cut -d: -f1) 2>/dev/null || echo $$m | cut -d: -f2; done)
ifneq ($(strip $(MISSING_PKGS)),)
ifneq ($(filter-out clean demo check check-asan,$(or $(MAKECMDGOALS),all)),)
$(error gctop needs the Debian packages $(strip $(MISSING_PKGS)) to build; "make check" and "make demo" install them, or run "sh .ci/install-deps.sh" as root)
endif
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) $(SERVE_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -I. $(WARN) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS := $(LDFLAGS) $(SANFLAGS)
LIBS := $(PKG_LIBS) -lm -pthread

# The library: everything but the program's entry point.
LAYERS := $(shell sed -n 's/^\([a-z]\{1,\}\)[[:space:]].*/\1/p' LAYERS)
LIB_SRC := $(filter-out frontends/main.c,$(sort $(shell find $(LAYERS) -name '*.c' 2>/dev/null)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libgctop.a
BIN := $(BUILD)/gctop

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/tests/replay_%)

# Keep test objects: without this make deletes them as intermediates and relinks.
.SECONDARY:

.PHONY: all check check-asan test-bins demo fuzz install uninstall clean bench
all: $(BIN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/obj/frontends/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/test_%: $(BUILD)/obj/tests/unit/test_%.o $(BUILD)/obj/tests/unit/check.o $(BUILD)/obj/tests/unit/bytes.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The password checker's test makes bcrypt hashes with libcrypt's own
# crypt_gensalt_rn, which gctop never calls: linked into that test alone.
$(BUILD)/tests/test_web_auth: LIBS += -lcrypt
# And the gzip test reads its gzip back with zlib's inflate.
$(BUILD)/tests/test_serve_gzip: LIBS += -lz

# Each fuzz target also builds against a small driver that replays its corpus,
# so `make check` proves every crafted case is handled on any compiler.
$(BUILD)/tests/replay_fuzz_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/replay_main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

-include $(wildcard */build.mk)

test-bins: $(BIN) $(UNIT_BIN) $(FUZZ_REPLAY) $(EXTRA_TEST_TARGETS)

# What the build and the tests use comes first; then a make of its own
# builds, reading what pkg-config finds once that is installed.
# The build on every core unless make was given its own -j: alone it was
# about 100 s of make check's time on 2 cores.
CHECK_JOBS = $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j$(shell nproc))
check:
	@sh .ci/install-deps.sh
	@$(MAKE) --no-print-directory $(CHECK_JOBS) test-bins
	@GCTOP_BUILD=$(BUILD) sh tests/run.sh

check-asan:
	GCTOP_SUITE=sanitizer $(MAKE) SAN=1 check

FUZZ_CC ?= clang-14
# The parsers and what they need; not the screen and its panes; of the front
# ends, the --web-config parser and --serve's Accept-Encoding reader alone
# (they read only bytes) and the loader of their libraries
# (frontends/serve_libs.c).
FUZZ_LIB_SRC = $(filter-out tui/% frontends/%,$(LIB_SRC)) frontends/web_config.c frontends/serve_libs.c \
	frontends/serve_gzip.c
FUZZ_SECONDS ?= 30
fuzz: $(FUZZ_SRC)
	@mkdir -p build-fuzz
	@for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -I. -g -O1 -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) \
			-o build-fuzz/$$n $$f $(FUZZ_LIB_SRC) $(LIBS) || exit 1; \
		mkdir -p build-fuzz/$$n.corpus; \
		./build-fuzz/$$n -max_total_time=$(FUZZ_SECONDS) build-fuzz/$$n.corpus tests/fuzz/corpus/$${n#fuzz_} || exit 1; \
	done

demo: 
	@sh demo/run.sh

bench: $(BIN)
	@sh bench/run.sh

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gctop
	install -m 0644 man/gctop.1 $(DESTDIR)$(PREFIX)/share/man/man1/gctop.1
	$(INSTALL_EXTRA)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gctop $(DESTDIR)$(PREFIX)/share/man/man1/gctop.1

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
