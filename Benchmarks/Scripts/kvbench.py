#!/usr/bin/env python3
"""kv-server against Debian's redis-server under redis-benchmark, in one run.

    Benchmarks/Scripts/kvbench.py            # release build of kv-server, then the comparison (≈ 3 min)
    Benchmarks/Scripts/kvbench.py --quick    # a few thousand requests of each case, once
    Benchmarks/Scripts/kvbench.py --tls      # the same over TLS, beside plain TCP, and handshakes

Each round starts both servers in turn pinned to core 0 (taskset), drives
each with redis-benchmark pinned to core 1: `-t ping,set,get,incr,mset -c 50
-d 64` at `-P 1` and `-P 16`, a fixed `-n`. Reports ops/s, p50 and p99
latency (redis-benchmark's CSV) and the server's CPU time per request (from
/proc/PID/stat around each test), the medians over the rounds, and the
same-run ratios kv-server / redis-server. Then the RSS of each server holding
100,000 keys of 64 bytes, inserted with redis-cli --pipe. Everything runs on
127.0.0.1 and stops by itself.

--tls: both servers also serve TLS (one certificate, made by
scripts/tls-test-certificates.py; client certificates not asked for), and
each round drives each server over plain TCP and over TLS
(`redis-benchmark --tls`); the table gives ops/s and CPU per request over
TLS, each server's TLS cost (its TLS CPU per request over its plain one),
and the CPU per handshake (`-k 0`: a new connection and handshake per PING).
"""

import argparse
import csv
import io
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTS = ["ping_inline", "ping_mbulk", "set", "get", "incr", "mset"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def log(message):
    print(message, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(port):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16) == b"+PONG\r\n":
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"no server on port {port}")


def start(kind, binary, threads=1, pinned=True, tls=None):
    """Starts a server; with `tls` (the certificate folder) it also serves
    TLS, on the port returned third."""
    port = free_port()
    tls_port = free_port() if tls else None
    if kind == "redis":
        argv = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--databases", "1", "--logfile", ""]
    else:
        argv = [binary, "--port", str(port), "--threads", str(threads)]
    if tls:
        argv += ["--tls-port", str(tls_port), "--tls-cert-file", f"{tls}/server.pem", "--tls-key-file", f"{tls}/server.key",
                 "--tls-auth-clients", "no"]
    process = subprocess.Popen((["taskset", "-c", "0"] if pinned else []) + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_ready(port)
    if tls:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", tls_port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no TLS port {tls_port}")
                time.sleep(0.05)
        return process, port, tls_port
    return process, port


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def bench(pid, port, test, pipeline, requests, pinned=True, tls=None, keepalive=True):
    before = cpu_seconds(pid)
    secure = ["--tls", "--cacert", f"{tls}/ca.pem", "--sni", "localhost"] if tls else []
    result = subprocess.run(
        (["taskset", "-c", "1"] if pinned else []) + ["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-t", test, "-c", "50",
         "-P", str(pipeline), "-d", "64", "-n", str(requests), "-r", "100000", "--csv", *secure]
        + ([] if keepalive else ["-k", "0"]),
        capture_output=True, text=True, timeout=300, check=True)
    cpu = cpu_seconds(pid) - before
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    out = {}
    for row in rows:
        name = row["test"].lower().replace(" ", "_")  # "ping_inline", "set", "mset_(10_keys)"...
        name = "mset" if name.startswith("mset") else name
        out[name] = {"rps": float(row["rps"]), "p50": float(row["p50_latency_ms"]), "p99": float(row["p99_latency_ms"]),
                     "cpu_us": cpu * 1e6 / (requests * len(rows))}
    return out


def memory(binary):
    results = {}
    for kind in ("redis", "kv"):
        process, port = start(kind, binary)
        try:
            idle = rss_kib(process.pid)
            commands = b"".join(b"*3\r\n$3\r\nSET\r\n$%d\r\nkey:%d\r\n$64\r\n%s\r\n" % (len(b"key:%d" % i), i, b"v" * 64)
                                for i in range(100_000))
            subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=commands, capture_output=True, check=True, timeout=120)
            time.sleep(0.5)
            results[kind] = (idle, rss_kib(process.pid))
        finally:
            process.terminate()
            process.wait()
    return results


def tls_comparison(binary, rounds, quick):
    """Both servers over plain TCP and TLS in each round, and handshakes."""
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="rxuv-kvbench-tls-")
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tls-test-certificates.py"), folder], check=True)
        requests = {1: 5000 if quick else 100_000, 16: 20_000 if quick else 500_000}
        handshakes = 500 if quick else 5000
        samples = {}  # (server, transport, pipeline, test) -> [row]
        for round in range(rounds):
            for kind in ("redis", "kv"):
                process, port, tls_port = start(kind, binary, tls=folder)
                try:
                    for pipeline in (1, 16):
                        log(f"kvbench: TLS round {round + 1}/{rounds}, {kind}, -P {pipeline}")
                        for test in ("ping", "set", "get", "incr", "mset"):
                            for transport, target, secure in (("tcp", port, None), ("tls", tls_port, folder)):
                                for name, row in bench(process.pid, target, test, pipeline, requests[pipeline], tls=secure).items():
                                    samples.setdefault((kind, transport, pipeline, name), []).append(row)
                    log(f"kvbench: TLS round {round + 1}/{rounds}, {kind}, handshakes")
                    for name, row in bench(process.pid, tls_port, "ping", 1, handshakes, tls=folder, keepalive=False).items():
                        samples.setdefault((kind, "handshake", 1, name), []).append(row)
                finally:
                    process.terminate()
                    process.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    def median(kind, transport, pipeline, test, field):
        return statistics.median(row[field] for row in samples[(kind, transport, pipeline, test)])

    print(f"kv-server ({binary}) and redis-server over TLS (TLS 1.3, the same P-256 certificate) and plain TCP, "
          f"each pinned to core 0, redis-benchmark on core 1, -c 50 -d 64; medians of {rounds} rounds\n")
    print("| test | -P | Redis TLS ops/s | kv-server TLS ops/s | ratio | Redis TLS CPU µs/req | kv-server TLS CPU µs/req "
          "| Redis TLS cost | kv-server TLS cost | cost ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pipeline in (1, 16):
        for test in TESTS:
            if ("kv", "tls", pipeline, test) not in samples:
                continue
            r = lambda transport, f: median("redis", transport, pipeline, test, f)
            k = lambda transport, f: median("kv", transport, pipeline, test, f)
            redis_cost = r("tls", "cpu_us") / r("tcp", "cpu_us")
            kv_cost = k("tls", "cpu_us") / k("tcp", "cpu_us")
            print(f"| {test.upper()} | {pipeline} | {r('tls', 'rps'):,.0f} | {k('tls', 'rps'):,.0f} | {k('tls', 'rps') / r('tls', 'rps'):.2f} "
                  f"| {r('tls', 'cpu_us'):.2f} | {k('tls', 'cpu_us'):.2f} | {redis_cost:.2f} | {kv_cost:.2f} | {kv_cost / redis_cost:.2f} |")
    redis_handshake = median("redis", "handshake", 1, "ping_inline", "cpu_us")
    kv_handshake = median("kv", "handshake", 1, "ping_inline", "cpu_us")
    print(f"\nA new connection and handshake per PING (`-k 0`, {handshakes} each): server CPU per handshake "
          f"redis-server {redis_handshake:.0f} µs, kv-server {kv_handshake:.0f} µs, ratio {kv_handshake / redis_handshake:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tls", action="store_true", help="the TLS comparison only")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    requests = {1: 5000 if args.quick else 200_000, 16: 20_000 if args.quick else 1_000_000}

    log("kvbench: building kv-server (release)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "kv-server"], cwd=ROOT, check=True, stdout=sys.stderr)
    binary = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout.strip(), "kv-server")
    if args.tls:
        tls_comparison(binary, rounds, args.quick)
        return
    samples = {}  # (server, pipeline, test) -> [row]
    for round in range(rounds):
        for kind in ("redis", "kv"):
            process, port = start(kind, binary)
            try:
                for pipeline in (1, 16):
                    log(f"kvbench: round {round + 1}/{rounds}, {kind}, -P {pipeline}")
                    for test in ("ping", "set", "get", "incr", "mset"):
                        for name, row in bench(process.pid, port, test, pipeline, requests[pipeline]).items():
                            samples.setdefault((kind, pipeline, name), []).append(row)
            finally:
                process.terminate()
                process.wait()

    def median(kind, pipeline, test, field):
        return statistics.median(row[field] for row in samples[(kind, pipeline, test)])

    print(f"kv-server ({binary}) and redis-server {subprocess.run(['redis-server', '--version'], capture_output=True, text=True).stdout.split()[2]}, "
          f"each pinned to core 0, redis-benchmark on core 1, -c 50 -d 64; medians of {rounds} rounds\n")
    print("| test | -P | Redis ops/s | kv-server ops/s | ratio | Redis p50 / p99 ms | kv-server p50 / p99 ms | p99 ratio | Redis CPU µs/req | kv-server CPU µs/req |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pipeline in (1, 16):
        for test in TESTS:
            if ("kv", pipeline, test) not in samples:
                continue
            r, k = (lambda f: median("redis", pipeline, test, f)), (lambda f: median("kv", pipeline, test, f))
            print(f"| {test.upper()} | {pipeline} | {r('rps'):,.0f} | {k('rps'):,.0f} | {k('rps') / r('rps'):.2f} "
                  f"| {r('p50'):.3f} / {r('p99'):.3f} | {k('p50'):.3f} / {k('p99'):.3f} | {k('p99') / r('p99'):.2f} "
                  f"| {r('cpu_us'):.2f} | {k('cpu_us'):.2f} |")
    # The shared keyspace across loops: kv-server on 1 and on 2 loops, not
    # pinned (server and redis-benchmark share the 2 cores), same load.
    shared = {}
    for round in range(rounds):
        for threads in (1, 2):
            log(f"kvbench: round {round + 1}/{rounds}, kv-server --threads {threads}, not pinned")
            process, port = start("kv", binary, threads=threads, pinned=False)
            try:
                for test in ("set", "get"):
                    for name, row in bench(process.pid, port, test, 16, requests[16], pinned=False).items():
                        shared.setdefault((threads, name), []).append(row)
            finally:
                process.terminate()
                process.wait()
    print("\nkv-server on 1 and 2 loops (one keyspace behind one lock), nothing pinned, -c 50 -P 16:\n")
    print("| test | 1 loop ops/s | 2 loops ops/s | ratio | 1 loop CPU µs/req | 2 loops CPU µs/req | ratio |")
    print("|---|---|---|---|---|---|---|")
    for test in ("set", "get"):
        one = {f: statistics.median(row[f] for row in shared[(1, test)]) for f in ("rps", "cpu_us")}
        two = {f: statistics.median(row[f] for row in shared[(2, test)]) for f in ("rps", "cpu_us")}
        print(f"| {test.upper()} | {one['rps']:,.0f} | {two['rps']:,.0f} | {two['rps'] / one['rps']:.2f} "
              f"| {one['cpu_us']:.2f} | {two['cpu_us']:.2f} | {two['cpu_us'] / one['cpu_us']:.2f} |")

    log("kvbench: memory with 100,000 keys")
    rss = memory(binary)
    print("\n| server | idle RSS | RSS with 100,000 keys (64-byte values) | per key |")
    print("|---|---|---|---|")
    for kind, label in (("redis", "redis-server"), ("kv", "kv-server")):
        idle, full = rss[kind]
        print(f"| {label} | {idle / 1024:.1f} MiB | {full / 1024:.1f} MiB | {(full - idle) * 1024 / 100_000:.0f} B |")


if __name__ == "__main__":
    main()
