#!/usr/bin/env python3
"""The TLS benchmarks: RxUVTLS's echo against a TLS echo in plain C on libuv
and OpenSSL 3 with memory BIOs (the floor) and SwiftNIO over NIOSSL on one
event-loop thread, in one run.

    Benchmarks/Scripts/tlsbench.py            # release build, then the comparison (≈ 3 min)
    Benchmarks/Scripts/tlsbench.py --quick    # a fraction of a second of every case, once (CI runs this)

Every round starts each server in turn (C, RxUV, SwiftNIO) pinned to one
core, with the same certificate (P-256, made by
scripts/tls-test-certificates.py), TLS 1.3, and drives it with `tlsload`
(C on epoll with OpenSSL) pinned to the other: new connections with a full
handshake each (no resumption) at 10 connections, key exchange X25519 and
P-256; 1 MiB-chunk throughput on one connection; 64-byte ping-pong at 100
connections. Reports the medians, the server's CPU per handshake, per GiB
and per round trip (from /proc/PID/task/*/schedstat), and the same-run
ratios (the median of each round's ratio) with the targets: ≥ 0.9× the C
floor and ahead of SwiftNIO on each.
Everything runs on 127.0.0.1 and stops by itself.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from netbench import PACKAGE, Pinning, Server, bin_path, log, number, parse_pairs  # noqa: E402

ROOT = os.path.dirname(PACKAGE)
PRODUCTS = ["tlsload", "uv-tls-echo", "rxuv-tls-echo", "nio-tls-echo"]
SERVERS = [
    ("c", "C on libuv + OpenSSL, memory BIOs", "uv-tls-echo"),
    ("rxuv", "RxUV (README chain over TLS)", "rxuv-tls-echo"),
    ("nio", "SwiftNIO + NIOSSL, 1 EventLoop", "nio-tls-echo"),
]
# (key, label, tlsload arguments, the figures kept: {record name: tlsload key})
CASES = [
    ("hs-x25519", "handshakes/s, X25519, c=10", ["--handshakes", "--connections", "10", "--groups", "X25519"],
     {"rate": "handshakes_per_s", "cpu": "server_cpu_us_per_handshake"}),
    ("hs-p256", "handshakes/s, P-256, c=10", ["--handshakes", "--connections", "10", "--groups", "P-256"],
     {"rate": "handshakes_per_s", "cpu": "server_cpu_us_per_handshake"}),
    ("throughput", "MiB/s, 1 connection", ["--throughput", "--connections", "1"],
     {"rate": "mib_per_s", "cpu": "server_cpu_ms_per_gib"}),
    ("rt100", "round trips/s, c=100", ["--connections", "100"],
     {"rate": "rt_per_s", "cpu": "server_cpu_us_per_rt", "p99": "p99_us"}),
]


def build():
    log("tlsbench: swift build -c release (Benchmarks/)")
    for product in PRODUCTS:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", product], check=True)


def run_round(bins, pinning, certificates, settings, results, round_index):
    for key, _, binary in SERVERS:
        server = Server(pinning.server([os.path.join(bins, binary), "--cert", f"{certificates}/server.pem",
                                        "--key", f"{certificates}/server.key"]))
        try:
            time.sleep(0.1)
            record = {}
            for case, _, arguments, figures in CASES:
                argv = pinning.client([os.path.join(bins, "tlsload"), "--port", str(server.port), "--server-pid",
                                       str(server.process.pid), "--ca", f"{certificates}/ca.pem",
                                       "--seconds", str(settings.seconds), "--warmup", str(settings.warmup)] + arguments)
                result = subprocess.run(argv, capture_output=True, text=True, timeout=settings.seconds * 4 + 60)
                if result.returncode != 0:
                    raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}")
                pairs = parse_pairs(result.stdout)
                for name, field in figures.items():
                    record[f"{case}.{name}"] = number(pairs, field)
        finally:
            server.stop()
        results.setdefault(key, []).append(record)
        log(f"tlsbench: round {round_index + 1}: {key}: " + " ".join(f"{name}={value:.1f}" for name, value in record.items()))


def median(results, key, name):
    return statistics.median(record[name] for record in results[key])


def paired(results, top, bottom, name):
    ratios = [a[name] / b[name] for a, b in zip(results[top], results[bottom]) if b[name] > 0]
    return statistics.median(ratios) if ratios else float("nan")


def report(results, settings, quick):
    print(f"TLS 1.3, one P-256 certificate; server pinned to core {settings.server_core}, tlsload to core "
          f"{settings.client_core}; {settings.rounds} round(s), {settings.seconds} s per case, medians.\n")
    print("| server | " + " | ".join(label for _, label, _, _ in CASES) + " | p99 µs c=100 |")
    print("|---|" + "---|" * (len(CASES) + 1))
    for key, label, _ in SERVERS:
        cells = [f"{median(results, key, case + '.rate'):,.0f}" for case, _, _, _ in CASES]
        print(f"| {label} | " + " | ".join(cells) + f" | {median(results, key, 'rt100.p99'):,.0f} |")
    print("\nServer CPU: µs per handshake, ms per GiB, µs per round trip (lower is better)\n")
    print("| server | " + " | ".join(label for _, label, _, _ in CASES) + " |")
    print("|---|" + "---|" * len(CASES))
    for key, label, _ in SERVERS:
        cells = [f"{median(results, key, case + '.cpu'):,.2f}" for case, _, _, _ in CASES]
        print(f"| {label} | " + " | ".join(cells) + " |")

    def mark(ok):
        return "·" if quick else ("✓" if ok else "✗")

    print("\nSame-run ratios (median of each round's ratio). Rate: RxUV / C ≥ 0.9 and RxUV / NIO > 1; "
          "CPU: RxUV / C ≤ 1.11 (the inverse of 0.9) and RxUV / NIO < 1.\n")
    print("| case | rate RxUV / C | rate RxUV / NIO | CPU RxUV / C | CPU RxUV / NIO |")
    print("|---|---|---|---|---|")
    for case, label, _, _ in CASES:
        rate_c, rate_nio = paired(results, "rxuv", "c", case + ".rate"), paired(results, "rxuv", "nio", case + ".rate")
        cpu_c, cpu_nio = paired(results, "rxuv", "c", case + ".cpu"), paired(results, "rxuv", "nio", case + ".cpu")
        print(f"| {label} | {rate_c:.2f} {mark(rate_c >= 0.9)} | {rate_nio:.2f} {mark(rate_nio > 1)} "
              f"| {cpu_c:.2f} {mark(cpu_c <= 1 / 0.9)} | {cpu_nio:.2f} {mark(cpu_nio < 1)} |")


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a fraction of a second of every case, once (CI)")
    parser.add_argument("--rounds", type=int, help="rounds (default 5; quick 1)")
    parser.add_argument("--seconds", type=float, help="measured seconds per case (default 2; quick 0.2)")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries already built")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    settings.rounds = settings.rounds or (1 if settings.quick else 5)
    settings.seconds = settings.seconds or (0.2 if settings.quick else 2.0)
    settings.warmup = 0.05 if settings.quick else 0.3
    if not settings.no_build:
        build()
    bins = bin_path()
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    certificates = tempfile.mkdtemp(prefix="rxuv-tlsbench-")
    started = time.monotonic()
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tls-test-certificates.py"), certificates], check=True)
        results = {}
        for round_index in range(settings.rounds):
            run_round(bins, pinning, certificates, settings, results, round_index)
    finally:
        shutil.rmtree(certificates, ignore_errors=True)
    report(results, settings, settings.quick)
    print(f"\ntlsbench: {'quick mode, ' if settings.quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"tlsbench: {error}")
        sys.exit(1)
