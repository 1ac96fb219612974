# hotscore - see README.md.  GNU make; the core needs only a C compiler.
#
#   make                 build/hotscore and build/libhotscore.a
#   make test            every test; ends with "N passed, N failed"
#   make test SANITIZE=1 the same under ASan+UBSan (objects in build/san/)
#   make run             the main job: hotscore bench, the seed's scenario
#   make verify          the full proof (hotscore verify)
#   make bench           the benchmark suite into docs/PERFORMANCE.md
#   make bench-sim       only its simulator section
#   make bench-fast      only its prepared-scorer section
#   make bench-coverage  whether the printed intervals hold 20 re-runs
#   make docs            docs/cli.md, docs/hotscore.1 and the bash completion,
#                        from the option tables (the tests check they are)
#   make install         PREFIX=/usr/local: the binary, man page, completion,
#                        and examples/candidates in share/doc/hotscore/examples
#   make static          build/static/hotscore, linked -static: the same
#                        program for a guest without libc (hotscore workload)
#   make kunit           build/kunit/KERNEL/ops-common-kunit.h: a KUnit suite
#                        of damon_hot_score() for 6.1 and 6.12, and 6.12's
#                        patch when its tree is extracted (KUNIT_TREE=DIR)
#   make kmod            kmod/hotscore.ko (KDIR=/lib/modules/$(uname -r)/build)
#   make test-kernel     hotscore.ko in Debian's and a DAMON kernel, QEMU;
#                        then scripts/kernel-check on 6.1 and 6.12
#   make kernel-check    PATCH=FILE KERNEL=6.12|6.1: a patch, booted and
#                        judged (scripts/kernel-check, whose exit status is
#                        the verdict: 0 equal, 1 different, 2 none)
#   make fuzz            each parser under libFuzzer (clang) for FUZZ_SECONDS
#                        (60) each, or FUZZ_RUNS executions; tests/fuzz/
#   make fuzz-ci         CI's: each for FUZZ_CI_SECONDS (20), one at a time
#   WERROR=1             add -Werror (CI does)

CC      ?= cc
SANITIZE ?= 0
WERROR  ?= 0

# FLAG if the compiler takes it without a word (the kernel's cc-option)
cc-option = $(shell $(CC) -Werror $(1) -c -x c /dev/null -o /dev/null \
	      >/dev/null 2>&1 && echo $(1))
# Loops and jump targets aligned as the kernel aligns them: an x86-64
# kernel builds with -falign-jumps=1 -falign-loops=1 (linux 6.12,
# arch/x86/Makefile), an arm64 kernel with the compiler's defaults.  The
# kernel's loop heads are not aligned, so neither are ours: where the
# linker puts a loop moves its speed (the scalar batch scorer by 17 %;
# docs/bench.md, "Limits") in the kernel as here, and the bench's
# placements and intervals now carry that sensitivity instead of hiding
# it behind -falign-loops=32.  Candidates get the same (src/cand/cand.c).
ifneq ($(filter x86_64-%,$(shell $(CC) -dumpmachine)),)
KERNEL_ALIGN := $(call cc-option,-falign-jumps=1) \
                $(call cc-option,-falign-loops=1)
endif
CFLAGS_BASE := -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Wstrict-prototypes \
               -Wmissing-prototypes $(strip $(KERNEL_ALIGN)) -Iinclude -pthread
ifeq ($(WERROR),1)
CFLAGS_BASE += -Werror
endif
LDFLAGS += -pthread
# STATIC=1 (make static): every object again in build/static/, linked
# -static against Debian's libjansson.a, libz.a and glibc's libc.a, for a
# busybox initramfs; never sanitized
ifeq ($(STATIC),1)
B := build/static
LDFLAGS += -static
else ifeq ($(SANITIZE),1)
B := build/san
CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else
B := build
endif
override CFLAGS := $(CFLAGS_BASE) $(CFLAGS)
# jansson parses JSON (damo records, bench --import); zlib reads and writes
# damo's json_compressed records.  scripts/deps.sh installs them.
LIBS := -ljansson -lz -lm -ldl

# the engines, under the model: one library.  src/score/ and src/bench/
# are the kernel-safe code, which kmod/Kbuild compiles into the module too.
LIB_SRC   := $(wildcard src/score/*.c) $(wildcard src/bench/*.c) \
             $(wildcard src/simd/*.c) $(wildcard src/verify/*.c) \
             $(wildcard src/sim/*.c) $(wildcard src/cand/*.c) \
             $(wildcard src/record/*.c) $(wildcard src/json/*.c) \
             $(wildcard src/workload/*.c) $(wildcard src/spec/*.c) \
             $(wildcard src/host/*.c) $(wildcard src/replay/*.c)
CLI_SRC   := $(wildcard src/cli/*.c) $(wildcard src/cli/report/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
# the subcommands without main(), for the tests of reports and parsers
CLI_LIB_OBJ := $(filter-out $(B)/src/cli/main.o,$(CLI_OBJ))
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
# the fuzz harnesses (tests/fuzz/), each also a replay of its corpus
FUZZ_NAMES  := score_csv dist_file masim kmod_import units record trace damos_trace \
	       bench_compare csource
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(B)/tests/fuzz/%)

.PHONY: all static run test bench bench-sim bench-fast bench-coverage verify kmod \
	test-kernel kernel-check kunit clean \
	docs install fuzz fuzz-bin fuzz-ci
all: $(B)/hotscore $(B)/libhotscore.a $(B)/gendoc

$(B)/libhotscore.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(B)/hotscore: $(CLI_OBJ) $(B)/libhotscore.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# the static binary; glibc warns that dlopen() (candidate files) would need
# the shared libraries at run time: true, and no guest needs a candidate
static:
	@$(MAKE) --no-print-directory STATIC=1 SANITIZE=0 build/static/hotscore

$(B)/libhscli.a: $(CLI_LIB_OBJ)
	$(AR) rcs $@ $^

$(B)/%.o: %.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -MMD -MP -c -o $@ $<

# the libraries' headers, installed once (as root) if missing
$(B)/deps.stamp:
	@scripts/deps.sh $@

# verify's exhaustive age_in_log sweep: unrolled, the same code checks the
# 2^32 values about 10 % faster (docs/PERFORMANCE.md, hotscore verify).
$(B)/src/verify/sweep.o: CFLAGS += -funroll-loops

# the reference, generated from the option tables
$(B)/gendoc: $(B)/src/doc/gendoc.o $(B)/libhscli.a $(B)/libhotscore.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
$(B)/src/doc/gendoc.o: CFLAGS += -DHS_VERSION_TEXT='"$(shell cat VERSION)"'

GENERATED := docs/cli.md docs/hotscore.1 completion/hotscore.bash
docs: $(B)/gendoc
	@scripts/gendocs.sh $(B)/gendoc write

PREFIX ?= /usr/local
DESTDIR ?=
# the man page's FILES names this folder (src/doc/gendoc.c, EXAMPLES_DIR)
EXAMPLES_DIR := share/doc/hotscore/examples/candidates
install: $(B)/hotscore
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/$(EXAMPLES_DIR)
	install -m 755 $(B)/hotscore $(DESTDIR)$(PREFIX)/bin/hotscore
	install -m 644 docs/hotscore.1 $(DESTDIR)$(PREFIX)/share/man/man1/hotscore.1
	install -m 644 completion/hotscore.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hotscore
	install -m 644 examples/candidates/*.c $(DESTDIR)$(PREFIX)/$(EXAMPLES_DIR)

# the candidate's sources, carried in the binary (.incbin)
CAND_EMBED := src/cand/object/env.h src/cand/object/shim.c
$(B)/src/cand/embed.o build/fuzz/src/cand/embed.o: $(CAND_EMBED)

# hotscore --version: VERSION, and the commit when built from git.  The
# stamp changes only when the version does, and main.o follows it.
HS_VERSION := $(shell cat VERSION)$(shell git describe --always --dirty \
		2>/dev/null | sed 's/^/ (git /; s/$$/)/')
$(B)/version.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(HS_VERSION)' | cmp -s - $@ || echo '$(HS_VERSION)' >$@
$(B)/src/cli/main.o: CFLAGS += -DHS_VERSION='"$(HS_VERSION)"'
$(B)/src/cli/main.o: $(B)/version.stamp
$(B)/src/doc/gendoc.o: VERSION
.PHONY: FORCE

# The bench's JSON records the flags it was built with.
$(B)/src/cli/cmd_bench.o: CFLAGS += -DHS_CFLAGS='"$(strip $(CFLAGS_BASE))"'


$(B)/tests/%: tests/%.c $(B)/libhscli.a $(B)/libhotscore.a | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -Itests -MMD -MP $(LDFLAGS) -o $@ $< \
		$(B)/libhscli.a $(B)/libhotscore.a $(LIBS)

test: all $(TEST_BIN) $(B)/tests/jsonq $(B)/tests/damocheck $(B)/gendoc \
	$(FUZZ_REPLAY) static
	@tests/run.sh $(B)

# the main job: the seed module's scenario, measured honestly
run: all
	$(B)/hotscore bench

# the full proof: every age_in_sec, the whole grid, 10^7 random inputs
verify: all
	$(B)/hotscore verify

# benchmarks (not tests): rewrite docs/PERFORMANCE.md
bench: all $(B)/tests/jsonq
	@scripts/bench.sh $(B)
	@scripts/bench-sim.sh $(B)
	@scripts/bench-fast.sh $(B)
	@scripts/bench-kmod.sh $(B)

# do the printed intervals hold the next invocation? 20 runs of two
# commands, into docs/PERFORMANCE.md (about 10 minutes)
bench-coverage: all $(B)/tests/jsonq
	@scripts/bench-coverage.sh --doc $(B) 20

# the simulator's section of docs/PERFORMANCE.md alone
bench-sim: all $(B)/tests/jsonq
	@scripts/bench-sim.sh $(B)

# the prepared scorer's section of docs/PERFORMANCE.md alone
bench-fast: all $(B)/tests/jsonq
	@scripts/bench-fast.sh $(B)

# The KUnit suite of damon_hot_score() for each guest kernel, from its
# profile (docs/kernel.md, "KUnit"), and the patch that adds it to 6.12's
# tree: KUNIT_TREE, else the one scripts/damon-kernel.sh 6.12 extracted.
# 6.12's waits for a build with the debian-6.12.117 profile.
KUNIT_TREE ?=
kunit: $(B)/hotscore
	@mkdir -p build/kunit/6.1 build/kunit/6.12
	$(B)/hotscore kunit --kernel 6.1 --output build/kunit/6.1/ops-common-kunit.h
	@if ! $(B)/hotscore score --list-profiles | grep -q '^debian-6\.12\.117 '; then \
		echo "make kunit: 6.12: this build has no debian-6.12.117 profile; skipped"; \
		exit 0; \
	fi; \
	echo "$(B)/hotscore kunit --kernel 6.12 --output build/kunit/6.12/ops-common-kunit.h"; \
	$(B)/hotscore kunit --kernel 6.12 \
		--output build/kunit/6.12/ops-common-kunit.h || exit 1; \
	tree='$(KUNIT_TREE)'; \
	cache=$${HOTSCORE_CACHE:-$${XDG_CACHE_HOME:-$${HOME:-/root}/.cache}/hotscore}; \
	for d in "$$cache"/damon-kernel-6.12.*/linux-source-6.12; do \
		[ -z "$$tree" ] && [ -f "$${d%/*}/extracted" ] && tree=$$d; \
	done; \
	if [ -z "$$tree" ]; then \
		echo "make kunit: no 6.12 tree (scripts/damon-kernel.sh 6.12, or KUNIT_TREE=DIR): no patch"; \
		exit 0; \
	fi; \
	echo "scripts/kunit-patch.sh $$tree build/kunit/6.12/ops-common-kunit.h build/kunit/6.12/0001-mm-damon-ops-common-kunit.patch"; \
	scripts/kunit-patch.sh "$$tree" build/kunit/6.12/ops-common-kunit.h \
		build/kunit/6.12/0001-mm-damon-ops-common-kunit.patch

# the kernel module, against a kernel build tree; CANDIDATE=FILE (relative
# to where make runs) compiles a candidate damon_hot_score() into it
KDIR ?= /lib/modules/$(shell uname -r)/build
CANDIDATE ?=
kmod:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod $(if $(CANDIDATE),CANDIDATE=$(abspath $(CANDIDATE)) HS_CANDIDATE_NAME=$(CANDIDATE)) modules

# QEMU (TCG): Debian's stock kernel, then a DAMON kernel (cached build)
test-kernel: all static $(B)/tests/jsonq
	@scripts/kernel-test.sh $(B)

# a user's patch in a real kernel (PATCH relative to this directory); the
# script's exit status is the verdict (0 equal, 1 different, 2 no verdict),
# which make reports as a failure for both 1 and 2: run the script for it
KERNEL ?= 6.12
kernel-check: all static
	@test -n "$(PATCH)" || { echo "make kernel-check: give PATCH=FILE (KERNEL=6.12 or 6.1)" >&2; exit 2; }
	@scripts/kernel-check $(PATCH) --kernel $(KERNEL)

# Fuzzing (tests/fuzz/, docs/reliability.md).  One harness per parser;
# make test replays their corpora with $(CC) and replay.c, so CI needs no
# clang; make fuzz builds them with clang's libFuzzer, ASan and UBSan
# (objects in build/fuzz/) and runs each for FUZZ_SECONDS, or FUZZ_RUNS
# executions, FUZZ_JOBS at a time, an input that takes FUZZ_TIMEOUT s a
# finding.  FUZZ_DOC=docs/reliability.md writes the figures into that file.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?=
FUZZ_JOBS    ?= 1
FUZZ_TIMEOUT ?= 1
FUZZ_DOC     ?=
FZ           := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=gnu11 -O2 -g -Wall -Wextra -Iinclude -Isrc -pthread \
		-fsanitize=fuzzer-no-link $(FUZZ_SAN) \
		-DHS_CFLAGS='"-fsanitize=fuzzer-no-link,address,undefined (make fuzz)"'
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FZ)/%.o)
FUZZ_CLI_OBJ := $(filter-out $(FZ)/src/cli/main.o,$(CLI_SRC:%.c=$(FZ)/%.o))
FUZZ_BIN     := $(FUZZ_NAMES:%=$(FZ)/%)

$(FUZZ_REPLAY): $(B)/tests/fuzz/%: $(B)/tests/fuzz/%.o \
		$(B)/tests/fuzz/fuzz.o $(B)/tests/fuzz/nocand.o \
		$(B)/tests/fuzz/replay.o $(B)/libhscli.a $(B)/libhotscore.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(FZ)/%.o: %.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<
$(FZ)/libhotscore.a: $(FUZZ_LIB_OBJ)
	$(AR) rcs $@ $^
$(FZ)/libhscli.a: $(FUZZ_CLI_OBJ)
	$(AR) rcs $@ $^
$(FUZZ_BIN): $(FZ)/%: $(FZ)/tests/fuzz/%.o $(FZ)/tests/fuzz/fuzz.o \
		$(FZ)/tests/fuzz/nocand.o $(FZ)/libhscli.a $(FZ)/libhotscore.a
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -pthread -o $@ $^ $(LIBS)

fuzz-bin: $(FUZZ_BIN)

# installs nothing: without clang and libFuzzer it says which packages
fuzz:
	@tests/fuzz/fuzz.sh check '$(FUZZ_CC)'
	@$(MAKE) --no-print-directory fuzz-bin
	@FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_RUNS='$(FUZZ_RUNS)' \
		FUZZ_JOBS='$(FUZZ_JOBS)' FUZZ_DOC='$(FUZZ_DOC)' \
		FUZZ_TIMEOUT='$(FUZZ_TIMEOUT)' \
		FUZZ_CC='$(FUZZ_CC)' tests/fuzz/fuzz.sh run $(FZ) $(FUZZ_NAMES)

# CI (.ci/run): every harness for a short, fixed time, so that a change
# that breaks a parser's contract fails; "N passed, N failed", exit 1 on
# a finding.  An input's bound is 10 s there, not 1: a shared machine
# stalls a process for seconds (docs/reliability.md, "In CI").
FUZZ_CI_SECONDS ?= 20
FUZZ_CI_TIMEOUT ?= 10
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS='$(FUZZ_CI_SECONDS)' \
		FUZZ_TIMEOUT='$(FUZZ_CI_TIMEOUT)' FUZZ_RUNS= FUZZ_JOBS=1 FUZZ_DOC=

clean:
	rm -rf build
	rm -f kmod/*.o kmod/*.ko kmod/*.mod kmod/*.mod.c kmod/.*.cmd \
		kmod/Module.symvers kmod/modules.order kmod/src-*.c

-include $(shell find build -name '*.d' 2>/dev/null)
