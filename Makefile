# Entry points for a fresh Debian/Ubuntu machine. Each target installs libuv
# (through scripts/setup.sh) when it is missing.
.PHONY: setup build test check-imports echo-server benchmarks benchmarks-quick

setup:
	@scripts/setup.sh

build: setup
	swift build

check-imports:
	@scripts/check-imports.sh

test: setup check-imports
	swift test

echo-server: setup
	@echo "The echo server example is not written yet: it arrives with the examples issue." >&2
	@exit 1

# RxCore against OpenCombine, release build, one run (see BENCHMARKS.md).
benchmarks: setup
	cd Benchmarks && swift build -c release --product RxCoreBenchmarks && .build/release/RxCoreBenchmarks

# A few seconds of the same, so the benchmarks never rot (CI runs it).
benchmarks-quick: setup
	cd Benchmarks && swift build -c release --product RxCoreBenchmarks && .build/release/RxCoreBenchmarks --quick
