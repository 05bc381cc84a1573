#!/usr/bin/env python3
"""kv-server against Debian's redis-server under redis-benchmark, in one run.

    Benchmarks/Scripts/kvbench.py            # release build of kv-server, then the comparison (≈ 3 min)
    Benchmarks/Scripts/kvbench.py --quick    # a few thousand requests of each case, once
    Benchmarks/Scripts/kvbench.py --tls      # the same over TLS, beside plain TCP, and handshakes

Each round starts both servers in turn pinned to core 0 (taskset), drives
each with redis-benchmark pinned to core 1: `-t ping,set,get,incr,mset -c 50
-d 64` at `-P 1` and `-P 16`, a fixed `-n`. Reports ops/s, p50 and p99
latency (redis-benchmark's CSV) and the server's CPU time per request (from
/proc/PID/task/*/schedstat around each test), the medians over the rounds,
and the same-run ratios kv-server / redis-server. Then the RSS of each
server holding 100,000 keys of 64 bytes, inserted with redis-cli --pipe.
Everything runs on 127.0.0.1 and stops by itself.

--tls: both servers also serve TLS (one certificate, made by
scripts/tls-test-certificates.py; client certificates not asked for), stay
up side by side for the whole run, and each case runs on one and then the
other, over plain TCP and over TLS (`redis-benchmark --tls`), the order
alternating by round; the table gives ops/s and CPU per request over TLS,
each server's TLS cost (its TLS CPU per request over its plain one), and
the CPU per handshake (`-k 0`: a new connection and handshake per PING),
with each ratio the median of the rounds' own ratios.
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
    """The time the process's threads have spent on a CPU, to the
    nanosecond: the sum of /proc/PID/task/*/schedstat (utime and stime in
    /proc/PID/stat count in clock ticks, a hundredth of a second)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total += int(schedstat.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended between the listing and the read
    return total / 1e9


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
    """Both servers over plain TCP and TLS, and handshakes. Both servers
    stay up for the whole run, pinned to the same core, and each case runs
    on one and then at once on the other (the order alternating by round),
    so that each round's ratio compares two runs seconds apart; the ratios
    reported are the medians of those."""
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="rxuv-kvbench-tls-")
    servers = {}
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tls-test-certificates.py"), folder], check=True)
        requests = {1: 5000 if quick else 100_000, 16: 20_000 if quick else 500_000}
        handshakes = 500 if quick else 5000
        samples = {}  # (server, transport, pipeline, test) -> [row], one per round
        for kind in ("redis", "kv"):
            servers[kind] = start(kind, binary, tls=folder)
        for round in range(rounds):
            order = ("redis", "kv") if round % 2 == 0 else ("kv", "redis")
            for pipeline in (1, 16):
                log(f"kvbench: TLS round {round + 1}/{rounds}, -P {pipeline}")
                for test in ("ping", "set", "get", "incr", "mset"):
                    for transport in ("tcp", "tls"):
                        for kind in order:
                            process, port, tls_port = servers[kind]
                            target, secure = (tls_port, folder) if transport == "tls" else (port, None)
                            for name, row in bench(process.pid, target, test, pipeline, requests[pipeline], tls=secure).items():
                                samples.setdefault((kind, transport, pipeline, name), []).append(row)
            log(f"kvbench: TLS round {round + 1}/{rounds}, handshakes")
            for kind in order:
                process, _, tls_port = servers[kind]
                for name, row in bench(process.pid, tls_port, "ping", 1, handshakes, tls=folder, keepalive=False).items():
                    samples.setdefault((kind, "handshake", 1, name), []).append(row)
    finally:
        for process, _, _ in servers.values():
            process.terminate()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)

    def rows(kind, transport, pipeline, test, field):
        return [row[field] for row in samples[(kind, transport, pipeline, test)]]

    def median(kind, transport, pipeline, test, field):
        return statistics.median(rows(kind, transport, pipeline, test, field))

    def paired(transport, pipeline, test, field):
        """The median over rounds of kv-server's figure over Redis's."""
        return statistics.median(k / r for k, r in zip(rows("kv", transport, pipeline, test, field),
                                                       rows("redis", transport, pipeline, test, field)))

    def cost_ratio(pipeline, test):
        """The median over rounds of kv-server's TLS cost over Redis's."""
        cost = {kind: [tls / tcp for tls, tcp in zip(rows(kind, "tls", pipeline, test, "cpu_us"),
                                                     rows(kind, "tcp", pipeline, test, "cpu_us"))]
                for kind in ("redis", "kv")}
        return statistics.median(k / r for k, r in zip(cost["kv"], cost["redis"]))

    print(f"kv-server ({binary}) and redis-server over TLS (TLS 1.3, the same P-256 certificate) and plain TCP, "
          f"both up and pinned to core 0, redis-benchmark on core 1, -c 50 -d 64; each case on one server and then "
          f"the other, {rounds} rounds; figures are medians, ratios the median of each round's ratio\n")
    print("| test | -P | Redis TLS ops/s | kv-server TLS ops/s | ops ratio | Redis TLS CPU µs/req | kv-server TLS CPU µs/req "
          "| Redis TLS cost | kv-server TLS cost | cost ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pipeline in (1, 16):
        for test in TESTS:
            if ("kv", "tls", pipeline, test) not in samples:
                continue
            r = lambda transport, f: median("redis", transport, pipeline, test, f)
            k = lambda transport, f: median("kv", transport, pipeline, test, f)
            print(f"| {test.upper()} | {pipeline} | {r('tls', 'rps'):,.0f} | {k('tls', 'rps'):,.0f} "
                  f"| {paired('tls', pipeline, test, 'rps'):.2f} | {r('tls', 'cpu_us'):.2f} | {k('tls', 'cpu_us'):.2f} "
                  f"| {r('tls', 'cpu_us') / r('tcp', 'cpu_us'):.2f} | {k('tls', 'cpu_us') / k('tcp', 'cpu_us'):.2f} "
                  f"| {cost_ratio(pipeline, test):.2f} |")
    redis_handshake = median("redis", "handshake", 1, "ping_inline", "cpu_us")
    kv_handshake = median("kv", "handshake", 1, "ping_inline", "cpu_us")
    handshake_ratios = [f"{k / r:.2f}" for k, r in zip(rows("kv", "handshake", 1, "ping_inline", "cpu_us"),
                                                       rows("redis", "handshake", 1, "ping_inline", "cpu_us"))]
    print(f"\nA new connection and handshake per PING (`-k 0`, {handshakes} each): server CPU per handshake "
          f"redis-server {redis_handshake:.0f} µs, kv-server {kv_handshake:.0f} µs; ratio "
          f"{paired('handshake', 1, 'ping_inline', 'cpu_us'):.2f} (rounds: {', '.join(handshake_ratios)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tls", action="store_true", help="the TLS comparison only")
    parser.add_argument("--skip-build", "--no-build", action="store_true", dest="skip_build",
                        help="use the kv-server already built (swift build -c release --product kv-server)")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    requests = {1: 5000 if args.quick else 200_000, 16: 20_000 if args.quick else 1_000_000}

    if not args.skip_build:
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
