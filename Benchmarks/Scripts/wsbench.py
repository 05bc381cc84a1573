#!/usr/bin/env python3
"""The WebSocket echo benchmark (issue 52): RxUVWebSocket's echo against
SwiftNIO's NIOWebSocket and hummingbird-websocket 2.8, with RxUV's plain TCP
echo beside them for reference, in one run.

    Benchmarks/Scripts/wsbench.py                # release builds, then the full comparison (≈ 4 min)
    Benchmarks/Scripts/wsbench.py --quick        # a fraction of a second a case, c=10 and 100, once (CI)
    Benchmarks/Scripts/wsbench.py --skip-build --bin Benchmarks/.build/release --rounds 3

Every round starts each server in turn (an order that turns by one each
round), pinned to one core: rxuv-ws-echo (RxUVWebSocket's /echo route, one
loop), nio-ws-echo (NIOWebSocketServerUpgrader on NIOHTTP1, one
EventLoop), hb-ws-echo (hummingbird-websocket's `.http1WebSocketUpgrade`,
one EventLoop), rxuv-echo (the plain TCP echo, the README chain) and uv-echo
(the same echo in C on libuv, the floor). Each is driven by `wsload`
(`netload` for the TCP echoes), pinned to the other core:
a 24-byte text message per round trip, masked, at 10, 100 and 1000
connections (the TCP echo: 24 bytes per round trip, the same payload
without the frames), then one connection's binary throughput (64 KiB frames,
8 in flight; the TCP echo: netload's 1 MiB chunks, 4 MiB in flight).

Server CPU is the sum of /proc/PID/task/*/schedstat over the measured window
(LoadMeasure, the same for wsload and netload, so the ratio to the TCP echo
compares like with like), per message or per GiB; RSS is /proc/PID/status's
VmRSS at the end of the window, every connection open. Prints Markdown tables
of the medians, then the same-run ratios (the median of each round's ratio)
with the issue's targets: server CPU per message ≤ 0.5× NIO's and ≤ 1.3×
the plain TCP echo's per round trip. Everything runs on 127.0.0.1 and stops
by itself; a server that fails a case fails the run.
"""

import argparse
import os
import platform
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from netbench import PACKAGE, Pinning, bin_path, grouped, log, median, number, paired_ratio, parse_pairs, status_kib  # noqa: E402

PRODUCTS = ["wsload", "netload", "rxuv-ws-echo", "nio-ws-echo", "hb-ws-echo", "rxuv-echo", "uv-echo"]
# (key, label, server argv after the binary directory, load generator)
SERVERS = [
    ("rxuv", "RxUVWebSocket, 1 loop", ["rxuv-ws-echo"], "wsload"),
    ("nio", "SwiftNIO 2.101.3 NIOWebSocket, 1 EventLoop", ["nio-ws-echo"], "wsload"),
    ("hb", "hummingbird-websocket 2.8.1, 1 EventLoop", ["hb-ws-echo"], "wsload"),
    ("tcp", "RxUV plain TCP echo (rxuv-echo, netload)", ["rxuv-echo"], "netload"),
    # The floor under every row: the same bytes echoed by C on libuv, no
    # framing at all (a reused read buffer).
    ("c", "C on libuv plain TCP echo (uv-echo, netload)", ["uv-echo"], "netload"),
]
MESSAGE = 24

JUDGE_TARGETS = True


def mark(ok):
    if not JUDGE_TARGETS:
        return "·"
    return "✓" if ok else "✗"


def build():
    for product in PRODUCTS:
        log(f"wsbench: swift build -c release --product {product} (Benchmarks/)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", product], check=True)


class Server:
    """One echo server, started pinned; `port` once it prints "port N"."""

    def __init__(self, argv):
        self.argv = argv
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        self.port = None
        while self.port is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            line = self.process.stdout.readline() if ready else ""
            if line.startswith("port "):
                self.port = int(line.split()[1])
            elif line == "":
                break
        if self.port is None:
            self.stop()
            raise RuntimeError(f"{' '.join(argv)} did not start: {self.process.stderr.read()!r}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_load(bins, pinning, server, generator, arguments, settings):
    argv = pinning.client([os.path.join(bins, generator), "--port", str(server.port), "--server-pid",
                           str(server.process.pid), "--seconds", str(settings.seconds),
                           "--warmup", str(settings.warmup)] + arguments)
    result = subprocess.run(argv, capture_output=True, text=True, timeout=settings.seconds * 4 + 60)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()} {result.stdout.strip()}")
    if server.process.poll() is not None:
        raise RuntimeError(f"{' '.join(server.argv)} exited ({server.process.returncode}) during {' '.join(argv)}")
    return parse_pairs(result.stdout)


def measure(bins, pinning, settings, key, argv, generator):
    server = Server(pinning.server([os.path.join(bins, argv[0])] + argv[1:]))
    try:
        time.sleep(0.1)
        record = {"rss_idle_kib": status_kib(server.process.pid, "VmRSS")}
        tcp = generator == "netload"
        for c in settings.connections:
            pairs = run_load(bins, pinning, server, generator, ["--connections", str(c), "--size", str(MESSAGE)], settings)
            record[f"rate{c}"] = number(pairs, "rt_per_s" if tcp else "msg_per_s")
            record[f"cpu{c}"] = number(pairs, "server_cpu_us_per_rt" if tcp else "server_cpu_us_per_msg")
            record[f"p50_{c}"] = number(pairs, "p50_us")
            record[f"p99_{c}"] = number(pairs, "p99_us")
            record[f"client{c}"] = number(pairs, "client_cpu_pct")
            record[f"rss{c}"] = number(pairs, "server_rss_kib")
        throughput = ["--throughput", "--connections", "1"] + ([] if tcp else ["--frame", "65536", "--window", "8"])
        pairs = run_load(bins, pinning, server, generator, throughput, settings)
        record["mibs"] = number(pairs, "mib_per_s")
        record["tpcpu"] = number(pairs, "server_cpu_ms_per_gib")
        record["tpclient"] = number(pairs, "client_cpu_pct")
    finally:
        server.stop()
    return record


def run_round(bins, pinning, settings, results, round_index):
    turn = round_index % len(SERVERS)
    for key, _, argv, generator in SERVERS[turn:] + SERVERS[:turn]:
        record = measure(bins, pinning, settings, key, argv, generator)
        results.setdefault(key, []).append(record)
        log(f"wsbench: round {round_index + 1}: {key}: " + " ".join(f"{name}={value:.1f}" for name, value in record.items()))


def report(settings, results, pinning, load_before, load_after):
    connections = settings.connections
    print(f"Machine: {platform.system()} {platform.release()}, {os.cpu_count()} cores"
          f" ({'server on core %d, load generator on core %d' % (pinning.server_core, pinning.client_core) if pinning.enabled else 'not pinned'});"
          f" load average {load_before[0]:.2f} before, {load_after[0]:.2f} after.")
    print(f"{settings.rounds} round(s), {settings.seconds} s measured per case after {settings.warmup} s of warm-up, medians;"
          f" {MESSAGE}-byte text message per round trip; throughput: one connection, 64 KiB binary frames, 8 in flight"
          " (TCP: 1 MiB chunks, 4 MiB in flight).")
    print()
    header = ["server"] + [f"c={c} msg/s" for c in connections] + [f"CPU µs/msg c={c}" for c in connections]
    header += ["1-conn MiB/s", "CPU ms/GiB"]
    print("| " + " | ".join(header) + " |")
    print("|---" + "|---:" * (len(header) - 1) + "|")
    for key, label, _, _ in SERVERS:
        records = results[key]
        cells = [label] + [grouped(median(records, f"rate{c}")) for c in connections]
        cells += [f"{median(records, f'cpu{c}'):.2f}" for c in connections]
        cells += [grouped(median(records, "mibs")), grouped(median(records, "tpcpu"))]
        print("| " + " | ".join(cells) + " |")
    print()
    header = ["server"] + [f"p50 / p99 µs c={c}" for c in connections] + ["RSS idle MiB", f"RSS at {connections[-1]} conns MiB"]
    print("| " + " | ".join(header) + " |")
    print("|---" + "|---:" * (len(header) - 1) + "|")
    for key, label, _, _ in SERVERS:
        records = results[key]
        cells = [label] + [f"{median(records, f'p50_{c}'):.0f} / {median(records, f'p99_{c}'):.0f}" for c in connections]
        cells += [f"{median(records, 'rss_idle_kib') / 1024:.1f}", f"{median(records, f'rss{connections[-1]}') / 1024:.1f}"]
        print("| " + " | ".join(cells) + " |")
    client = max(max(median(records, f"client{c}") for c in connections) for records in results.values())
    print()
    print(f"The load generators' own CPU, highest median of any ping-pong case: {client:.0f} % of their core.")
    print()
    print("Same-run ratios (median over rounds of each round's ratio):")
    print()
    print("| measure | RxUV / NIO | target | RxUV / Hummingbird | RxUV / plain TCP echo | target |")
    print("|---|---:|---|---:|---:|---|")
    for c in connections:
        nio, hb, tcp = (paired_ratio(results, "rxuv", other, f"cpu{c}") for other in ("nio", "hb", "tcp"))
        print(f"| server CPU per message, c={c} | {nio:.2f} | ≤ 0.5 {mark(nio <= 0.5)} | {hb:.2f} | {tcp:.2f} | ≤ 1.3 {mark(tcp <= 1.3)} |")
    for c in connections:
        nio, hb, tcp = (paired_ratio(results, "rxuv", other, f"rate{c}") for other in ("nio", "hb", "tcp"))
        print(f"| messages/s, c={c} | {nio:.2f} | | {hb:.2f} | {tcp:.2f} | |")
    nio, hb, tcp = (paired_ratio(results, "rxuv", other, "mibs") for other in ("nio", "hb", "tcp"))
    print(f"| 1-conn throughput | {nio:.2f} | | {hb:.2f} | {tcp:.2f} | |")
    nio, hb, tcp = (paired_ratio(results, "rxuv", other, "tpcpu") for other in ("nio", "hb", "tcp"))
    print(f"| server CPU per GiB echoed | {nio:.2f} | | {hb:.2f} | {tcp:.2f} | |")
    print()
    print("The floor: C on libuv's plain TCP echo, its server CPU per round trip over NIOWebSocket's per message")
    print("(below 0.5, a WebSocket server at 0.5x NIO's CPU is possible at all):")
    print()
    print("| c | C floor / NIO | RxUV plain TCP echo / C floor | RxUVWebSocket / C floor |")
    print("|---:|---:|---:|---:|")
    for c in connections:
        floor = paired_ratio(results, "c", "nio", f"cpu{c}")
        tcp = paired_ratio(results, "tcp", "c", f"cpu{c}")
        ours = paired_ratio(results, "rxuv", "c", f"cpu{c}")
        print(f"| {c} | {floor:.2f} | {tcp:.2f} | {ours:.2f} |")
    print()


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="0.3 s a case, c=10 and 100, once (CI)")
    parser.add_argument("--rounds", type=int, help="rounds (default 5; quick 1)")
    parser.add_argument("--seconds", type=float, help="measured seconds per case (default 2; quick 0.3)")
    parser.add_argument("--skip-build", action="store_true", help="use the release binaries already built")
    parser.add_argument("--bin", help="the release binaries' directory (default: swift build --show-bin-path)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    global JUDGE_TARGETS
    JUDGE_TARGETS = not settings.quick
    settings.rounds = settings.rounds or (1 if settings.quick else 5)
    settings.seconds = settings.seconds or (0.3 if settings.quick else 2.0)
    settings.warmup = 0.1 if settings.quick else 0.5
    settings.connections = [10, 100] if settings.quick else [10, 100, 1000]
    if settings.rounds < 1 or not 0 < settings.seconds <= 60:
        parser.error("rounds must be at least 1, seconds in (0, 60]")
    if not settings.skip_build:
        build()
    bins = settings.bin or bin_path()
    missing = [product for product in PRODUCTS if not os.path.exists(os.path.join(bins, product))]
    if missing:
        raise RuntimeError(f"no {', '.join(missing)} in {bins}: build them first")
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    load_before = os.getloadavg()
    started = time.monotonic()
    results = {}
    for round_index in range(settings.rounds):
        run_round(bins, pinning, settings, results, round_index)
    report(settings, results, pinning, load_before, os.getloadavg())
    print(f"wsbench: {'quick mode, ' if settings.quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"wsbench: {error}")
        sys.exit(1)
