# The README's two commands, and the builds behind them. Everything bootstraps first, so that a fresh
# Debian 12 machine needs nothing else.
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
# ccache hits across checkouts in different folders (CI clones afresh each time).
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= true

.PHONY: all release asan fuzzers test test-asan test-tsan test-fuzz fuzz-long demo bootstrap peers format clean

all: release

bootstrap:
	@scripts/bootstrap

build/release/build.ninja: | bootstrap
	@cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

build/asan/build.ninja: | bootstrap
	@cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON -DFLOE_BUILD_BENCH=OFF -DFLOE_SHARED=OFF >/dev/null

build/tsan/build.ninja: | bootstrap
	@cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=thread -DFLOE_BUILD_BENCH=OFF -DFLOE_SHARED=OFF >/dev/null

# Fuzz targets (docs/fuzzing.md): g++ with ASan, UBSan and trace-pc edge coverage, run by AFL++, in
# their own folder; only what they link is compiled.
# -O1 with line tables: fast enough to fuzz, and much quicker to compile than -O2 -g on two cores.
build/fuzz/build.ninja: | bootstrap
	@cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DFLOE_BUILD_FUZZ=ON -DFLOE_BUILD_BENCH=OFF -DFLOE_SHARED=OFF >/dev/null

release: build/release/build.ninja
	@cmake --build build/release -j $(JOBS)

asan: build/asan/build.ninja
	@cmake --build build/asan -j $(JOBS)

fuzzers: build/fuzz/build.ninja
	@cmake --build build/fuzz -j $(JOBS) --target floe_fuzzers

# The cross-checks against other engines run when ../shared/peers is there: install them first.
peers:
	@if [ -x ../shared/peers/setup ]; then ../shared/peers/setup >/dev/null; fi

test: release peers fuzzers
	@scripts/run-tests build/release
	@scripts/run-tests build/fuzz -L fuzz

# Each target over its seeds, then fuzzed for FLOE_FUZZ_SECONDS (8 by default; cmake -D in build/fuzz).
test-fuzz: fuzzers
	@scripts/run-tests build/fuzz -L fuzz

# Before a release: each target for FUZZ_SECONDS, from its seeds and the corpus saved in
# build/fuzz/corpus by earlier runs, into which what it finds is merged.
FUZZ_SECONDS ?= 600
fuzz-long: fuzzers
	@FLOE_FUZZ_SECONDS=$(FUZZ_SECONDS) FLOE_FUZZ_CORPUS=$(CURDIR)/build/fuzz/corpus \
	  scripts/run-tests build/fuzz -L fuzz --timeout $$(($(FUZZ_SECONDS) + 600))

test-asan: asan peers
	@scripts/run-tests build/asan

# The runtime's tests under ThreadSanitizer: only the stream layer runs threads of its own. Long
# (about 20 minutes to build from nothing on two cores), so not part of `make test` or CI; see
# docs/runtime.md.
test-tsan: build/tsan/build.ninja peers
	@cmake --build build/tsan -j $(JOBS) --target floe_stream_test
	@TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/src/floe/stream/floe_stream_test

demo: release
	@scripts/demo build/release/floe

format:
	@git ls-files '*.cc' '*.h' | xargs clang-format -i

clean:
	@rm -rf build
