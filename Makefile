# The README's two commands, and the builds behind them. Everything bootstraps first, so that a fresh
# Debian 12 machine needs nothing else.
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

.PHONY: all release asan test test-asan demo bootstrap peers format clean

all: release

bootstrap:
	@scripts/bootstrap

build/release/build.ninja: | bootstrap
	@cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null

build/asan/build.ninja: | bootstrap
	@cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON -DFLOE_BUILD_BENCH=OFF >/dev/null

release: build/release/build.ninja
	@cmake --build build/release -j $(JOBS)

asan: build/asan/build.ninja
	@cmake --build build/asan -j $(JOBS)

# The cross-checks against other engines run when ../shared/peers is there: install them first.
peers:
	@if [ -x ../shared/peers/setup ]; then ../shared/peers/setup >/dev/null; fi

test: release peers
	@scripts/run-tests build/release

test-asan: asan peers
	@scripts/run-tests build/asan

demo: release
	@scripts/demo build/release/floe

format:
	@git ls-files '*.cc' '*.h' | xargs clang-format -i

clean:
	@rm -rf build
