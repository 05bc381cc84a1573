#!/usr/bin/env python3
"""The bridge benchmarks: RxUV's echo server and timers against plain C on
libuv (the floor) and SwiftNIO on one event-loop thread, in one run.

    Benchmarks/Scripts/netbench.py                # release build, then the full comparison (≈ 6.5 min)
    Benchmarks/Scripts/netbench.py --quick        # a few seconds of every case, once (CI runs this)
    Benchmarks/Scripts/netbench.py --only echo --baseline ../old/Benchmarks/.build/release   # before/after, same run

Echo: every round starts each server in turn (A RxUV, B C reuse, C C malloc,
D SwiftNIO, E RxUV through [UInt8]) pinned to one core, drives it with
`netload` pinned to the other (64-byte ping-pong at 10, 100 and 1000
connections, then 1 MiB-chunk throughput on one connection), and stops it.
Serving on loops: a `Server` on 1 and on 2 loops and SwiftNIO with 2
event loops, not pinned (with netload they share the 2 cores), at 100 and
1000 connections: the cost of the second loop per round trip.
Timers: uv-timers and rxuv-timers (modes rx and scheduler), alternating.
Prints Markdown tables of the medians, then the same-run ratios (the median
of each round's RxUV/C and RxUV/NIO ratio) with the targets of the third
performance round.
Everything runs on 127.0.0.1 and stops by itself.
"""

import argparse
import os
import platform
import select
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
PRODUCTS = ["netload", "uv-echo", "uv-timers", "rxuv-echo", "rxuv-timers", "nio-echo"]

# (key, label, argv after the binary directory)
SERVERS = [
    ("rxuv", "RxUV (README chain)", ["rxuv-echo"]),
    ("c-reuse", "C on libuv, reused 64 KiB read buffer", ["uv-echo"]),
    ("c-malloc", "C on libuv, malloc per read", ["uv-echo", "--malloc"]),
    ("nio", "SwiftNIO, 1 EventLoop", ["nio-echo"]),
    ("rxuv-array", "RxUV, each read through [UInt8]", ["rxuv-echo", "--array"]),
    ("rxuv-async", "RxUV, for try await on the loop", ["rxuv-echo", "--async"]),
    ("rxuv-actor", "RxUV, for try await in an actor on the loop", ["rxuv-echo", "--actor"]),
    ("nio-async", "SwiftNIO, NIOAsyncChannel for try await", ["nio-echo", "--async"]),
    ("server-off", "RxUV Server, metrics off", ["rxuv-echo", "--server", "off"]),
    ("server-noop", "RxUV Server, metrics on, no-op backend", ["rxuv-echo", "--server", "noop"]),
    ("server-prom", "RxUV Server, metrics on, swift-prometheus", ["rxuv-echo", "--server", "prometheus"]),
]
# Serving on several loops: both servers and the load generator share the
# machine's cores (not pinned).
GROUP_SERVERS = [
    ("group1", "RxUV Server, 1 loop", ["rxuv-echo", "--group", "1"]),
    ("group2", "RxUV Server, 2 loops", ["rxuv-echo", "--group", "2"]),
    ("nio2", "SwiftNIO, 2 EventLoops", ["nio-echo", "--threads", "2"]),
]
GROUP_CONNECTIONS = [100, 1000]
TIMERS = [
    ("c", "C, uv_timer_t", ["uv-timers"]),
    ("rx", "RxUV, loop.rx.timer", ["rxuv-timers", "--mode", "rx"]),
    ("scheduler", "RxUV, Observable.timer on the Loop", ["rxuv-timers", "--mode", "scheduler"]),
]


def log(message):
    print(message, file=sys.stderr, flush=True)


def parse_pairs(line):
    return {key: value for key, value in (field.split("=", 1) for field in line.split() if "=" in field)}


def number(pairs, key):
    return float(pairs[key])


class Pinning:
    def __init__(self, enabled, server_core, client_core):
        self.enabled = enabled and shutil.which("taskset") is not None and (os.cpu_count() or 1) >= 2
        self.server_core, self.client_core = server_core, client_core

    def server(self, argv):
        return ["taskset", "-c", str(self.server_core)] + argv if self.enabled else argv

    def client(self, argv):
        return ["taskset", "-c", str(self.client_core)] + argv if self.enabled else argv


def build():
    # One invocation for the whole package: a single planning pass, and a
    # no-op when CI has just built RxCoreBenchmarks.
    log("netbench: swift build -c release (Benchmarks/)")
    subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE], check=True)
    bins = bin_path()
    missing = [product for product in PRODUCTS if not os.path.exists(os.path.join(bins, product))]
    if missing:
        raise RuntimeError(f"the build did not produce {', '.join(missing)}")


def bin_path():
    return subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--show-bin-path"],
                          check=True, capture_output=True, text=True).stdout.strip()


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


class Server:
    """One echo server process, started pinned; `port` once it listens."""

    def __init__(self, argv):
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.process.stdout], [], [], 30)
        line = self.process.stdout.readline() if ready else ""
        if not line.startswith("port "):
            self.stop()
            raise RuntimeError(f"{' '.join(argv)} did not start: {line!r} {self.process.stderr.read()!r}")
        self.port = int(line.split()[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_load(bins, pinning, server, arguments, timeout):
    argv = pinning.client([os.path.join(bins, "netload"), "--port", str(server.port),
                           "--server-pid", str(server.process.pid)] + arguments)
    result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}")
    return parse_pairs(result.stdout)


def echo_round(bins, pinning, settings, results, round_index):
    for key, label, argv in SERVERS:
        server = Server(pinning.server([os.path.join(bins, argv[0])] + argv[1:]))
        try:
            time.sleep(0.1)
            record = {"rss_idle_kib": status_kib(server.process.pid, "VmRSS")}
            for connections in settings.connections:
                pairs = run_load(bins, pinning, server, ["--connections", str(connections),
                                 "--seconds", str(settings.seconds), "--warmup", str(settings.warmup)], settings.seconds * 4 + 60)
                record[f"rt{connections}"] = number(pairs, "rt_per_s")
                record[f"cpu{connections}"] = number(pairs, "server_cpu_us_per_rt")
                record[f"p50_{connections}"] = number(pairs, "p50_us")
                record[f"p99_{connections}"] = number(pairs, "p99_us")
                record[f"client{connections}"] = number(pairs, "client_cpu_pct")
                record[f"rss{connections}"] = number(pairs, "server_rss_kib")
            pairs = run_load(bins, pinning, server, ["--throughput", "--connections", "1",
                             "--seconds", str(settings.seconds), "--warmup", str(settings.warmup)], settings.seconds * 4 + 60)
            record["mibs"] = number(pairs, "mib_per_s")
            record["tpcpu"] = number(pairs, "server_cpu_ms_per_gib")
            record["tpclient"] = number(pairs, "client_cpu_pct")
        finally:
            server.stop()
        results.setdefault(key, []).append(record)
        log(f"netbench: round {round_index + 1}: {key}: " + " ".join(
            f"{name}={value:.1f}" for name, value in record.items()))


def group_round(bins, settings, results, round_index):
    unpinned = Pinning(False, 0, 0)
    for key, label, argv in GROUP_SERVERS:
        server = Server([os.path.join(bins, argv[0])] + argv[1:])
        try:
            time.sleep(0.1)
            record = {}
            for connections in GROUP_CONNECTIONS:
                pairs = run_load(bins, unpinned, server, ["--connections", str(connections),
                                 "--seconds", str(settings.seconds), "--warmup", str(settings.warmup)], settings.seconds * 4 + 60)
                record[f"rt{connections}"] = number(pairs, "rt_per_s")
                record[f"cpu{connections}"] = number(pairs, "server_cpu_us_per_rt")
        finally:
            server.stop()
        results.setdefault(key, []).append(record)
        log(f"netbench: group round {round_index + 1}: {key}: " + " ".join(
            f"{name}={value:.1f}" for name, value in record.items()))


def report_group(group):
    print("Serving on loops: 64-byte ping-pong, servers and netload not pinned (they share the cores); medians.")
    print()
    header = ["server"] + [f"c={c} rt/s" for c in GROUP_CONNECTIONS] + [f"CPU µs/rt c={c}" for c in GROUP_CONNECTIONS]
    print("| " + " | ".join(header) + " |")
    print("|---" + "|---:" * (len(header) - 1) + "|")
    for key, label, _ in GROUP_SERVERS:
        records = group[key]
        cells = [label] + [grouped(median(records, f"rt{c}")) for c in GROUP_CONNECTIONS]
        cells += [f"{median(records, f'cpu{c}'):.2f}" for c in GROUP_CONNECTIONS]
        print("| " + " | ".join(cells) + " |")
    print()
    print("| measure | 2 loops / 1 loop | target | RxUV 2 loops / NIO 2 loops |")
    print("|---|---:|---|---:|")
    for c in GROUP_CONNECTIONS:
        cpu = paired_ratio(group, "group2", "group1", f"cpu{c}")
        print(f"| server CPU per round trip, c={c} | {cpu:.2f} | ≤ 1.10 {mark(cpu <= 1.1)} | {paired_ratio(group, 'group2', 'nio2', f'cpu{c}'):.2f} |")
    for c in GROUP_CONNECTIONS:
        print(f"| rt/s, c={c} | {paired_ratio(group, 'group2', 'group1', f'rt{c}'):.2f} | | {paired_ratio(group, 'group2', 'nio2', f'rt{c}'):.2f} |")
    print()


def timer_round(bins, pinning, settings, results, round_index):
    for key, label, argv in TIMERS:
        command = pinning.server([os.path.join(bins, argv[0])] + argv[1:] +
                                 ["--count", str(settings.timers), "--spread-ms", str(settings.spread)])
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {result.stdout.strip()} {result.stderr.strip()}")
        pairs = parse_pairs(result.stdout)
        record = {name: number(pairs, name) for name in ("arm_s", "fire_s", "close_s", "total_s", "peak_rss_kib")}
        results.setdefault(key, []).append(record)
        log(f"netbench: timers round {round_index + 1}: {key}: {result.stdout.strip()}")


def median(records, name):
    return statistics.median(record[name] for record in records)


def paired_ratio(results, top, bottom, name):
    """The median over rounds of top/bottom, each round's pair measured minutes apart at most."""
    ratios = [a[name] / b[name] for a, b in zip(results[top], results[bottom]) if b[name] > 0]
    return statistics.median(ratios) if ratios else float("nan")


def grouped(value, decimals=0):
    return f"{value:,.{decimals}f}"


# Quick runs are too short and too small (20,000 timers sit on the process's
# baseline RSS) to judge a target: they print "·" instead of ✓ or ✗.
JUDGE_TARGETS = True


def mark(ok):
    if not JUDGE_TARGETS:
        return "·"
    return "✓" if ok else "✗"


def report(settings, echo, timers, load_before, load_after, pinning):
    print(f"Machine: {platform.system()} {platform.release()}, {os.cpu_count()} cores"
          f" ({'server on core %d, client on core %d' % (pinning.server_core, pinning.client_core) if pinning.enabled else 'not pinned'});"
          f" load average {load_before[0]:.2f} before, {load_after[0]:.2f} after.")
    print(f"Echo: {settings.rounds} round(s) of A B C D E, {settings.seconds} s measured per case after"
          f" {settings.warmup} s of warm-up, medians; 64-byte ping-pong; throughput = 1 MiB chunks on 1 connection.")
    print()
    connections = settings.connections
    if echo:
        header = ["server"] + [f"c={c} rt/s" for c in connections] + [f"CPU µs/rt c={c}" for c in connections]
        header += [f"p50 / p99 µs c={connections[len(connections) // 2]}", "1-conn MiB/s", "RSS idle MiB", f"RSS at {connections[-1]} conns MiB"]
        print("| " + " | ".join(header) + " |")
        print("|---" + "|---:" * (len(header) - 1) + "|")
        middle = connections[len(connections) // 2]
        for key, label, _ in SERVERS:
            records = echo[key]
            cells = [label]
            cells += [grouped(median(records, f"rt{c}")) for c in connections]
            cells += [f"{median(records, f'cpu{c}'):.2f}" for c in connections]
            cells.append(f"{median(records, f'p50_{middle}'):.0f} / {median(records, f'p99_{middle}'):.0f}")
            cells.append(grouped(median(records, "mibs")))
            cells.append(f"{median(records, 'rss_idle_kib') / 1024:.1f}")
            cells.append(f"{median(records, f'rss{connections[-1]}') / 1024:.1f}")
            print("| " + " | ".join(cells) + " |")
        client = max(max(median(records, f"client{c}") for c in connections) for records in echo.values())
        print()
        print(f"netload's own CPU, highest median of any case: {client:.0f} % of its core.")
        print()
        print("Same-run ratios (median over rounds of each round's ratio):")
        print()
        print("| measure | RxUV / C reuse | target | RxUV / NIO | target | RxUV [UInt8] / RxUV |")
        print("|---|---:|---|---:|---|---:|")
        for c in connections:
            to_c = paired_ratio(echo, "rxuv", "c-reuse", f"rt{c}")
            to_nio = paired_ratio(echo, "rxuv", "nio", f"rt{c}")
            array = paired_ratio(echo, "rxuv-array", "rxuv", f"rt{c}")
            print(f"| rt/s, c={c} | {to_c:.2f} | ≥ 0.90 {mark(to_c >= 0.9)} | {to_nio:.2f} | > 1 {mark(to_nio > 1)} | {array:.2f} |")
        for c in connections:
            to_c = paired_ratio(echo, "rxuv", "c-reuse", f"cpu{c}")
            to_nio = paired_ratio(echo, "rxuv", "nio", f"cpu{c}")
            array = paired_ratio(echo, "rxuv-array", "rxuv", f"cpu{c}")
            print(f"| server CPU per round trip, c={c} | {to_c:.2f} | ≤ 1.15 {mark(to_c <= 1.15)} | {to_nio:.2f} | | {array:.2f} |")
        to_c = paired_ratio(echo, "rxuv", "c-reuse", "mibs")
        to_nio = paired_ratio(echo, "rxuv", "nio", "mibs")
        array = paired_ratio(echo, "rxuv-array", "rxuv", "mibs")
        print(f"| 1-conn throughput | {to_c:.2f} | ≥ 0.95 {mark(to_c >= 0.95)} | {to_nio:.2f} | ≥ 1 {mark(to_nio >= 1)} | {array:.2f} |")
        to_c = paired_ratio(echo, "rxuv", "c-reuse", "tpcpu")
        array = paired_ratio(echo, "rxuv-array", "rxuv", "tpcpu")
        print(f"| server CPU per GiB echoed | {to_c:.2f} | | {paired_ratio(echo, 'rxuv', 'nio', 'tpcpu'):.2f} | | {array:.2f} |")
        rss = median(echo["rxuv"], f"rss{connections[-1]}") / 1024
        async_rows = []
        for c in connections:
            to_rx = paired_ratio(echo, "rxuv-async", "rxuv", f"cpu{c}")
            to_nio = paired_ratio(echo, "rxuv-async", "nio-async", f"cpu{c}")
            async_rows.append(f"| server CPU per round trip, c={c} | {to_rx:.2f} | ≤ 1.15 {mark(to_rx <= 1.15)} | {to_nio:.2f} | < 1 {mark(to_nio < 1)} |")
        for c in connections:
            to_rx = paired_ratio(echo, "rxuv-async", "rxuv", f"rt{c}")
            to_nio = paired_ratio(echo, "rxuv-async", "nio-async", f"rt{c}")
            async_rows.append(f"| rt/s, c={c} | {to_rx:.2f} | | {to_nio:.2f} | > 1 {mark(to_nio > 1)} |")
        for c in connections:
            to_rx = paired_ratio(echo, "rxuv-actor", "rxuv", f"cpu{c}")
            to_nio = paired_ratio(echo, "rxuv-actor", "nio-async", f"cpu{c}")
            async_rows.append(f"| server CPU per round trip, c={c}, in an actor | {to_rx:.2f} | | {to_nio:.2f} | |")
        if "rxuv-async-baseline" in echo:
            for c in connections:
                before = paired_ratio(echo, "rxuv-async-baseline", "rxuv", f"cpu{c}")
                async_rows.append(f"| server CPU per round trip, c={c}, baseline build's async / this Rx chain | {before:.2f} | | | |")
        metrics_rows = []
        for c in connections:
            noop = paired_ratio(echo, "server-noop", "server-off", f"cpu{c}")
            prom = paired_ratio(echo, "server-prom", "server-off", f"cpu{c}")
            metrics_rows.append(f"| server CPU per round trip, c={c} | {noop:.3f} | ≤ 1.03 {mark(noop <= 1.03)} | {prom:.3f} |")
        print(f"| RSS at {connections[-1]} conns (MiB, absolute) | {rss:.1f} | ≤ 6 {mark(rss <= 6)} | {paired_ratio(echo, 'rxuv', 'nio', f'rss{connections[-1]}'):.2f} | | {paired_ratio(echo, 'rxuv-array', 'rxuv', f'rss{connections[-1]}'):.2f} |")
        print()
        print("The echo in async/await (RxUV: a task on the loop's executor per connection; NIO: NIOAsyncChannel):")
        print()
        print("| measure | RxUV async / RxUV Rx chain | target | RxUV async / NIO async | target |")
        print("|---|---:|---|---:|---|")
        for row in async_rows:
            print(row)
        print()
        print("A Server's metrics on the echo's path (one loop, the Rx chain as its handler):")
        print()
        print("| measure | on, no-op backend / off | target | on, swift-prometheus / off |")
        print("|---|---:|---|---:|")
        for row in metrics_rows:
            print(row)
        print()
        if "rxuv-baseline" in echo:
            print("This build against the baseline build (median over rounds of each round's ratio):")
            print()
            print("| measure | " + " | ".join(f"c={c}" for c in connections) + " |")
            print("|---" + "|---:" * len(connections) + "|")
            print("| rt/s, this / baseline | " + " | ".join(f"{paired_ratio(echo, 'rxuv', 'rxuv-baseline', f'rt{c}'):.3f}" for c in connections) + " |")
            print("| server CPU per round trip, this / baseline | " + " | ".join(f"{paired_ratio(echo, 'rxuv', 'rxuv-baseline', f'cpu{c}'):.3f}" for c in connections) + " |")
            print(f"| 1-conn throughput, this / baseline | {paired_ratio(echo, 'rxuv', 'rxuv-baseline', 'mibs'):.3f} | | |")
            print()
    if timers:
        print(f"Timers: {settings.timers:,} one-shot timers due evenly over {settings.spread} ms;"
              f" {settings.timer_rounds} round(s), medians (fire: from the end of arming to the last expiry).")
        print()
        print("| timers | arm s | fire s | dispose/close s | total s | peak RSS MiB | B per timer | total / C | RSS / C |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for key, label, _ in TIMERS:
            records = timers[key]
            total = paired_ratio(timers, key, "c", "total_s")
            rss = paired_ratio(timers, key, "c", "peak_rss_kib")
            targets = "" if key == "c" else f" (≤ 1.5 {mark(total <= 1.5)})"
            rss_target = "" if key == "c" else f" (≤ 2.5 {mark(rss <= 2.5)})"
            per_timer = median(records, "peak_rss_kib") * 1024 / settings.timers
            print(f"| {label} | {median(records, 'arm_s'):.3f} | {median(records, 'fire_s'):.3f} | {median(records, 'close_s'):.3f}"
                  f" | {median(records, 'total_s'):.3f} | {median(records, 'peak_rss_kib') / 1024:.0f} | {per_timer:.0f}"
                  f" | {total:.2f}{targets} | {rss:.2f}{rss_target} |")
        print()


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few seconds of every case, once (CI)")
    parser.add_argument("--rounds", type=int, help="echo rounds (default 9; quick 1)")
    parser.add_argument("--seconds", type=float, help="measured seconds per echo case (default 1.5; quick 0.2)")
    parser.add_argument("--timers", type=int, help="timers per timer run (default 1,000,000; quick 20,000)")
    parser.add_argument("--timer-rounds", type=int, help="timer rounds (default 3; quick 1)")
    parser.add_argument("--only", choices=["echo", "timers", "group"], help="run one part only")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--baseline", metavar="DIR",
                        help="also run DIR/rxuv-echo (another checkout's release build) in every echo round, for before/after ratios")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    quick = settings.quick
    global JUDGE_TARGETS
    JUDGE_TARGETS = not quick
    settings.rounds = settings.rounds or (1 if quick else 9)
    settings.seconds = settings.seconds or (0.2 if quick else 1.5)
    settings.warmup = 0.05 if quick else 0.3
    settings.timers = settings.timers or (20_000 if quick else 1_000_000)
    settings.spread = 100 if quick else 1000
    settings.timer_rounds = settings.timer_rounds or (1 if quick else 3)
    settings.connections = [10, 100, 1000]
    if min(settings.rounds, settings.timer_rounds, settings.timers) < 1 or not 0 < settings.seconds <= 60:
        parser.error("rounds and timers must be at least 1, seconds in (0, 60]")

    if settings.baseline:
        baseline = os.path.join(os.path.abspath(settings.baseline), "rxuv-echo")
        if not os.path.exists(baseline):
            parser.error(f"--baseline: no rxuv-echo in {settings.baseline}")
        SERVERS.append(("rxuv-baseline", "RxUV (README chain), baseline build", [baseline]))
        SERVERS.append(("rxuv-async-baseline", "RxUV, for try await on the loop, baseline build", [baseline, "--async"]))
    if not settings.no_build:
        build()
    bins = bin_path()
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    load_before = os.getloadavg()
    started = time.monotonic()
    echo, timers, group = {}, {}, {}
    if settings.only in (None, "echo"):
        for round_index in range(settings.rounds):
            echo_round(bins, pinning, settings, echo, round_index)
    if settings.only in (None, "group"):
        for round_index in range(settings.rounds):
            group_round(bins, settings, group, round_index)
    if settings.only in (None, "timers"):
        for round_index in range(settings.timer_rounds):
            timer_round(bins, pinning, settings, timers, round_index)
    load_after = os.getloadavg()
    report(settings, echo, timers, load_before, load_after, pinning)
    if group:
        report_group(group)
    print(f"netbench: {'quick mode, ' if quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"netbench: {error}")
        sys.exit(1)
