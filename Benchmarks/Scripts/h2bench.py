#!/usr/bin/env python3
"""The HTTP/2 benchmark: RxUV's http-server --http2 against nginx (Debian's,
one worker, its http_v2 module) and Hummingbird 2's HTTP/2 on one
event-loop thread (hb-http2), in one run, over cleartext (h2c, prior
knowledge) and over TLS (ALPN h2).

    Benchmarks/Scripts/h2bench.py                 # release builds, then the comparison (≈ 6 min)
    Benchmarks/Scripts/h2bench.py --quick         # 1 s of every case, once (for CI)
    Benchmarks/Scripts/h2bench.py --servers nginx,rxuv --transports h2c --skip-build

Every round starts the servers, each pinned to one core, and drives them
with `h2load -c 100 -m 10` (100 connections, 10 streams each at once)
pinned to the other: GET /plaintext, /json and /static/file64k.bin, the
bodies httpbench.py checks (each server's answers are checked over HTTP/2
before it is measured). Each case runs on every server back to back, in
an order that turns by one each round. nginx runs with `access_log off`
and `keepalive_requests` raised, so that no server sends a GOAWAY in the
middle of a run (RxUV and Hummingbird set no such limit on HTTP/2);
http-server runs with `--no-request-metrics`.

Reports the medians of req/s, h2load's mean time per request and the
server's CPU per request (utime + stime from /proc, all threads), then the
same-run ratios against the targets: CPU per request ≤ 1.3× nginx's over
h2c and over TLS, req/s ≥ 3× Hummingbird's. Everything runs on 127.0.0.1
and stops by itself; h2load comes from Debian's nghttp2-client.
"""

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from httpbench import (  # noqa: E402
    CLOCK_TICKS, JSON_BODY, NGINX, PLAINTEXT_BODY, ROOT, STATIC_BODY, STATIC_NAME, Listening, Nginx, cpu_ticks,
    make_root, nginx_config, raise_file_limit, root_bin_path, stop)
from netbench import PACKAGE, Pinning, bin_path, log  # noqa: E402

SERVERS = [
    ("nginx", "nginx, 1 worker"),
    ("hb", "Hummingbird 2 HTTP/2, 1 EventLoop"),
    ("rxuv", "RxUV http-server --http2, 1 loop"),
]
TRANSPORTS = ["h2c", "tls"]
# (key, label, path)
ROWS = [
    ("plaintext", "/plaintext", "/plaintext"),
    ("json", "/json (1 KiB)", "/json"),
    ("static", "/static 64 KiB", "/static/" + STATIC_NAME),
]
CPU_TARGET = 1.3  # CPU per request, RxUV / nginx: at most this
RATE_TARGET = 3.0  # req/s, RxUV / Hummingbird: at least this


def nginx_h2_config(directory, port, root, certificates):
    """httpbench's nginx.conf, listening with http2 (and ssl over TLS),
    keep-alive requests unbounded for the run."""
    config = nginx_config(directory, port, root)
    listen = f"listen 127.0.0.1:{port};"
    if certificates:
        replacement = (f"listen 127.0.0.1:{port} ssl http2;\n        ssl_certificate {certificates}/server.pem;\n"
                       f"        ssl_certificate_key {certificates}/server.key;\n        keepalive_requests 100000000;")
    else:
        replacement = f"listen 127.0.0.1:{port} http2;\n        keepalive_requests 100000000;"
    assert listen in config
    return config.replace(listen, replacement)


def start(key, transport, settings, pinning, directory, root, certificates):
    tls = certificates if transport == "tls" else None
    if key == "nginx":
        return Nginx(pinning, directory, root, lambda d, p, r: nginx_h2_config(d, p, r, tls))
    if key == "hb":
        extra = ["--tls", f"{tls}/server.pem", f"{tls}/server.key"] if tls else []
        return Listening("hb-http2", pinning.server([os.path.join(settings.hb_bin, "hb-http2"), "--port", "0", "--root", root]
                                                    + extra), directory)
    extra = ["--tls-cert", f"{tls}/server.pem", "--tls-key", f"{tls}/server.key"] if tls else []
    return Listening("rxuv", pinning.server([os.path.join(settings.rxuv_bin, "http-server"), "--http2", "--port", "0", "--threads", "1",
                                            "--root", root, "--no-request-metrics"] + extra), directory)


def url(transport, port, path):
    return f"{'https' if transport == 'tls' else 'http'}://127.0.0.1:{port}{path}"


def check_bodies(key, transport, port, certificates):
    """Each route's status and bytes over HTTP/2 (curl), so that every server is measured on the same answers."""
    for path, body in (("/plaintext", PLAINTEXT_BODY), ("/json", JSON_BODY), ("/static/" + STATIC_NAME, STATIC_BODY)):
        flags = ["--http2", "--cacert", f"{certificates}/ca.pem"] if transport == "tls" else ["--http2-prior-knowledge"]
        result = subprocess.run(["curl", "-sS", *flags, "-w", "\n%{http_code} %{http_version}", url(transport, port, path)],
                                capture_output=True, timeout=10)
        got, _, tail = result.stdout.rpartition(b"\n")
        if result.returncode != 0 or tail != b"200 2" or got != body:
            raise RuntimeError(f"{key} ({transport}): GET {path} answered {tail!r} with {len(got)} bytes; expected 200 over HTTP/2 "
                               f"with {len(body)} ({result.stderr.decode().strip()})")


def parse_h2load(output):
    """req/s, requests done and failed, and the mean time per request (µs) from h2load."""
    rate = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", output)
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", output)
    mean = re.search(r"time for request:\s+\S+\s+\S+\s+(\S+)", output)
    if not (rate and done and mean):
        raise ValueError(f"not h2load's output:\n{output}")
    units = {"us": 1.0, "ms": 1e3, "s": 1e6}
    found = re.fullmatch(r"([\d.]+)(us|ms|s)", mean.group(1))
    return {"rate": float(rate.group(1)), "requests": int(done.group(2)), "failed": int(done.group(3)) + int(done.group(4)),
            "timeout": int(done.group(5)), "mean": float(found.group(1)) * units[found.group(2)]}


def run_h2load(pinning, server, transport, path, seconds):
    """One h2load run; the server's CPU per request from its ticks around it."""
    argv = pinning.client(["h2load", "-c", "100", "-m", "10", "-t", "1", "-D", str(seconds), url(transport, server.port, path)])
    before = cpu_ticks(server.process.pid)
    result = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60)
    ticks = cpu_ticks(server.process.pid) - before
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    record = parse_h2load(result.stdout)
    record["cpu"] = ticks / CLOCK_TICKS * 1e6 / max(record["requests"], 1)
    return record


def run_round(settings, pinning, directory, root, certificates, results, round_index):
    turn = round_index % len(settings.servers)
    order = settings.servers[turn:] + settings.servers[:turn]
    for transport in settings.transports:
        servers = {}
        try:
            for key in settings.servers:
                servers[key] = start(key, transport, settings, pinning, directory, root, certificates)
                check_bodies(key, transport, servers[key].port, certificates)
            records = {key: {} for key in order}
            for row, _, path in ROWS:
                for key in order:
                    for name, value in run_h2load(pinning, servers[key], transport, path, settings.seconds).items():
                        records[key][f"{row}.{name}"] = value
        finally:
            for server in servers.values():
                stop(server)
        for key in settings.servers:
            results.setdefault((transport, key), []).append(records[key])
            log(f"h2bench: round {round_index + 1}: {transport} {key}: " + " ".join(
                f"{row}={records[key][row + '.rate']:,.0f}/s,{records[key][row + '.cpu']:.2f}µs" for row, _, _ in ROWS))


def report(results, settings, pinning):
    labels = dict(SERVERS)
    nginx_version = subprocess.run([NGINX, "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
    h2load_version = subprocess.run(["h2load", "--version"], capture_output=True, text=True).stdout.split()[-1]
    placement = (f"servers pinned to core {pinning.server_core}, h2load to core {pinning.client_core}"
                 if pinning.enabled else "not pinned")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {placement}; nginx {nginx_version}, "
          f"h2load {h2load_version} (`-c 100 -m 10 -t 1`); {settings.rounds} round(s) of {settings.seconds} s per case, medians.\n")
    print("| transport | case | server | req/s | mean ms/req | CPU µs/req | failed | timeouts |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for transport in settings.transports:
        for row, label, _ in ROWS:
            for key in settings.servers:
                runs = results[(transport, key)]
                print(f"| {transport} | {label} | {labels[key]} | {statistics.median(r[row + '.rate'] for r in runs):,.0f} "
                      f"| {statistics.median(r[row + '.mean'] for r in runs) / 1e3:.3f} "
                      f"| {statistics.median(r[row + '.cpu'] for r in runs):.2f} "
                      f"| {max(r[row + '.failed'] for r in runs)} | {max(r[row + '.timeout'] for r in runs)} |")

    def paired(transport, top, bottom, name):
        pairs = zip(results[(transport, top)], results[(transport, bottom)])
        ratios = [a[name] / b[name] for a, b in pairs if b[name] > 0]
        return statistics.median(ratios) if ratios else float("nan")

    def mark(ok):
        return "·" if settings.quick else ("✓" if ok else "✗")

    if "rxuv" not in settings.servers:
        return
    print(f"\nSame-run ratios (median of each round's ratio) and the targets: CPU per request RxUV / nginx ≤ {CPU_TARGET}, "
          f"req/s RxUV / Hummingbird ≥ {RATE_TARGET}.\n")
    print("| transport | case | CPU/req RxUV / nginx | req/s RxUV / Hummingbird |")
    print("|---|---|---:|---:|")
    for transport in settings.transports:
        for row, label, _ in ROWS:
            cells = []
            if "nginx" in settings.servers:
                cpu = paired(transport, "rxuv", "nginx", row + ".cpu")
                cells.append(f"{cpu:.2f} {mark(cpu <= CPU_TARGET)}")
            else:
                cells.append("–")
            if "hb" in settings.servers:
                rate = paired(transport, "rxuv", "hb", row + ".rate")
                cells.append(f"{rate:.2f} {mark(rate >= RATE_TARGET)}")
            else:
                cells.append("–")
            print(f"| {transport} | {label} | " + " | ".join(cells) + " |")


def build(servers):
    if "hb" in servers:
        log("h2bench: swift build -c release --product hb-http2 (Benchmarks/)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", "hb-http2"], check=True)
    if "rxuv" in servers:
        log("h2bench: swift build -c release --product http-server")
        subprocess.run(["swift", "build", "-c", "release", "--product", "http-server"], cwd=ROOT, check=True)


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 s of every case, once (CI)")
    parser.add_argument("--rounds", type=int, help="rounds (default 3; quick 1)")
    parser.add_argument("--seconds", type=int, help="h2load's -D per case (default 10; quick 1)")
    parser.add_argument("--servers", default="nginx,hb,rxuv", help="comma-separated, from nginx, hb, rxuv")
    parser.add_argument("--transports", default="h2c,tls", help="comma-separated, from h2c, tls")
    parser.add_argument("--skip-build", action="store_true", help="use the release binaries already built")
    parser.add_argument("--hb-bin", help="the directory holding hb-http2 (default: Benchmarks' release bin path)")
    parser.add_argument("--rxuv-bin", help="the directory holding http-server (default: the root package's release bin path)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    settings.rounds = settings.rounds or (1 if settings.quick else 3)
    settings.seconds = settings.seconds or (1 if settings.quick else 10)
    known = [key for key, _ in SERVERS]
    asked, transports = settings.servers.split(","), settings.transports.split(",")
    if not set(asked) <= set(known) or not set(transports) <= set(TRANSPORTS):
        parser.error(f"--servers from {', '.join(known)}; --transports from {', '.join(TRANSPORTS)}")
    settings.servers = [key for key in known if key in asked]
    settings.transports = [key for key in TRANSPORTS if key in transports]
    if not shutil.which("h2load"):
        raise RuntimeError("h2load missing: run `make setup` (it installs nghttp2-client)")
    if not settings.skip_build:
        build(settings.servers)
    if "hb" in settings.servers:
        settings.hb_bin = settings.hb_bin or bin_path()
    if "rxuv" in settings.servers:
        settings.rxuv_bin = settings.rxuv_bin or root_bin_path()
    raise_file_limit()
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    directory = tempfile.mkdtemp(prefix="rxuv-h2bench-")
    started = time.monotonic()
    try:
        root = make_root(directory)
        certificates = os.path.join(directory, "certificates")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tls-test-certificates.py"), certificates],
                       check=True, capture_output=True)
        os.chmod(certificates, 0o755)
        for name in os.listdir(certificates):
            os.chmod(os.path.join(certificates, name), 0o644)
        results = {}
        for round_index in range(settings.rounds):
            run_round(settings, pinning, directory, root, certificates, results, round_index)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    report(results, settings, pinning)
    print(f"\nh2bench: {'quick mode, ' if settings.quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"h2bench: {error}")
        sys.exit(1)
