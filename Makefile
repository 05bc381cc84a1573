# Entry points for a fresh Debian/Ubuntu machine. Each target installs libuv
# (through scripts/setup.sh) when it is missing.
.PHONY: benchmarks-ws benchmarks-ws-quick benchmarks-ws-echo benchmarks-ws-echo-quick setup build test check-imports check-test-bases docs format lint sanitize sanitize-thread echo-server benchmarks benchmarks-quick benchmarks-net benchmarks-net-quick benchmarks-tls benchmarks-tls-quick benchmarks-http benchmarks-http-quick benchmarks-h2 benchmarks-h2-quick benchmarks-client benchmarks-client-quick fuzz fuzz-quick soak soak-quick benchmarks-kv benchmarks-statsd benchmarks-instructions benchmarks-thresholds

setup:
	@scripts/setup.sh

build: setup
	swift build

check-imports:
	@scripts/check-imports.sh

# Every XCTest class inherits a leak gate (RxCoreTestCase / BridgeTestCase).
check-test-bases:
	@scripts/check-test-bases.sh

# The XCTest suites, then the examples as processes (Tests/Examples, python3).
test: setup check-imports check-test-bases
	swift build --build-tests
	swift test --skip-build
	timeout 600 python3 Tests/Examples/run.py "$$(swift build --show-bin-path)"

# Both XCTest suites under AddressSanitizer, in their own scratch path (CI runs it).
# LeakSanitizer's exit-time report is off: swift-corelibs-xctest keeps every
# test case, test run and suite run alive until exit (~7,000 allocations, every
# root in libXCTest), and LSan cannot tell them from leaks. Our objects are
# checked after every test by the leak gates (Resources.total, open handles).
sanitize: setup
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	RXUV_CHILD_COUNT=1000 ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --sanitize=address --scratch-path .build-asan

# Coverage-guided fuzzing of every decoder (Fuzz/, libFuzzer + ASan): a minute
# per target; fuzz-quick: ten seconds each (CI). See RELIABILITY.md.
fuzz: setup
	scripts/fuzz.sh 60

fuzz-quick: setup
	scripts/fuzz.sh 10

# A soak of every daemon under steady mixed load, release builds: ten
# minutes (soak.csv and soak.png in Documentation/Soak/); soak-quick: ninety
# seconds (CI). Fails when memory or descriptors grow after the warm-up.
# See RELIABILITY.md.
soak: setup
	python3 scripts/soak.py --out Documentation/Soak

soak-quick: setup
	python3 scripts/soak.py --quick

# Both XCTest suites under ThreadSanitizer, in their own scratch path (CI runs it).
# -DRX_TSAN swaps Synchronization.Mutex for a pthread_mutex_t one (SanitizerMutex.swift):
# the futex Mutex is invisible to TSan, which then reports every access it guards.
# Fails on a failed test or on any TSan report (the log is in .build-tsan).
TSAN_FLAGS = --sanitize=thread --scratch-path .build-tsan -Xswiftc -DRX_TSAN
sanitize-thread: setup
	swift build --build-tests $(TSAN_FLAGS)
	@RXUV_CHILD_COUNT=1000 TSAN_OPTIONS="halt_on_error=0 exitcode=66" swift test --skip-build $(TSAN_FLAGS) \
		> .build-tsan/sanitize-thread.log 2>&1; status=$$?; \
	cat .build-tsan/sanitize-thread.log; \
	warnings=$$(grep -c "WARNING: ThreadSanitizer" .build-tsan/sanitize-thread.log); \
	echo "sanitize-thread: swift test exited $$status, $$warnings ThreadSanitizer warnings"; \
	[ "$$status" -eq 0 ] && [ "$$warnings" -eq 0 ]

# Builds the echo server (release) and runs it; pass flags with ARGS="--port 7001".
echo-server: setup
	swift build -c release --product echo-server
	"$$(swift build -c release --show-bin-path)/echo-server" $(ARGS)

# RxCore against OpenCombine, release build, one run (see BENCHMARKS.md).
benchmarks: setup
	cd Benchmarks && swift build -c release --product RxCoreBenchmarks && .build/release/RxCoreBenchmarks

# A few seconds of the same, so the benchmarks never rot (CI runs it).
benchmarks-quick: setup
	cd Benchmarks && swift build -c release --product RxCoreBenchmarks && .build/release/RxCoreBenchmarks --quick

# The bridge against plain C on libuv and SwiftNIO: release build of Benchmarks/,
# then echo servers and timers side by side, pinned with taskset (≈ 6.5 min; see BENCHMARKS.md).
benchmarks-net: setup
	python3 Benchmarks/Scripts/netbench.py

# A few seconds of every bridge case, once, so they never rot (CI runs it).
benchmarks-net-quick: setup
	python3 Benchmarks/Scripts/netbench.py --quick

# TLS: RxUVTLS's echo against C on libuv + OpenSSL (memory BIOs) and SwiftNIO
# over NIOSSL, pinned with taskset (≈ 2.5 min; see BENCHMARKS.md).
benchmarks-tls: setup
	python3 Benchmarks/Scripts/tlsbench.py

# A fraction of a second of every TLS case, once, so they never rot (CI runs it).
benchmarks-tls-quick: setup
	python3 Benchmarks/Scripts/tlsbench.py --quick

# HTTP: RxUV's http-server example against nginx (one worker) and Hummingbird 2
# (one EventLoop) under wrk, pinned with taskset (≈ 8 min; see BENCHMARKS.md).
benchmarks-http: setup
	python3 Benchmarks/Scripts/httpbench.py

# One second of every HTTP case, once, so they never rot.
benchmarks-http-quick: setup
	python3 Benchmarks/Scripts/httpbench.py --quick

# HTTP/2: http-server --http2 against nginx's http_v2 and Hummingbird 2's
# HTTP/2, h2load -c 100 -m 10, over h2c and over TLS (Benchmarks/Scripts/h2bench.py).
benchmarks-h2: setup
	python3 Benchmarks/Scripts/h2bench.py

# One second of every HTTP/2 case, once, so they never rot.
benchmarks-h2-quick: setup
	python3 Benchmarks/Scripts/h2bench.py --quick

# The HTTP client: RxUVHTTPClient against AsyncHTTPClient 1.37.0 (one
# EventLoop) and wrk, client CPU per request on nginx's /plaintext at 1, 10
# and 100 in flight, pinned with taskset (≈ 3.5 min; see Scripts/clientbench.py);
# then its resident memory moving 1 GiB down and up with one side throttled
# (≈ 40 s; Scripts/clientmemory.py, which fails past 8 MiB for the body).
benchmarks-client: setup
	python3 Benchmarks/Scripts/clientbench.py
	python3 Benchmarks/Scripts/clientmemory.py --skip-build

# 5,000 requests a client and one second of wrk per level, and 64 MiB each
# way with the memory bound held, so neither rots.
benchmarks-client-quick: setup
	python3 Benchmarks/Scripts/clientbench.py --quick
	python3 Benchmarks/Scripts/clientmemory.py --skip-build --quick

# WebSocket idle memory (against plain kept-alive HTTP connections) and a
# broadcast to every open socket, 10,000 of them (≈ 30 s; see
# Scripts/wsbroadcast.py); quick: 1,000 (CI), so it never rots.
benchmarks-ws: setup
	python3 Benchmarks/Scripts/wsbroadcast.py

benchmarks-ws-quick: setup
	python3 Benchmarks/Scripts/wsbroadcast.py --count 1000

# The WebSocket echo (issue 52): RxUVWebSocket against SwiftNIO's NIOWebSocket
# and hummingbird-websocket 2.8 (one EventLoop each) and RxUV's plain TCP
# echo, 24-byte text at 10, 100 and 1000 connections and one connection's
# 64 KiB binary frames, driven by wsload (C), pinned with taskset (≈ 4 min;
# see Scripts/wsbench.py).
benchmarks-ws-echo: setup
	python3 Benchmarks/Scripts/wsbench.py

# 0.3 s a case at 10 and 100 connections, once, so it never rots (≈ 10 s and the builds).
benchmarks-ws-echo-quick: setup
	python3 Benchmarks/Scripts/wsbench.py --quick

# kv-server against Debian's redis-server under redis-benchmark, pinned to
# one core each (≈ 3 min; see BENCHMARKS.md).
benchmarks-kv: setup
	python3 Benchmarks/Scripts/kvbench.py

# statsd-agg's datagrams per second at 0 % loss on one core (≈ 30 s; see BENCHMARKS.md).
benchmarks-statsd: setup
	swift build -c release --product statsd-agg
	python3 Benchmarks/Scripts/statsdbench.py --bin "$$(swift build -c release --show-bin-path)"

# Instruction counts (callgrind) of the core cases, 100,000 timers and the echo
# per round trip: repeatable where times are not. Pass another checkout's
# release directory to compare: make benchmarks-instructions BIN=../old/Benchmarks/.build/release
benchmarks-instructions: setup
	command -v valgrind >/dev/null || { echo "benchmarks-instructions needs valgrind (apt-get install valgrind)"; exit 1; }
	cd Benchmarks && swift build -c release
	Benchmarks/Scripts/callgrind.sh $(BIN)

# Instructions and allocations per operation of every held case (the core,
# timers, the echo, a served connection, HTTP requests, kv-server's commands,
# TLS messages and handshakes), callgrind on release builds, two cases at a time, against the
# committed Benchmarks/Thresholds/swift-MAJOR.MINOR.json: fails on more than
# +3 % instructions or an added allocation per operation (≈ 2 min; CI runs it).
# ARGS="--update" records the measured figures; ARGS="--case http --runs 3".
benchmarks-thresholds: setup
	cd Benchmarks && swift build -c release
	swift build -c release --product kv-server
	python3 Benchmarks/Scripts/thresholds.py $(ARGS)

# DocC for the libraries, offline, with every warning an error (CI runs
# it). The archives land in .build/plugins/Swift-DocC/outputs/.
docs: setup
	swift package --disable-sandbox generate-documentation \
		--target RxCore --target RxTest --target RxUV --target RxUVServiceLifecycle --target RxUVTLS --target RxUVHTTP --target RxUVHTTPClient --target RxUVWebSocket --target RxUVHTTP2 --target RxFoundation --target RxBlocking --warnings-as-errors

# The sources in the project's format (.swift-format); `lint` checks, CI runs it.
SWIFT_SOURCES = Package.swift Sources Tests Examples Snippets Benchmarks/Package.swift Benchmarks/Sources Fuzz/Package.swift Fuzz/Sources
format:
	swift format format --in-place --recursive --parallel $(SWIFT_SOURCES)

lint:
	swift format lint --strict --recursive --parallel $(SWIFT_SOURCES)
