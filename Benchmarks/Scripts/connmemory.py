#!/usr/bin/env python3
"""Memory a connection costs an echo server: resident memory above idle,
per connection, while N connections ping-pong 64 bytes (netload), for the
README chain (rxuv-echo), C on libuv (uv-echo) and SwiftNIO (nio-echo),
side by side in one run.

    python3 Benchmarks/Scripts/connmemory.py [--connections 1000 10000]
                                             [--rounds 3] [--seconds 2]
                                             [--servers rxuv-echo uv-echo nio-echo]

Each round starts every server afresh, reads its idle RSS (VmRSS, after
100 ms), then runs netload with each connection count in turn and reads
the RSS netload reports at the end of its load. The figure is
(RSS at N - RSS idle) / N, the median over the rounds. The servers run on
one loop (one event loop for SwiftNIO), unpinned.

netload opens at most 10,000 connections, and every process here may hold
at most `ulimit -Hn` descriptors (20,000 on the benchmark machine, which
its container cannot raise), so 10,000 is the largest count this measures.
Uses the release binaries of Benchmarks/ (swift build -c release there).
"""

import argparse
import os
import resource
import select
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(os.path.dirname(HERE), ".build", "release")
ARGV = {
    "rxuv-echo": ["rxuv-echo", "--port", "0"],
    "uv-echo": ["uv-echo", "--port", "0"],
    "nio-echo": ["nio-echo", "--port", "0"],
}


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def start(name):
    argv = [os.path.join(BIN, ARGV[name][0])] + ARGV[name][1:]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready, _, _ = select.select([process.stdout], [], [], 30)
    line = process.stdout.readline() if ready else ""
    if not line.startswith("port "):
        process.kill()
        raise SystemExit(f"connmemory: {name} did not start ({line.strip()!r})")
    return process, int(line.split()[1])


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def load(port, pid, connections, seconds):
    argv = [os.path.join(BIN, "netload"), "--port", str(port), "--server-pid", str(pid),
            "--connections", str(connections), "--seconds", str(seconds), "--warmup", "0.5"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=seconds * 4 + 120)
    if result.returncode != 0:
        raise SystemExit(f"connmemory: netload failed: {result.stderr.strip()}")
    pairs = dict(item.split("=", 1) for item in result.stdout.split() if "=" in item)
    return int(pairs["server_rss_kib"]), float(pairs["rt_per_s"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--servers", nargs="+", default=list(ARGV), choices=list(ARGV))
    settings = parser.parse_args()
    if not 1 <= settings.rounds <= 20 or not 0 < settings.seconds <= 30:
        parser.error("rounds in 1...20, seconds in (0, 30]")
    if any(not 1 <= count <= 10000 for count in settings.connections):
        parser.error("netload opens 1...10,000 connections")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The servers and netload inherit this limit.
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if max(settings.connections) + 64 > hard:
        parser.error(f"{max(settings.connections)} connections need more descriptors than ulimit -Hn ({hard})")

    figures = {}
    for round_index in range(settings.rounds):
        for name in settings.servers:
            process, port = start(name)
            try:
                time.sleep(0.1)
                idle = rss_kib(process.pid)
                for count in settings.connections:
                    loaded, rate = load(port, process.pid, count, settings.seconds)
                    per = (loaded - idle) * 1024 / count
                    figures.setdefault((name, count), []).append((per, idle, loaded, rate))
                    print(f"connmemory: round {round_index + 1} {name} c={count}: idle {idle} KiB, "
                          f"loaded {loaded} KiB, {per:.0f} B a connection, {rate:.0f} rt/s", file=sys.stderr)
            finally:
                stop(process)

    print(f"| server | connections | RSS idle KiB | RSS loaded KiB | B a connection above idle (median of {settings.rounds}) |")
    print("|---|---:|---:|---:|---:|")
    for name in settings.servers:
        for count in settings.connections:
            rows = figures[(name, count)]
            per = statistics.median(row[0] for row in rows)
            idle = statistics.median(row[1] for row in rows)
            loaded = statistics.median(row[2] for row in rows)
            print(f"| {name} | {count:,} | {idle:,.0f} | {loaded:,.0f} | {per:,.0f} |")


if __name__ == "__main__":
    main()
