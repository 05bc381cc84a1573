#!/usr/bin/env python3
"""The HTTP client's memory while it moves a large body with one side
throttled: resident memory must stay bounded by the watermarks, not grow
with the body.

    Benchmarks/Scripts/clientmemory.py               # release build, then 1 GiB each way (≈ 30 s)
    Benchmarks/Scripts/clientmemory.py --quick       # 64 MiB each way (CI)
    Benchmarks/Scripts/clientmemory.py --skip-build --length 268435456

Three transfers, each by rxuv-http-client (Transfer.swift) against a
Python peer in this script on 127.0.0.1 (a neutral server: it sends as
fast as loopback takes, or reads at a set pace):

- download, consumer throttled: GET /bytes/N; the server writes N bytes as
  fast as it can; the client reads `response.body.values` at --rate.
- upload, server throttled: POST /sink with an `HTTPClientRequestBody.values`
  body whose producer hands out pieces as fast as they are pulled; the
  server reads at --rate.
- upload, producer throttled: the same, the producer at --rate and the
  server reading at full speed.

The client samples its own RSS (/proc/self/statm, every 10 ms) from just
before the request to its end and reports the growth: its peak over its
RSS before. Each transfer runs once with an empty body (what a first
connection and exchange cost the process: the runtime's first uses, libuv's
threads) and once with N bytes; the body's own cost is the difference.
The bound the watermarks set: the response held before its reader
(`responseBufferSize`, 256 KiB), the values' high watermark (256 KiB) and
a read (64 KiB) on the way down; the stream's high watermark and one piece
on the way up. The script fails when a growth passes --bound (8 MiB), so a
body buffered without bound shows as a failure, not a figure.
"""

import argparse
import os
import re
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from netbench import PACKAGE, bin_path, log  # noqa: E402

MIB = 1 << 20
CHUNK = b"b" * MIB


class Peer:
    """A one-connection-at-a-time HTTP/1.1 peer on 127.0.0.1: GET /bytes/N
    answers N bytes; POST /sink reads its Content-Length body (at
    `sink_rate` bytes a second, 0: no pace) and answers the count."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.sink_rate = 0
        self.failure = None
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection):
        try:
            with connection:
                connection.settimeout(120)
                reader = connection.makefile("rb")
                while True:
                    line = reader.readline(8192)
                    if not line:
                        return
                    method, target, _ = line.decode("ascii").split(" ", 2)
                    length = 0
                    while True:
                        field = reader.readline(8192)
                        if field in (b"\r\n", b""):
                            break
                        name, _, value = field.decode("latin-1").partition(":")
                        if name.strip().lower() == "content-length":
                            length = int(value.strip())
                    if method == "GET" and target.startswith("/bytes/"):
                        self.send_bytes(connection, int(target[len("/bytes/"):]))
                    elif method == "POST" and target == "/sink":
                        received = self.sink(reader, length)
                        body = str(received).encode()
                        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                    else:
                        connection.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        except (OSError, ValueError) as error:
            self.failure = f"peer: {error}"

    @staticmethod
    def send_bytes(connection, length):
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % length)
        view = memoryview(CHUNK)
        while length > 0:
            count = min(length, len(CHUNK))
            connection.sendall(view[:count])
            length -= count

    def sink(self, reader, length):
        received, started = 0, time.monotonic()
        while received < length:
            data = reader.read1(min(length - received, 64 * 1024))
            if not data:
                break
            received += len(data)
            if self.sink_rate:
                ahead = received / self.sink_rate - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)
        return received

    def close(self):
        self.listener.close()


def run(client, peer, direction, length, client_rate, sink_rate, timeout):
    """One transfer: (the client's RSS before it in KiB, its growth during it, seconds)."""
    peer.sink_rate = sink_rate
    argv = [client, "--port", str(peer.port), f"--{direction}", str(length), "--rate", str(client_rate)]
    started = time.monotonic()
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{' '.join(argv)}: still running after {timeout:.0f} s") from None
    seconds = time.monotonic() - started
    found = re.fullmatch(r"moved (\d+) rss_before (\d+) rss_peak (\d+)", result.stdout.strip())
    if result.returncode != 0 or not found or int(found.group(1)) != length:
        raise RuntimeError(f"{' '.join(argv)} failed ({result.returncode}): {result.stdout.strip()!r} {result.stderr.strip()!r}")
    if peer.failure:
        raise RuntimeError(peer.failure)
    return int(found.group(2)), int(found.group(3)) - int(found.group(2)), seconds


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="64 MiB each way (CI)")
    parser.add_argument("--length", type=int, help="bytes a transfer (default 1 GiB; quick 64 MiB)")
    parser.add_argument("--rate", type=int, default=256 * MIB, help="the throttled side's bytes a second (default 256 MiB)")
    parser.add_argument("--bound", type=int, default=8 * MIB, help="the RSS growth that fails the run (default 8 MiB)")
    parser.add_argument("--skip-build", "--no-build", action="store_true", dest="skip_build")
    parser.add_argument("--bin", help="the directory holding rxuv-http-client (default: Benchmarks' release bin path)")
    settings = parser.parse_args()
    length = settings.length or (64 * MIB if settings.quick else 1 << 30)
    if not MIB <= length <= 1 << 36 or not MIB <= settings.rate <= 1 << 34:
        parser.error("--length in [1 MiB, 64 GiB], --rate in [1 MiB/s, 16 GiB/s]")
    if not settings.skip_build:
        log("clientmemory: swift build -c release --product rxuv-http-client (Benchmarks/)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", "rxuv-http-client"],
                       check=True)
    client = os.path.join(settings.bin or bin_path(), "rxuv-http-client")
    timeout = 60 + 4 * length / settings.rate
    cases = [
        ("download, consumer throttled", "download", settings.rate, 0),
        ("upload, server throttled", "upload", 0, settings.rate),
        ("upload, producer throttled", "upload", settings.rate, 0),
    ]
    peer = Peer()
    failures = []
    rows = []
    try:
        for label, direction, client_rate, sink_rate in cases:
            _, empty, _ = run(client, peer, direction, 0, client_rate, sink_rate, timeout)
            before, growth, seconds = run(client, peer, direction, length, client_rate, sink_rate, timeout)
            rows.append((label, empty, before, growth, length / MIB / seconds))
            log(f"clientmemory: {label}: RSS +{empty} KiB with no body; {before} KiB before {length // MIB} MiB,"
                f" +{growth} KiB at the peak, {length / MIB / seconds:,.0f} MiB/s")
            if (growth - empty) * 1024 > settings.bound:
                failures.append(f"{label}: the body grew RSS by {growth - empty} KiB, past the bound of"
                                f" {settings.bound // 1024} KiB")
    finally:
        peer.close()
    print(f"\nHTTP client resident memory moving {length // MIB} MiB, the throttled side at {settings.rate // MIB} MiB/s"
          " (rxuv-http-client against a Python peer on 127.0.0.1)")
    header = (f"{'transfer':<30} {'RSS before':>11} {'growth, no body':>15} {'growth':>10} {'the body':>9}"
              f" {'MiB/s':>7}")
    print(header)
    print("-" * len(header))
    for label, empty, before, growth, speed in rows:
        print(f"{label:<30} {before:>7} KiB {empty:>11} KiB {growth:>6} KiB {growth - empty:>5} KiB {speed:>7,.0f}")
    if failures:
        raise RuntimeError("; ".join(failures))


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError) as error:
        log(f"clientmemory: {error}")
        sys.exit(1)
