#!/usr/bin/env python3
"""The HTTP client benchmark: RxUVHTTPClient (rxuv-http-client) against
AsyncHTTPClient 1.37.0 on one event loop (ahc-client) and wrk (C, the
floor), as the client's CPU per request, all GETting nginx's /plaintext
(Debian's nginx, one worker, httpbench's configuration) in one run.

    Benchmarks/Scripts/clientbench.py                # release builds, then the comparison (≈ 3.5 min)
    Benchmarks/Scripts/clientbench.py --quick        # 5,000 requests a client and 1 s of wrk per level (for CI)
    Benchmarks/Scripts/clientbench.py --skip-build --rounds 3

At 1, 10 and 100 requests in flight, each Swift client makes a fixed
number of requests (100,000 at 1, 300,000 at 10 and 100; 5,000 each in
--quick) over at most that many keep-alive connections, reads every body
whole, shuts down and exits; wrk runs `-t1 -cK` for a fixed time (10 s;
1 s in --quick). Each client's CPU is its process's user + system time
(RUSAGE_CHILDREN before and after it is waited for, so its start and
shutdown are counted, as wrk's are); its rate is requests over its wall
time (process start to exit for the Swift clients, wrk's own Requests/sec).
nginx's CPU per request is shown beside them, from /proc (its worker's
ticks), to tell a slower client from a busier server. nginx closes a
keep-alive connection after 1000 requests (its default), so every client
reconnects as often. AsyncHTTPClient 1.37.0 here also connects more than
it needs: under strace, 1002 connect() for 2000 requests at 1 in flight
(RxUVHTTPClient: 2), its requests all on one socket and the others closed
again; that is its cost as measured, not corrected. ahc-client starts the
next request in the previous one's callback: deferring it a loop turn
(loop.execute) did not change that and cost AsyncHTTPClient more at 10 and
100 in flight (2004 connect() for 2000 requests at 10).

nginx is pinned to one core and the clients to the other with taskset
when there are two. Within a level the three clients run back to back,
in an order that turns by one each round, and with --rounds N the medians
of each round's figures and ratios are reported. Everything runs on
127.0.0.1 and stops by itself; wrk and nginx come from Debian
(`make setup`).
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from httpbench import (CLOCK_TICKS, NGINX, PLAINTEXT_BODY, Nginx, check_bodies, cpu_ticks,  # noqa: E402
                       make_root, parse_wrk, raise_file_limit, stop)
from netbench import PACKAGE, Pinning, bin_path, log  # noqa: E402

LEVELS = [1, 10, 100]
# (key, label)
CLIENTS = [
    ("rxuv", "RxUVHTTPClient, 1 loop"),
    ("ahc", "AsyncHTTPClient 1.37.0, 1 EventLoop"),
    ("wrk", "wrk -t1 (C)"),
]
PRODUCTS = {"rxuv": "rxuv-http-client", "ahc": "ahc-client"}


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_swift(settings, pinning, nginx, key, level, count):
    """One Swift client making `count` GETs with `level` in flight: its CPU and wall time."""
    argv = pinning.client([os.path.join(settings.bin, PRODUCTS[key]), "--port", str(nginx.port),
                           "--count", str(count), "--in-flight", str(level), "--path", "/plaintext"])
    server_before, cpu_before, started = cpu_ticks(nginx.process.pid), children_cpu(), time.monotonic()
    result = subprocess.run(argv, capture_output=True, text=True, timeout=settings.timeout)
    wall, cpu = time.monotonic() - started, children_cpu() - cpu_before
    server = (cpu_ticks(nginx.process.pid) - server_before) / CLOCK_TICKS
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    found = re.search(r"^requests (\d+) bytes (\d+)$", result.stdout, re.M)
    expected = count * len(PLAINTEXT_BODY)
    if not found or int(found.group(1)) != count or int(found.group(2)) != expected:
        raise RuntimeError(f"{' '.join(argv)}: expected 'requests {count} bytes {expected}', got {result.stdout.strip()!r}")
    return {"requests": count, "rate": count / wall, "cpu": cpu * 1e6 / count, "server": server * 1e6 / count,
            "errors": 0}


def run_wrk(settings, pinning, nginx, level):
    """wrk -t1 -cLEVEL for settings.seconds: its own CPU (rusage once waited for) per request."""
    argv = pinning.client(["wrk", "-t1", f"-c{level}", f"-d{settings.seconds}s", "--timeout", "2s", "--latency",
                           f"http://127.0.0.1:{nginx.port}/plaintext"])
    server_before, cpu_before = cpu_ticks(nginx.process.pid), children_cpu()
    result = subprocess.run(argv, capture_output=True, text=True, timeout=settings.seconds + 30)
    cpu = children_cpu() - cpu_before
    server = (cpu_ticks(nginx.process.pid) - server_before) / CLOCK_TICKS
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    record = parse_wrk(result.stdout)
    requests = max(record["requests"], 1)
    return {"requests": record["requests"], "rate": record["rate"], "cpu": cpu * 1e6 / requests,
            "server": server * 1e6 / requests,
            "errors": sum(record[name] for name in ("connect", "read", "write", "timeout", "non2xx"))}


def run_round(settings, pinning, nginx, results, round_index):
    for level in settings.levels:
        count = settings.counts[level]
        keys = [key for key, _ in CLIENTS]
        turn = round_index % len(keys)
        for key in keys[turn:] + keys[:turn]:
            if key == "wrk":
                record = run_wrk(settings, pinning, nginx, level)
            else:
                record = run_swift(settings, pinning, nginx, key, level, count)
            results.setdefault((key, level), []).append(record)
            log(f"clientbench: round {round_index + 1} {key} in-flight {level}: {record['requests']} requests,"
                f" {record['rate']:,.0f} req/s, {record['cpu']:.2f} µs CPU/request (nginx {record['server']:.2f})")
            if nginx.process.poll() is not None:
                raise RuntimeError(f"nginx exited ({nginx.process.returncode})")


def report(results, settings, pinning):
    print(f"\nHTTP client CPU per request, GET nginx /plaintext ({len(PLAINTEXT_BODY)}-byte body), "
          f"{settings.rounds} round(s), medians; "
          + (f"nginx on core {pinning.server_core}, clients on core {pinning.client_core}"
             if pinning.enabled else "not pinned"))
    header = (f"{'client':<36} {'in-flight':>9} {'requests':>9} {'req/s':>9} {'CPU µs/req':>10}"
              f" {'× AHC':>6} {'× wrk':>6} {'nginx µs/req':>12} {'errors':>6}")
    print(header)
    print("-" * len(header))
    for level in settings.levels:
        for key, label in CLIENTS:
            rows = results[(key, level)]

            def ratio(other):
                return statistics.median(row["cpu"] / peer["cpu"] for row, peer in zip(rows, results[(other, level)]))

            print(f"{label:<36} {level:>9} {statistics.median(r['requests'] for r in rows):>9.0f}"
                  f" {statistics.median(r['rate'] for r in rows):>9,.0f} {statistics.median(r['cpu'] for r in rows):>10.2f}"
                  f" {ratio('ahc'):>6.2f} {ratio('wrk'):>6.2f} {statistics.median(r['server'] for r in rows):>12.2f}"
                  f" {sum(r['errors'] for r in rows):>6}")


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="5,000 requests a client, 1 s of wrk, one round (CI)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (default 1)")
    parser.add_argument("--count", type=int, help="requests a Swift client makes at every level"
                        " (default 100,000 at 1 in flight, 300,000 at 10 and 100; quick 5,000)")
    parser.add_argument("--seconds", type=int, help="wrk's -d, whole seconds (default 10; quick 1)")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)), help="requests in flight (default 1,10,100)")
    parser.add_argument("--skip-build", "--no-build", action="store_true", dest="skip_build",
                        help="use the release binaries already built")
    parser.add_argument("--bin", help="the directory holding the clients (default: Benchmarks' release bin path)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    settings.seconds = settings.seconds or (1 if settings.quick else 10)
    try:
        settings.levels = [int(level) for level in settings.levels.split(",")]
    except ValueError:
        parser.error("--levels: comma-separated numbers")
    if settings.rounds < 1 or not 1 <= settings.seconds <= 120 or not all(1 <= level <= 1000 for level in settings.levels):
        parser.error("rounds must be at least 1, seconds in [1, 120], levels in [1, 1000]")
    if settings.count is not None and not 1 <= settings.count <= 10_000_000:
        parser.error("--count in [1, 10000000]")
    settings.counts = {level: settings.count or (5_000 if settings.quick else 100_000 if level == 1 else 300_000)
                       for level in settings.levels}
    settings.timeout = 600  # seconds, a Swift client's run at most

    missing = [tool for tool, there in (("wrk", shutil.which("wrk")), ("nginx", os.access(NGINX, os.X_OK)))
               if not there]
    if missing:
        raise RuntimeError(f"{' and '.join(missing)} missing: run `make setup` (it installs wrk and nginx-light)")
    if not settings.skip_build:
        # One product an invocation: given several --product flags, swift build builds only the last.
        for product in PRODUCTS.values():
            log(f"clientbench: swift build -c release --product {product} (Benchmarks/)")
            subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", product],
                           check=True)
    settings.bin = settings.bin or bin_path()
    absent = [product for product in PRODUCTS.values() if not os.path.exists(os.path.join(settings.bin, product))]
    if absent:
        raise RuntimeError(f"{', '.join(absent)} not in {settings.bin}: build them (or drop --skip-build)")
    raise_file_limit()
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    directory = tempfile.mkdtemp(prefix="rxuv-clientbench-")
    started = time.monotonic()
    nginx = None
    try:
        root = make_root(directory)
        nginx = Nginx(pinning, directory, root)
        check_bodies("nginx", nginx.port)
        results = {}
        for round_index in range(settings.rounds):
            run_round(settings, pinning, nginx, results, round_index)
    finally:
        if nginx is not None:
            stop(nginx)
        shutil.rmtree(directory, ignore_errors=True)
    report(results, settings, pinning)
    print(f"\nclientbench: {'quick mode, ' if settings.quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"clientbench: {error}")
        sys.exit(1)
