#!/usr/bin/env python3
"""RxUV's performance figures, held: instructions and allocations per operation.

    thresholds.py [--bench-bin DIR] [--main-bin DIR] [--file FILE]
                  [--case PREFIX ...] [--update] [--runs N] [--jobs N] [--list]

Counts every case under callgrind (release builds; instructions are
repeatable on a shared machine where times are not) and compares each
figure with the committed thresholds file of this Swift version
(Benchmarks/Thresholds/swift-MAJOR.MINOR.json). Fails when a case takes
more than the file's instruction tolerance (+3 %) above its threshold, or
more allocations per operation than its threshold plus the allocation
tolerance (0.25: any added allocation per operation fails). `--update`
writes the measured figures as the thresholds instead (a change that
improves a figure lowers its threshold in the same commit). `--runs N`
counts each case N times and prints the spread. `--jobs N` counts N
cases side by side (default 2): instructions do not depend on timing.

Every case does the same work at two sizes, n and 2n operations, and
reports (I(2n) - I(n)) / n: what is fixed per run (the process starting,
connecting, the first use of a path, the dump itself) cancels, so what is
left is the cost of one more operation. A server is counted through vgdb
(zero, then n or 2n operations from a client in this process, then dump);
a process case runs twice. A client drives one connection in lockstep (one
request, then its whole answer), so a run is a fixed count of reads and
writes, not a timed window.

BENCH_BIN defaults to Benchmarks/.build/release, MAIN_BIN (kv-server) to
.build/release; `make benchmarks-thresholds` builds both and runs this.
"""

import argparse
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_mallocs import malloc_calls  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCHMARKS)


# -- callgrind ---------------------------------------------------------------


def totals(dump):
    """(instructions, malloc calls) of a callgrind dump."""
    with open(dump, errors="replace") as lines:
        for line in lines:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1]), malloc_calls(dump)
    raise RuntimeError(f"{dump}: no totals line")


def stripped(work, path):
    """A copy of `path` without debug info: valgrind 3.19 cannot read the
    DWARF 5 Swift 6.3 emits (symbols stay)."""
    if not os.path.exists(path):
        raise SystemExit(f"thresholds: {path} is missing; build it first (make benchmarks-thresholds builds everything)")
    copy = os.path.join(work, os.path.basename(path))
    if not os.path.exists(copy):
        shutil.copy(path, copy)
        subprocess.run(["strip", "--strip-debug", copy], check=True)
    return copy


def process_cost(work, argv_for, n):
    """Per-operation cost of a program that does `n` operations and exits."""
    counted = []
    for size in (n, 2 * n):
        # Named by the program and the size: cases run side by side (--jobs).
        out = os.path.join(work, f"process.{os.path.basename(argv_for(size)[0])}.{threading.get_ident()}.{size}.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv_for(size),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        counted.append(totals(out))
        os.remove(out)
    return per_operation(counted, n)


def per_operation(counted, n):
    (i1, m1), (i2, m2) = counted
    return {"instructions": round((i2 - i1) / n), "allocations": round((m2 - m1) / n, 2)}


class Server:
    """A server under callgrind, counted through vgdb between operations."""

    def __init__(self, work, name, argv, port=None, env=None):
        self.work, self.name = work, name
        self.out = os.path.join(work, f"{name}.out")
        self.log = open(os.path.join(work, f"{name}.log"), "w")
        self.port = port
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}"] + argv,
            stdout=subprocess.PIPE if port is None else self.log, stderr=self.log, text=True,
            env=dict(os.environ, **(env or {})))
        if port is None:
            line = self.process.stdout.readline()
            match = re.search(r"port (\d+)", line)
            if not match:
                self.stop()
                raise RuntimeError(f"{name}: did not say its port ({line.strip()!r}); log in {self.log.name}")
            self.port = int(match.group(1))
        self._wait_listening()
        self.dumps = 0

    def _wait_listening(self):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited under valgrind; log in {self.log.name}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not listen on {self.port}")

    def _vgdb(self, command):
        subprocess.run(["vgdb", f"--pid={self.process.pid}", command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=60)

    def count(self, work_of):
        """Instructions and mallocs of `work_of()` alone."""
        time.sleep(0.2)  # what the last operation left (a close) is done
        self._vgdb("zero")
        work_of()
        time.sleep(0.2)
        self._vgdb("dump")
        self.dumps += 1
        dump = f"{self.out}.{self.dumps}"
        for _ in range(100):
            if os.path.exists(dump):
                try:
                    counted = totals(dump)
                    os.remove(dump)
                    return counted
                except RuntimeError:
                    pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name}: no dump {dump}")

    def cost(self, operation, n, warmup):
        """Per-operation cost of `operation(count)` after `warmup` uncounted."""
        operation(warmup)
        return per_operation([self.count(lambda: operation(n)), self.count(lambda: operation(2 * n))], n)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# -- clients: one connection, in lockstep --------------------------------------


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def receive_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise RuntimeError("the server closed the connection")
        data += chunk
    return data


def echo(port, message=b"x" * 64):
    def run(count):
        with connect(port) as sock:
            for _ in range(count):
                sock.sendall(message)
                if receive_exactly(sock, len(message)) != message:
                    raise RuntimeError("echo: a different answer")
    return run


def connections(port, message=b"x" * 64):
    def run(count):
        for _ in range(count):
            with connect(port) as sock:
                sock.sendall(message)
                if receive_exactly(sock, len(message)) != message:
                    raise RuntimeError("connection: a different answer")
    return run


def ws_echo(port, payload=b"x" * 64, mask=b"\x01\x02\x03\x04"):
    """A WebSocket connection to /echo (the handshake by hand), then `count`
    masked 64-byte text messages in lockstep, each echoed, then the close
    handshake: the handshake and the close cancel between n and 2n."""
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    echoed = bytes([0x81, len(payload)]) + payload
    close = bytes([0x88, 0x82]) + mask + bytes(b ^ mask[i] for i, b in enumerate(b"\x03\xe8"))

    def run(count):
        with connect(port) as sock:
            sock.sendall(b"GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(1)
            if not head.startswith(b"HTTP/1.1 101"):
                raise RuntimeError(f"ws: {head[:40]!r}")
            for _ in range(count):
                sock.sendall(frame)
                if receive_exactly(sock, len(echoed)) != echoed:
                    raise RuntimeError("ws: a different answer")
            sock.sendall(close)
            receive_exactly(sock, 4)
    return run


def ws_echo_deflate(port, payload=b"the same words, again and again: " * 4, mask=b"\x01\x02\x03\x04"):
    """`ws_echo` under permessage-deflate (/deflate): each 132-byte text
    compressed by zlib with the connection's window kept (context
    takeover, as browsers send), each echo inflated and checked."""
    close = bytes([0x88, 0x82]) + mask + bytes(b ^ mask[i] for i, b in enumerate(b"\x03\xe8"))

    def run(count):
        compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
        inflater = zlib.decompressobj(-15)
        with connect(port) as sock:
            sock.sendall(b"GET /deflate HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                         b"Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(1)
            if not head.startswith(b"HTTP/1.1 101") or b"permessage-deflate" not in head:
                raise RuntimeError(f"ws deflate: {head[:200]!r}")
            for _ in range(count):
                data = compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH)
                data = data[:-4]
                sock.sendall(bytes([0xC1, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
                first = receive_exactly(sock, 2)
                if first[0] != 0xC1 or first[1] > 125:
                    raise RuntimeError(f"ws deflate: a frame {first.hex()}")
                echoed = receive_exactly(sock, first[1])
                if inflater.decompress(echoed + b"\x00\x00\xff\xff") != payload:
                    raise RuntimeError("ws deflate: a different answer")
            sock.sendall(close)
            receive_exactly(sock, 4)
    return run


def http_requests(port, target_of):
    def run(count):
        with connect(port) as sock:
            buffered = b""
            for index in range(count):
                sock.sendall(b"GET " + target_of(index) + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                while b"\r\n\r\n" not in buffered:
                    chunk = sock.recv(65536)
                    if not chunk:
                        raise RuntimeError("http: the server closed the connection")
                    buffered += chunk
                head, buffered = buffered.split(b"\r\n\r\n", 1)
                if not head.startswith(b"HTTP/1.1 200"):
                    raise RuntimeError(f"http: {head[:40]!r}")
                length = int(re.search(rb"(?im)^content-length:\s*(\d+)", head).group(1))
                while len(buffered) < length:
                    buffered += sock.recv(65536)
                buffered = buffered[length:]
    return run


def http2_requests(port, path, streams):
    """HTTP/2 (h2c, prior knowledge) on one connection: `streams` requests
    for `path` at once, then their whole answers, until `count` are done
    (hyper-h2 on this side, uncounted)."""
    import h2.config
    import h2.connection
    import h2.events

    def run(count):
        with connect(port) as sock:
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            conn.initiate_connection()
            sock.sendall(conn.data_to_send())
            done = 0
            while done < count:
                batch = min(streams, count - done)
                ids = set()
                for _ in range(batch):
                    stream = conn.get_next_available_stream_id()
                    conn.send_headers(stream, [(":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", path)],
                                      end_stream=True)
                    ids.add(stream)
                sock.sendall(conn.data_to_send())
                while ids:
                    data = sock.recv(65536)
                    if not data:
                        raise RuntimeError("http2: the server closed the connection")
                    for event in conn.receive_data(data):
                        if isinstance(event, h2.events.ResponseReceived) and dict(event.headers)[b":status"] != b"200":
                            raise RuntimeError(f"http2: {event.headers}")
                        if isinstance(event, h2.events.DataReceived):
                            conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        if isinstance(event, h2.events.StreamEnded):
                            ids.discard(event.stream_id)
                    pending = conn.data_to_send()
                    if pending:
                        sock.sendall(pending)
                done += batch
    return run


def tls_context(ca):
    context = ssl.create_default_context(cafile=ca)
    context.check_hostname = True
    return context


def tls_echo(port, ca, message=b"x" * 64):
    context = tls_context(ca)

    def run(count):
        with context.wrap_socket(connect(port), server_hostname="localhost") as sock:
            for _ in range(count):
                sock.sendall(message)
                data = b""
                while len(data) < len(message):
                    data += sock.recv(len(message) - len(data))
                if data != message:
                    raise RuntimeError("tls echo: a different answer")
    return run


def tls_handshakes(port, ca):
    def run(count):
        for _ in range(count):
            # A new context a connection: no session is resumed.
            with tls_context(ca).wrap_socket(connect(port), server_hostname="localhost") as sock:
                sock.sendall(b"x")
                if sock.recv(1) != b"x":
                    raise RuntimeError("tls handshake: a different answer")
    return run


def redis_benchmark(port, test, pipeline):
    def run(count):
        subprocess.run(["redis-benchmark", "-p", str(port), "-c", "1", "-n", str(count), "-t", test,
                        "-d", "64", "-P", str(pipeline), "-q"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=600)
    return run


# -- the cases -----------------------------------------------------------------

SIGSUSPEND_COPY = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
"""


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def core_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "RxCoreBenchmarks"))
    # Case c counts deliveries: 100 subscribers a sent element.
    sizes = {"a": (1, 20_000), "b": (1, 20_000), "c": (100, 200), "d": (1, 5_000)}
    for name, (per, n) in sizes.items():
        yield f"core.{name}", lambda name=name, per=per, n=n: scale(process_cost(
            work, lambda size: [program, "--rx-only", "--repetitions", "1", "--case", name, "--count", str(size)], n), per)


def scale(cost, per):
    return {"instructions": round(cost["instructions"] / per), "allocations": round(cost["allocations"] / per, 2)}


def timer_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-timers"))
    for mode in ("rx", "scheduler"):
        yield f"timers.{mode}", lambda mode=mode: process_cost(
            work, lambda size: [program, "--mode", mode, "--count", str(size), "--spread-ms", "100"], 20_000)


def loop_cases(args, work):
    # A turn of an idle loop: its heartbeat (the prepare handle that counts
    # turns for the watchdog) included. With a watchdog on, the figure adds
    # its thread's sampling, which scales with time, not turns: measured by
    # hand (`rxuv-turns --watchdog on`), not held here.
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-turns"))
    yield "loop.turn", lambda: process_cost(work, lambda size: [program, "--count", str(size), "--watchdog", "off"], 50_000)


def server_case(work, name, argv, operation_of, n, warmup, port=None, env=None):
    server = Server(work, name, argv, port=port, env=env)
    try:
        return server.cost(operation_of(server.port), n, warmup)
    finally:
        server.stop()


def echo_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-echo"))
    yield "echo.readme", lambda: server_case(work, "echo", [program, "--port", "0"], echo, 2_000, 300)
    yield "echo.async", lambda: server_case(work, "echo-async", [program, "--port", "0", "--async"], echo, 2_000, 300)
    yield "connection.served", lambda: server_case(
        work, "connection", [program, "--port", "0", "--server", "off"], connections, 300, 100)


def http_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-http"))
    argv = [program, "--port", "0", "--keepalive-requests", "1000000"]
    targets = {
        "http.plaintext": lambda index: b"/plaintext",
        "http.json": lambda index: b"/json",
        "http.new-target": lambda index: b"/plaintext?n=%d" % index,
    }
    for name, target_of in targets.items():
        yield name, lambda name=name, target_of=target_of: server_case(
            work, name, argv, lambda port: http_requests(port, target_of), 2_000, 300)
    # Every request with a server span from the in-memory tracer.
    yield "http.plaintext.traced", lambda: server_case(
        work, "http.plaintext.traced", argv + ["--traced"], lambda port: http_requests(port, targets["http.plaintext"]), 2_000, 300)
    # HTTP/2 (h2c): one stream at a time, and ten at once (h2load's -m 10).
    for name, path, streams in (("http2.plaintext", "/plaintext", 1), ("http2.json", "/json", 1), ("http2.plaintext.m10", "/plaintext", 10)):
        yield name, lambda name=name, path=path, streams=streams: server_case(
            work, name, argv + ["--http2"], lambda port: http2_requests(port, path, streams), 2_000, 300)


def kv_cases(args, work):
    program = stripped(work, os.path.join(args.main_bin, "kv-server"))
    # kv-server's async main parks the main thread in libdispatch's
    # sigsuspend, whose mask is read-only data; valgrind 3.19 writes into
    # that mask and dies. The preloaded sigsuspend passes it a copy.
    source = os.path.join(work, "sigsuspend-copy.c")
    preload = os.path.join(work, "sigsuspend-copy.so")
    if not os.path.exists(preload):
        with open(source, "w") as file:
            file.write(SIGSUSPEND_COPY)
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", preload, source], check=True)
    for test in ("get", "set", "incr"):
        for pipeline, n in ((1, 2_000), (16, 16_000)):
            def run(test=test, pipeline=pipeline, n=n):
                port = free_port()
                argv = [program, "--port", str(port), "--threads", "1"]

                def operation_of(port):
                    redis_benchmark(port, "set", 1)(10)  # the key exists for GET
                    return redis_benchmark(port, test, pipeline)
                return server_case(work, f"kv-{test}-{pipeline}", argv, operation_of, n, n // 4,
                                   port=port, env={"LD_PRELOAD": preload})
            yield f"kv.{test}.p{pipeline}", run


def tls_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-tls-echo"))
    certificates = os.path.join(work, "certs")
    if not os.path.exists(certificates):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "tls-test-certificates.py"), certificates],
                       stdout=subprocess.DEVNULL, check=True)
    argv = [program, "--cert", os.path.join(certificates, "server.pem"),
            "--key", os.path.join(certificates, "server.key"), "--port", "0"]
    ca = os.path.join(certificates, "ca.pem")
    # OpenSSL picks its code for a primitive from the CPU's features; a
    # figure that CI holds must not move with the machine it runs on. ":0"
    # keeps what CPUID leaf 1 reports (AES-NI, PCLMULQDQ, AVX: every x86-64
    # server of the last decade) and drops leaf 7's (AVX2, BMI2, ADX,
    # SHA-NI), which differ between the machines CI may get.
    env = {"OPENSSL_ia32cap": ":0"}
    yield "tls.message", lambda: server_case(
        work, "tls-message", argv, lambda port: tls_echo(port, ca), 1_000, 200, env=env)
    yield "tls.handshake", lambda: server_case(
        work, "tls-handshake", argv, lambda port: tls_handshakes(port, ca), 40, 10, env=env)


def ws_cases(args, work):
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-ws-echo"))
    yield "ws.echo", lambda: server_case(work, "ws-echo", [program, "--port", "0"], ws_echo, 2_000, 300)
    yield "ws.echo.deflate", lambda: server_case(work, "ws-echo-deflate", [program, "--port", "0"], ws_echo_deflate, 2_000, 300)


def client_cases(args, work):
    """RxUVHTTPClient's client, a whole process (its start and its shutdown
    cancel out) making n and 2n GETs of nginx's /plaintext on one kept-alive
    connection, each body read whole: the client's instructions per request
    (nginx runs outside valgrind). Over HTTP/1.1, and over HTTP/2 with prior
    knowledge (nginx's `listen … http2`), one stream at a time and ten at
    once on the one connection."""
    program = stripped(work, os.path.join(args.bench_bin, "rxuv-http-client"))
    sys.path.insert(0, HERE)
    from httpbench import NGINX, make_root, nginx_config  # noqa: E402

    def run(extra=(), http2=False):
        directory = tempfile.mkdtemp(prefix="nginx.", dir=work)
        port = free_port()
        with open(os.path.join(directory, "nginx.conf"), "w") as file:
            # One connection for the whole run: nginx's 1,000 requests a
            # connection would add a connect every 1,000.
            config = nginx_config(directory, port, make_root(directory))
            config = config.replace("http {", "http {\n    keepalive_requests 10000000;", 1)
            if http2:
                config = config.replace(f"listen 127.0.0.1:{port};", f"listen 127.0.0.1:{port} http2;", 1)
            file.write(config)
        nginx = subprocess.Popen([NGINX, "-c", os.path.join(directory, "nginx.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("nginx did not listen")
                    time.sleep(0.05)
            return process_cost(work, lambda size: [program, "--port", str(port), "--count", str(size), *extra], 2_000)
        finally:
            nginx.terminate()
            nginx.wait()
    yield "client.get", run
    yield "client.get.h2", lambda: run(("--http2",), http2=True)
    yield "client.get.h2.m10", lambda: run(("--http2", "--in-flight", "10"), http2=True)


FAMILIES = [core_cases, timer_cases, loop_cases, echo_cases, http_cases, kv_cases, tls_cases, client_cases, ws_cases]


# -- the file --------------------------------------------------------------------


def swift_version():
    text = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    match = re.search(r"Swift version (\d+)\.(\d+)", text)
    if not match:
        raise SystemExit("thresholds: cannot tell the Swift version from `swift --version`")
    return f"{match.group(1)}.{match.group(2)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench-bin", default=os.path.join(BENCHMARKS, ".build", "release"))
    parser.add_argument("--main-bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--file")
    parser.add_argument("--case", action="append", default=[], help="only cases whose name starts so")
    parser.add_argument("--update", action="store_true", help="write the measured figures as the thresholds")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="cases counted side by side (default: 2, or 1 on one core)")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    path = args.file or os.path.join(BENCHMARKS, "Thresholds", f"swift-{swift_version()}.json")

    work = tempfile.mkdtemp(prefix="thresholds.")
    try:
        cases = [(name, run) for family in FAMILIES for name, run in family(args, work)
                 if not args.case or any(name.startswith(prefix) for prefix in args.case)]
        if args.list:
            print("\n".join(name for name, _ in cases))
            return 0
        held = {}
        if os.path.exists(path):
            with open(path) as file:
                held = json.load(file)
        elif not args.update:
            raise SystemExit(f"thresholds: no {path}; `thresholds.py --update` records one for this Swift version")
        tolerance = held.get("tolerance", {"instructions": 0.03, "allocations": 0.25})
        limits = held.get("cases", {})
        measured, failures = {}, []
        print(f"{'case':<20} {'instructions':>12} {'threshold':>10} {'allocs':>7} {'threshold':>9}  spread")
        def measure(case):
            name, run = case
            started = time.monotonic()
            runs = [run() for _ in range(args.runs)]
            return runs, time.monotonic() - started

        # Cases side by side (--jobs): callgrind counts instructions, not
        # time, and every client is in lockstep, so a figure does not
        # depend on what else runs; reported in the list's order.
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for (name, _), (runs, seconds) in zip(cases, pool.map(measure, cases)):
                figure = min(runs, key=lambda cost: cost["instructions"])
                spread = ""
                if len(runs) > 1:
                    low, high = min(r["instructions"] for r in runs), max(r["instructions"] for r in runs)
                    spread = f"{(high - low) / low * 100:.2f} % ({low}..{high})"
                measured[name] = figure
                limit = limits.get(name)
                verdict = ""
                if limit is None:
                    verdict = "no threshold"
                    if not args.update:
                        failures.append(f"{name}: no threshold in {os.path.relpath(path, ROOT)}")
                else:
                    if figure["instructions"] > limit["instructions"] * (1 + tolerance["instructions"]):
                        failures.append(f"{name}: {figure['instructions']} instructions, threshold {limit['instructions']}")
                        verdict = "FAIL"
                    if figure["allocations"] > limit["allocations"] + tolerance["allocations"]:
                        failures.append(f"{name}: {figure['allocations']} allocations, threshold {limit['allocations']}")
                        verdict = "FAIL"
                    if not verdict and figure["instructions"] < limit["instructions"] * (1 - tolerance["instructions"]):
                        verdict = "better: lower the threshold (--update)"
                print(f"{name:<20} {figure['instructions']:>12} {limit['instructions'] if limit else '-':>10} "
                      f"{figure['allocations']:>7} {limit['allocations'] if limit else '-':>9}  "
                      f"{spread} {verdict} [{seconds:.0f}s]", flush=True)
        if args.update:
            limits.update(measured)
            document = {
                "swift": swift_version(),
                "tolerance": tolerance,
                "about": "Instructions and allocations (malloc calls) per operation, callgrind, release "
                         "builds: Benchmarks/Scripts/thresholds.py. Lower a figure in the commit that improves it.",
                "cases": dict(sorted(limits.items())),
            }
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as file:
                json.dump(document, file, indent=2)
                file.write("\n")
            print(f"thresholds: wrote {os.path.relpath(path, ROOT)}")
            return 0
        if failures:
            print("thresholds: FAILED\n  " + "\n  ".join(failures))
            return 1
        print(f"thresholds: {len(cases)} cases within {os.path.relpath(path, ROOT)}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
