#!/usr/bin/env python3
"""A soak: one process of each daemon under steady mixed load, its resident
memory, open descriptors and CPU sampled at an interval; fails if memory or
descriptors keep growing after the warm-up.

    python3 scripts/soak.py                  # 10 minutes, release builds (make soak)
    python3 scripts/soak.py --quick          # 90 seconds (make soak-quick, CI)
    python3 scripts/soak.py --seconds 3600 --out /tmp/soak

The load, all on 127.0.0.1 and bounded in rate:
- echo-server: 100 connections, 2,000 64-byte round trips a second, 5
  connections closed and opened again each second;
- kv-server: 2,000 pipelined SETs with expiry (PX) and GETs a second over
  10 connections, 100 PUBLISHes a second to 3 subscribers that read every
  message, one connection replaced each second;
- statsd-agg: 1,000 datagrams a second (counters, gauges, timers, sets over
  200 names), flushing every second;
- rx-watch: a directory whose files are created, written, renamed over and
  deleted several times a second; each burst runs a command (`true`);
- http-server --http2: 1,000 requests a second over 10 HTTP/2 connections
  (hyper-h2), ten streams at once (GET /plaintext, GET /json, POST /echo
  of 1 KiB), one connection replaced each second, and an HTTP/1.1 request
  on the same port every tenth step.

Every load checks what it gets back (echoes, replies, messages): a wrong
or missing answer fails the run, as does a daemon that exits.

After the warm-up, the least-squares slope of each daemon's RSS (KiB per
minute) and open descriptors (per minute) must stay under --max-rss-slope
and --max-fd-slope. Writes soak.csv (every sample) and soak.png (the
curves, with matplotlib) to --out, and prints a table in RELIABILITY.md's
form."""

import argparse
import csv
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Examples"))

from resp import RespConnection, encode  # noqa: E402
from support import Example, cpu_seconds, status_kib  # noqa: E402

DAEMONS = ["echo-server", "kv-server", "statsd-agg", "rx-watch", "http-server"]


def log(message):
    print(message, file=sys.stderr, flush=True)


class Load(threading.Thread):
    """A load generator: calls `step()` until stopped, at most `rate` times a
    second; an exception stops the run with the load's name."""

    def __init__(self, name, rate, stop, failures):
        super().__init__(daemon=True, name=name)
        self.rate = rate
        self.stop_event = stop
        self.failures = failures
        self.steps = 0

    def run(self):
        period = 1.0 / self.rate
        next_step = time.monotonic()
        try:
            while not self.stop_event.is_set():
                self.step()
                self.steps += 1
                next_step += period
                delay = next_step - time.monotonic()
                if delay > 0:
                    self.stop_event.wait(delay)
                elif delay < -1:
                    next_step = time.monotonic()  # behind: do not burst to catch up
        except Exception as error:  # noqa: BLE001 - any failure ends the soak
            self.failures.append(f"{self.name}: {type(error).__name__}: {error}")
            self.stop_event.set()
        finally:
            self.close()

    def close(self):
        pass


class EchoLoad(Load):
    """100 connections; each step one round trip on each of 10 of them (2,000
    a second); each second 5 are closed and opened again."""

    def __init__(self, port, stop, failures):
        super().__init__("echo", rate=200, stop=stop, failures=failures)
        self.port = port
        self.sockets = [self.connect() for _ in range(100)]
        self.cursor = 0

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def step(self):
        for _ in range(10):
            index = self.cursor % len(self.sockets)
            self.cursor += 1
            message = b"%08d" % self.cursor * 8
            sock = self.sockets[index]
            sock.sendall(message)
            got = b""
            while len(got) < len(message):
                chunk = sock.recv(len(message) - len(got))
                if not chunk:
                    raise EOFError("echo-server closed a connection")
                got += chunk
            if got != message:
                raise AssertionError(f"echoed {got!r}, sent {message!r}")
        if self.steps % 200 == 0:
            for _ in range(5):
                index = random.randrange(len(self.sockets))
                self.sockets[index].close()
                self.sockets[index] = self.connect()

    def close(self):
        for sock in self.sockets:
            sock.close()


class KVLoad(Load):
    """Pipelines of 20 SET ... PX / GET over 10 connections and a PUBLISH to 3
    subscribers, each of which must receive every message in order, 100
    times a second; each second one connection is replaced."""

    def __init__(self, port, stop, failures):
        super().__init__("kv", rate=100, stop=stop, failures=failures)
        self.port = port
        self.connections = [RespConnection(port, timeout=10) for _ in range(10)]
        self.subscribers = []
        for _ in range(3):
            subscriber = RespConnection(port, timeout=10)
            subscriber.command("SUBSCRIBE", "soak")
            self.subscribers.append(subscriber)
        self.published = 0

    def step(self):
        connection = self.connections[self.steps % len(self.connections)]
        keys = [f"soak:{random.randrange(10_000)}" for _ in range(10)]
        pipeline = []
        for key in keys:
            pipeline.append(encode("SET", key, "v" * random.randrange(16, 512), "PX", random.randrange(100, 3000)))
            pipeline.append(encode("GET", key))
        connection.send(b"".join(pipeline))
        for _ in keys:
            if connection.reply() != b"+OK\r\n":
                raise AssertionError("SET did not answer +OK")
            if not connection.reply().startswith(b"$"):
                raise AssertionError("GET did not answer a bulk string")
        self.published += 1
        payload = b"%d" % self.published
        answer = self.connections[0].command("PUBLISH", "soak", payload)
        if answer != b":3\r\n":
            raise AssertionError(f"PUBLISH reached {answer!r}, not the 3 subscribers")
        for subscriber in self.subscribers:
            expected = b"*3\r\n$7\r\nmessage\r\n$4\r\nsoak\r\n$%d\r\n%s\r\n" % (len(payload), payload)
            got = subscriber.reply()
            if got != expected:
                raise AssertionError(f"a subscriber got {got!r}, expected {expected!r}")
        if self.steps % 100 == 0:
            index = 1 + random.randrange(len(self.connections) - 1)
            self.connections[index].close()
            self.connections[index] = RespConnection(self.port, timeout=10)

    def close(self):
        for connection in self.connections + self.subscribers:
            connection.close()


class StatsdLoad(Load):
    """Datagrams of 10 lines over 200 names, 1,000 a second."""

    def __init__(self, port, stop, failures):
        super().__init__("statsd", rate=1000, stop=stop, failures=failures)
        self.port = port
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.kinds = [b"c", b"g", b"ms", b"s"]

    def step(self):
        lines = []
        for _ in range(10):
            name = random.randrange(200)
            kind = self.kinds[name % 4]
            value = random.randrange(1000) if kind != b"s" else random.randrange(50)
            lines.append(b"soak.%d:%d|%s" % (name, value, kind))
        self.sock.sendto(b"\n".join(lines), ("127.0.0.1", self.port))

    def close(self):
        self.sock.close()


class FileChurnLoad(Load):
    """Files in the watched directory: created, written, renamed over
    (an editor's atomic save) and deleted, 5 times a second."""

    def __init__(self, directory, stop, failures):
        super().__init__("files", rate=5, stop=stop, failures=failures)
        self.directory = directory

    def step(self):
        path = os.path.join(self.directory, f"file{self.steps % 20}")
        action = self.steps % 4
        if action == 0:
            with open(path, "w") as file:
                file.write("x" * random.randrange(1, 4096))
        elif action == 1:
            with open(path, "a") as file:
                file.write("more\n")
        elif action == 2:
            temporary = path + ".tmp"
            with open(temporary, "w") as file:
                file.write("saved\n")
            os.replace(temporary, path)
        else:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


class HTTP2Load(Load):
    """10 HTTP/2 connections; each step ten streams at once on one of them
    (1,000 requests a second), every answer checked; one connection replaced
    each second; an HTTP/1.1 request on the same port every tenth step."""

    JSON = b'{"message":"' + b"x" * 1010 + b'"}'

    def __init__(self, port, stop, failures):
        super().__init__("http2", rate=100, stop=stop, failures=failures)
        self.port = port
        self.connections = [self.connect() for _ in range(10)]

    def connect(self):
        import h2.config
        import h2.connection
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())
        return sock, conn

    def step(self):
        import h2.events
        sock, conn = self.connections[self.steps % len(self.connections)]
        expected = {}
        for index in range(10):
            stream = conn.get_next_available_stream_id()
            kind = index % 3
            if kind == 2:
                body = b"%04d" % self.steps * 256
                conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/echo"),
                                           ("content-length", str(len(body)))])
                conn.send_data(stream, body, end_stream=True)
            else:
                body = b"hello" if kind == 0 else self.JSON
                conn.send_headers(stream, [(":method", "GET"), (":scheme", "http"), (":authority", "x"),
                                           (":path", "/plaintext" if kind == 0 else "/json")], end_stream=True)
            expected[stream] = body
        sock.sendall(conn.data_to_send())
        got = {stream: b"" for stream in expected}
        ended = set()
        while len(ended) < len(expected):
            data = sock.recv(65536)
            if not data:
                raise EOFError("http-server closed an HTTP/2 connection")
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    got[event.stream_id] += event.data
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    ended.add(event.stream_id)
                elif isinstance(event, h2.events.StreamReset):
                    raise AssertionError(f"stream {event.stream_id} reset ({event.error_code})")
            pending = conn.data_to_send()
            if pending:
                sock.sendall(pending)
        for stream, body in expected.items():
            if got[stream] != body:
                raise AssertionError(f"stream {stream}: {len(got[stream])} bytes, expected {len(body)}")
        if self.steps % 10 == 0:
            import http.client
            client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            try:
                client.request("GET", "/plaintext")
                answer = client.getresponse()
                if answer.status != 200 or answer.read() != b"hello":
                    raise AssertionError(f"HTTP/1.1 on the HTTP/2 port: {answer.status}")
            finally:
                client.close()
        if self.steps % 100 == 0:
            index = random.randrange(len(self.connections))
            self.connections[index][0].close()
            self.connections[index] = self.connect()

    def close(self):
        for sock, _ in self.connections:
            sock.close()


def open_descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def slope_per_minute(points):
    """Least-squares slope of (seconds, value) points, per minute."""
    count = len(points)
    if count < 2:
        return 0.0
    mean_t = sum(t for t, _ in points) / count
    mean_v = sum(v for _, v in points) / count
    variance = sum((t - mean_t) ** 2 for t, _ in points)
    if variance == 0:
        return 0.0
    return 60 * sum((t - mean_t) * (v - mean_v) for t, v in points) / variance


def listening_port(example, timeout=30):
    """The port from the daemon's `listening on 127.0.0.1:PORT` line, on
    standard output or standard error."""
    import re
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(example.stdout) + list(example.stderr):
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                return int(found.group(1))
        if example.process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"{example.name} did not start: {example.stderr}")


def build(configuration):
    products = DAEMONS
    for product in products:
        log(f"soak: swift build -c {configuration} --product {product}")
        subprocess.run(["swift", "build", "-c", configuration, "--product", product], cwd=ROOT, check=True, stdout=sys.stderr)
    return subprocess.run(["swift", "build", "-c", configuration, "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()


def plot(rows, path, warmup):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (memory, descriptors) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for daemon in DAEMONS:
        samples = [row for row in rows if row["daemon"] == daemon]
        minutes = [row["seconds"] / 60 for row in samples]
        memory.plot(minutes, [row["rss_kib"] / 1024 for row in samples], label=daemon)
        descriptors.plot(minutes, [row["fds"] for row in samples], label=daemon)
    for axis in (memory, descriptors):
        axis.axvline(warmup / 60, color="grey", linestyle=":", linewidth=1)
        axis.grid(True, alpha=0.3)
    memory.set_ylabel("resident memory (MiB)")
    memory.set_ylim(bottom=0)
    descriptors.set_ylabel("open descriptors")
    descriptors.set_ylim(bottom=0)
    descriptors.set_xlabel("minutes (dotted: end of warm-up)")
    memory.legend(loc="lower right", ncol=5, fontsize="small")
    memory.set_title("Soak: one process per daemon under steady mixed load (release builds)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="90 s, samples every 3 s, 30 s warm-up (CI)")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=120, help="seconds before the slopes are measured")
    parser.add_argument("--max-rss-slope", type=float, default=128, help="KiB per minute, after the warm-up")
    parser.add_argument("--max-fd-slope", type=float, default=0.5, help="descriptors per minute, after the warm-up")
    parser.add_argument("--bin", help="where the built daemons are (default: a release build)")
    parser.add_argument("--out", help="folder for soak.csv and soak.png (default: a temporary folder)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.seconds, arguments.interval, arguments.warmup = 90, 3, 30
        # 60 s of slope are noisier than 8 minutes: a leak of the loads'
        # rate (a few hundred objects a second) still shows tenfold.
        arguments.max_rss_slope = max(arguments.max_rss_slope, 512)
        arguments.max_fd_slope = max(arguments.max_fd_slope, 3)
    bin_path = arguments.bin or build("release")
    out = arguments.out or tempfile.mkdtemp(prefix="rxuv-soak-")
    os.makedirs(out, exist_ok=True)

    watched = tempfile.mkdtemp(prefix="rxuv-soak-watched-")
    os.environ["RXUV_EXAMPLES_BIN"] = bin_path
    import support
    support.BIN_PATH = bin_path
    examples = {
        "echo-server": Example("echo-server", "--port", 0, "--threads", 1),
        "kv-server": Example("kv-server", "--port", 0, "--threads", 1),
        "statsd-agg": Example("statsd-agg", "--port", 0, "--stdout", "--flush-interval", "1s"),
        "rx-watch": Example("rx-watch", "--debounce", "50ms", watched, "--", "true"),
        "http-server": Example("http-server", "--http2", "--port", 0, "--threads", 1, "--no-request-metrics"),
    }
    stop = threading.Event()
    failures = []
    loads = []
    try:
        loads = [
            EchoLoad(listening_port(examples["echo-server"]), stop, failures),
            KVLoad(listening_port(examples["kv-server"]), stop, failures),
            StatsdLoad(listening_port(examples["statsd-agg"]), stop, failures),
            HTTP2Load(listening_port(examples["http-server"]), stop, failures),
        ]
        time.sleep(0.5)  # rx-watch has no line to wait for: let it watch first
        loads.append(FileChurnLoad(watched, stop, failures))
        for load in loads:
            load.start()
        log(f"soak: {arguments.seconds:.0f} s, a sample every {arguments.interval:.0f} s, warm-up {arguments.warmup:.0f} s")
        rows = []
        started = time.monotonic()
        next_sample = started
        while not stop.is_set():
            now = time.monotonic()
            if now >= next_sample:
                for daemon, example in examples.items():
                    pid = example.process.pid
                    if example.process.poll() is not None:
                        failures.append(f"{daemon} exited ({example.process.returncode}): {example.stderr[-3:]}")
                        stop.set()
                        break
                    rows.append({"daemon": daemon, "seconds": round(now - started, 1), "rss_kib": status_kib(pid),
                                 "fds": open_descriptors(pid), "cpu_seconds": cpu_seconds(pid)})
                next_sample += arguments.interval
            if now - started >= arguments.seconds:
                break
            stop.wait(min(0.2, max(next_sample - time.monotonic(), 0)))
        stop.set()
        for load in loads:
            load.join(timeout=15)
    finally:
        stop.set()
        codes = {}
        for daemon, example in examples.items():
            if example.process.poll() is None:
                example.send_signal(signal.SIGTERM)
                try:
                    codes[daemon] = example.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    codes[daemon] = "did not stop within 15 s"
            else:
                codes[daemon] = example.process.returncode
            example.stop()
        import shutil
        shutil.rmtree(watched, ignore_errors=True)

    for daemon, code in codes.items():
        # SIGTERM is a clean stop: 0 for the servers, 143 for rx-watch (as a shell's 128 + 15).
        if code != (143 if daemon == "rx-watch" else 0):
            failures.append(f"{daemon} exited {code} on SIGTERM")

    with open(os.path.join(out, "soak.csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=["daemon", "seconds", "rss_kib", "fds", "cpu_seconds"])
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, os.path.join(out, "soak.png"), arguments.warmup)

    elapsed = max((row["seconds"] for row in rows), default=0)
    print(f"\nSoak: {elapsed / 60:.1f} min, a sample every {arguments.interval:.0f} s, slopes after {arguments.warmup:.0f} s "
          f"(limits: RSS {arguments.max_rss_slope:.0f} KiB/min, descriptors {arguments.max_fd_slope:g}/min)\n")
    print("| daemon | load | RSS after warm-up → end (MiB) | RSS slope (KiB/min) | descriptors (min–max) | descriptor slope (/min) | CPU |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    steps = {load.name: load.steps for load in loads}
    described = {
        "echo-server": f"{steps.get('echo', 0) * 10:,} round trips",
        "kv-server": f"{steps.get('kv', 0) * 21:,} commands, {steps.get('kv', 0):,} messages × 3",
        "statsd-agg": f"{steps.get('statsd', 0):,} datagrams",
        "rx-watch": f"{steps.get('files', 0):,} file changes",
        "http-server": f"{steps.get('http2', 0) * 10:,} HTTP/2 requests, {steps.get('http2', 0) // 10:,} HTTP/1.1",
    }
    for daemon in DAEMONS:
        samples = [row for row in rows if row["daemon"] == daemon]
        settled = [row for row in samples if row["seconds"] >= arguments.warmup]
        if len(settled) < 3:
            failures.append(f"{daemon}: fewer than 3 samples after the warm-up")
            continue
        rss_slope = slope_per_minute([(row["seconds"], row["rss_kib"]) for row in settled])
        fd_slope = slope_per_minute([(row["seconds"], row["fds"]) for row in settled])
        span = settled[-1]["seconds"] - settled[0]["seconds"]
        cpu = (settled[-1]["cpu_seconds"] - settled[0]["cpu_seconds"]) / span if span else 0
        fds = [row["fds"] for row in settled]
        print(f"| {daemon} | {described[daemon]} | {settled[0]['rss_kib'] / 1024:.1f} → {settled[-1]['rss_kib'] / 1024:.1f} | "
              f"{rss_slope:+.1f} | {min(fds)}–{max(fds)} | {fd_slope:+.2f} | {cpu * 100:.1f} % |")
        if rss_slope > arguments.max_rss_slope:
            failures.append(f"{daemon}: RSS grows {rss_slope:.0f} KiB/min after the warm-up (limit {arguments.max_rss_slope:.0f})")
        if fd_slope > arguments.max_fd_slope:
            failures.append(f"{daemon}: descriptors grow {fd_slope:.2f}/min after the warm-up (limit {arguments.max_fd_slope:g})")
    print(f"\nsoak: samples in {os.path.join(out, 'soak.csv')}, plot in {os.path.join(out, 'soak.png')}")
    if failures:
        for failure in failures:
            print(f"soak: FAILED: {failure}", file=sys.stderr)
        return 1
    print("soak: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
