#!/usr/bin/env python3
"""The HTTP benchmarks: RxUV's http-server example against nginx (Debian's,
one worker) and Hummingbird 2 on one event-loop thread (hb-http), in one run.

    Benchmarks/Scripts/httpbench.py                  # release builds, then the comparison (≈ 10 min)
    Benchmarks/Scripts/httpbench.py --quick          # 1 s of every case, once (for CI)
    Benchmarks/Scripts/httpbench.py --servers nginx --skip-build --quick   # one server, nothing built

Every round starts the servers (nginx, Hummingbird, RxUV, and RxUV again
with its request metrics on), all pinned to one core, and drives them with
`wrk -t1 --latency` pinned to the other: GET /plaintext, /json and
/static/file64k.bin at 100 connections, then /plaintext at 10 and at 1000.
Each case runs on every server back to back, in an order that turns by
one each round, so that the runs a ratio compares are seconds apart (this
machine's speed drifts over minutes) and no server always goes first; the
idle servers wait in their event loops meanwhile. Before measuring, each
server's answers are checked against the bytes below, so that all of them
serve the same bodies:

    /plaintext            b"hello", text/plain
    /json                 JSON_BODY: {"message":"xxx…"} with 1010 "x", 1024 bytes, application/json
    /static/file64k.bin   STATIC_BODY: 64 KiB written into the --root directory, from the page cache

Otherwise each server keeps its defaults: nginx and RxUV close a keep-alive
connection after 1000 requests (wrk reconnects), Hummingbird never does;
nginx sends the file with sendfile, RxUV too (its files kept open in an
OpenFileCache, as nginx's open_file_cache would), Hummingbird through its
FileMiddleware on NIO's thread pool (all their threads on the server's
core).

No server counts or logs each request in the compared rows: nginx runs
with `access_log off`, Hummingbird without a metrics or log middleware,
and RxUV's http-server with `--no-request-metrics`. The same http-server
with its request metrics on (every request counted and timed into
swift-prometheus, its default) is measured beside them ("rxuv-metrics"),
for what they cost: its CPU per request over RxUV's is the last column of
the ratios.

Reports the medians of req/s, p50 and p99 (wrk's latency distribution),
socket errors and the server's CPU per request (utime + stime of the
server's processes from /proc/PID/stat, all threads and, for nginx, the
worker, read just before and after each wrk run), then the same-run ratios
(the median of each round's ratio) against the targets: CPU per request
≤ 1.3× nginx on /plaintext and /json, ≤ 1.5× on the static file; req/s
≥ 3× Hummingbird on every row; p99 ≤ 1.5× nginx at 10 and 100 connections;
no timeouts at 1000 connections.
Everything runs on 127.0.0.1 and stops by itself; wrk and nginx come from
Debian (`make setup`).
"""

import argparse
import http.client
import os
import platform
import re
import resource
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from kvbench import free_port  # noqa: E402
from netbench import PACKAGE, Pinning, Server, bin_path, log  # noqa: E402

ROOT = os.path.dirname(PACKAGE)
NGINX = "/usr/sbin/nginx"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# The bodies every server must produce byte for byte (checked before each
# server is measured). RxUV's http-server and hb-http build the same JSON.
PLAINTEXT_BODY = b"hello"
JSON_BODY = b'{"message":"' + b"x" * 1010 + b'"}'
assert len(JSON_BODY) == 1024
STATIC_NAME = "file64k.bin"
STATIC_BODY = bytes(range(256)) * 256
assert len(STATIC_BODY) == 64 * 1024

# (key, label)
SERVERS = [
    ("nginx", "nginx, 1 worker"),
    ("hb", "Hummingbird 2, 1 EventLoop"),
    ("rxuv", "RxUV http-server, 1 loop"),
    ("rxuv-metrics", "RxUV http-server, 1 loop, request metrics on"),
]
# (key, label, path, connections)
ROWS = [
    ("plaintext", "/plaintext, c=100", "/plaintext", 100),
    ("json", "/json (1 KiB), c=100", "/json", 100),
    ("static", "/static 64 KiB, c=100", "/static/" + STATIC_NAME, 100),
    ("plaintext-c10", "/plaintext, c=10", "/plaintext", 10),
    ("plaintext-c1000", "/plaintext, c=1000", "/plaintext", 1000),
]
# CPU per request, RxUV / nginx: at most this (rows not listed: no target).
CPU_TARGETS = {"plaintext": 1.3, "json": 1.3, "plaintext-c10": 1.3, "plaintext-c1000": 1.3, "static": 1.5}
RATE_TARGET = 3.0  # req/s, RxUV / Hummingbird: at least this on every row
P99_TARGET = 1.5  # p99, RxUV / nginx: at most this at 10 and 100 connections
P99_ROWS = ["plaintext", "json", "static", "plaintext-c10"]


def nginx_config(directory, port, root):
    """An nginx.conf for one worker, everything (pid, logs, temp files)
    inside `directory`, so that it runs for any user and leaves nothing behind."""
    built = subprocess.run([NGINX, "-V"], capture_output=True, text=True).stderr
    temp_paths = "".join(f"    {module}_temp_path {directory}/{module};\n"
                         for module in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
                         if f"--http-{module.replace('_', '-')}-temp-path" in built)
    return f"""worker_processes 1;
worker_rlimit_nofile 8192;
daemon off;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{
    worker_connections 4096;
}}
http {{
    access_log off;
    default_type application/octet-stream;
{temp_paths}    server {{
        listen 127.0.0.1:{port};
        location = /plaintext {{ default_type text/plain; return 200 "{PLAINTEXT_BODY.decode()}"; }}
        location = /json {{ default_type application/json; return 200 '{JSON_BODY.decode()}'; }}
        location /static/ {{ alias {root}/; sendfile on; }}
    }}
}}
"""


def wait_connectable(port, process, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


class Nginx(Server):
    """nginx with `make_config(directory, port, root)` (`nginx_config`),
    master and one worker pinned to the server core."""

    def __init__(self, pinning, directory, root, make_config=None):
        self.port = free_port()
        config = os.path.join(directory, "nginx.conf")
        with open(config, "w") as file:
            file.write((make_config or nginx_config)(directory, self.port, root))
        self.log = open(os.path.join(directory, "nginx.stderr"), "w")
        argv = pinning.server([NGINX, "-p", directory, "-e", os.path.join(directory, "error.log"), "-c", config])
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        try:
            wait_connectable(self.port, self.process)
        except RuntimeError as error:
            stop(self)
            with open(os.path.join(directory, "error.log")) as errors:
                raise RuntimeError(f"nginx: {error}: {errors.read().strip()}")


class Listening(Server):
    """A Swift server that prints a line ending "listening on 127.0.0.1:PORT"
    once it listens (hb-http; http-server prefixes "http-server: "); its
    output after that line is drained and dropped, its stderr kept in a file."""

    def __init__(self, name, argv, directory):
        self.log = open(os.path.join(directory, name + ".stderr"), "w")
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log)
        # Read the raw pipe (a buffered reader would hide a second line from select).
        output, deadline = b"", time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(rb"listening on 127\.0\.0\.1:(\d+)\r?\n", output)
            if found:
                self.port = int(found.group(1))
                threading.Thread(target=self.process.stdout.read, daemon=True).start()
                return
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(self.process.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                break
            output += chunk
        stop(self)
        with open(self.log.name) as errors:
            raise RuntimeError(f"{' '.join(argv)} did not start: {output.decode(errors='replace')!r} {errors.read().strip()!r}")


def descendants(pid):
    """The pids of the processes below `pid` (nginx's worker), from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents.setdefault(int(stat.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    found, pending = [], [pid]
    while pending:
        children = parents.get(pending.pop(), [])
        found += children
        pending += children
    return found


def cpu_ticks(pid):
    """utime + stime of `pid` (all its threads, living and gone) and of its
    descendants, in clock ticks."""
    total = 0
    for each in [pid] + descendants(pid):
        try:
            with open(f"/proc/{each}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total


def stop(server):
    """Stops a server and anything it started (SIGTERM, then SIGKILL after 5 s)."""
    children = descendants(server.process.pid) if server.process.poll() is None else []
    Server.stop(server)
    for pid in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if getattr(server, "log", None):
        server.log.close()


def start(key, settings, pinning, directory, root):
    if key == "nginx":
        return Nginx(pinning, directory, root)
    if key == "hb":
        return Listening("hb-http", pinning.server([os.path.join(settings.hb_bin, "hb-http"), "--port", "0",
                                                    "--root", root]), directory)
    metrics = [] if key == "rxuv-metrics" else ["--no-request-metrics"]
    return Listening(key, pinning.server([os.path.join(settings.rxuv_bin, "http-server"), "--port", "0",
                                                    "--threads", "1", "--root", root] + metrics), directory)


def check_bodies(key, port):
    """Each route's status and bytes, so that every server is measured on the same answers."""
    expected = [("/plaintext", PLAINTEXT_BODY, "text/plain"), ("/json", JSON_BODY, "application/json"),
                ("/static/" + STATIC_NAME, STATIC_BODY, None)]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        for path, body, content_type in expected:
            connection.request("GET", path)
            response = connection.getresponse()
            got = response.read()
            kind = response.getheader("Content-Type") or ""
            if response.status != 200 or got != body or (content_type and not kind.startswith(content_type)):
                raise RuntimeError(f"{key}: GET {path} answered {response.status} {kind!r} with {len(got)} bytes"
                                   f" ({got[:40]!r}…); expected 200 {content_type or ''} with {len(body)} bytes")
    finally:
        connection.close()


UNITS_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}


def microseconds(text):
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if not found:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(found.group(1)) * UNITS_US[found.group(2)]


def parse_wrk(output):
    """req/s, requests, p50/p99 (µs), socket errors and non-2xx/3xx answers from `wrk --latency`."""
    record = {"connect": 0, "read": 0, "write": 0, "timeout": 0, "non2xx": 0}
    for percentile in ("50", "99"):
        found = re.search(rf"^\s+{percentile}(?:\.000)?%\s+(\S+)\s*$", output, re.M)
        if not found:
            raise ValueError(f"no {percentile}% line in wrk's output:\n{output}")
        record[f"p{percentile}"] = microseconds(found.group(1))
    record["requests"] = int(re.search(r"^\s*(\d+) requests in", output, re.M).group(1))
    record["rate"] = float(re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M).group(1))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if errors:
        for name, value in zip(("connect", "read", "write", "timeout"), errors.groups()):
            record[name] = int(value)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non2xx:
        record["non2xx"] = int(non2xx.group(1))
    return record


def run_wrk(pinning, server, path, connections, seconds):
    """One wrk run against `server`; the server's CPU per request from its ticks around it."""
    argv = pinning.client(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "2s", "--latency",
                           f"http://127.0.0.1:{server.port}{path}"])
    before = cpu_ticks(server.process.pid)
    result = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30)
    ticks = cpu_ticks(server.process.pid) - before
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    if server.process.poll() is not None:
        raise RuntimeError(f"the server exited ({server.process.returncode}) during {' '.join(argv)}")
    record = parse_wrk(result.stdout)
    record["cpu"] = ticks / CLOCK_TICKS * 1e6 / max(record["requests"], 1)
    return record


def build(servers):
    if "hb" in servers:
        log("httpbench: swift build -c release --product hb-http (Benchmarks/)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", "hb-http"], check=True)
    if "rxuv" in servers or "rxuv-metrics" in servers:
        log("httpbench: swift build -c release --product http-server")
        subprocess.run(["swift", "build", "-c", "release", "--product", "http-server"], cwd=ROOT, check=True)


def root_bin_path():
    return subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout.strip()


def run_round(settings, pinning, directory, root, results, round_index):
    """Starts every server, then runs each case on each of them back to
    back, in an order that turns by one each round: the runs a ratio
    compares are seconds apart, not minutes, and none is always first."""
    servers = {}
    turn = round_index % len(settings.servers)
    order = settings.servers[turn:] + settings.servers[:turn]
    records = {key: {} for key in order}
    try:
        for key in settings.servers:
            servers[key] = start(key, settings, pinning, directory, root)
            check_bodies(key, servers[key].port)
        if settings.warmup:
            for key in order:
                run_wrk(pinning, servers[key], "/plaintext", 100, settings.warmup)
        for row, _, path, connections in ROWS:
            for key in order:
                for name, value in run_wrk(pinning, servers[key], path, connections, settings.seconds).items():
                    records[key][f"{row}.{name}"] = value
    finally:
        for server in servers.values():
            stop(server)
    for key in settings.servers:
        record = records[key]
        results.setdefault(key, []).append(record)
        log(f"httpbench: round {round_index + 1}: {key}: " + " ".join(
            f"{row}={record[row + '.rate']:,.0f}/s,{record[row + '.cpu']:.2f}µs" for row, _, _, _ in ROWS))


def median(results, key, name):
    return statistics.median(record[name] for record in results[key])


def paired(results, top, bottom, name):
    """The median over rounds of top/bottom, each pair measured in the same round."""
    ratios = [a[name] / b[name] for a, b in zip(results[top], results[bottom]) if b[name] > 0]
    return statistics.median(ratios) if ratios else float("nan")


def report(results, settings, pinning):
    labels = dict(SERVERS)
    nginx_version = subprocess.run([NGINX, "-v"], capture_output=True, text=True).stderr.strip().split("/")[-1]
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split()[1]
    placement = (f"servers pinned to core {pinning.server_core}, wrk to core {pinning.client_core}"
                 if pinning.enabled else "not pinned")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {placement}; nginx {nginx_version}, "
          f"wrk {wrk_version} (`-t1 --latency`); {settings.rounds} round(s) of {settings.seconds} s per case, medians.\n")
    print("| case | server | req/s | p50 ms | p99 ms | CPU µs/req | errors c/r/w/t | non-2xx |")
    print("|---|---|---:|---:|---:|---:|---|---:|")
    for row, label, _, _ in ROWS:
        for key in settings.servers:
            errors = "/".join(str(max(record[f"{row}.{name}"] for record in results[key]))
                              for name in ("connect", "read", "write", "timeout"))
            non2xx = max(record[f"{row}.non2xx"] for record in results[key])
            print(f"| {label} | {labels[key]} | {median(results, key, row + '.rate'):,.0f} "
                  f"| {median(results, key, row + '.p50') / 1e3:.3f} | {median(results, key, row + '.p99') / 1e3:.3f} "
                  f"| {median(results, key, row + '.cpu'):.2f} | {errors} | {non2xx} |")
    print("\nErrors and non-2xx: the most in any round (wrk's socket errors: connect/read/write/timeout).")
    if "rxuv" not in results:
        return

    def mark(ok):
        return "·" if settings.quick else ("✓" if ok else "✗")

    print("\nSame-run ratios (median of each round's ratio) and the targets: CPU per request RxUV / nginx "
          "≤ 1.3 (plaintext, JSON), ≤ 1.5 (static); req/s RxUV / Hummingbird ≥ 3; p99 RxUV / nginx ≤ 1.5 "
          "at c=10 and c=100; no timeouts at c=1000.\n")
    print("| case | CPU/req RxUV / nginx | p99 RxUV / nginx | req/s RxUV / Hummingbird | RxUV timeouts "
          "| CPU/req, request metrics on / off |")
    print("|---|---:|---:|---:|---:|---:|")
    for row, label, _, _ in ROWS:
        cells = []
        if "nginx" in results:
            cpu = paired(results, "rxuv", "nginx", row + ".cpu")
            cells.append(f"{cpu:.2f} {mark(cpu <= CPU_TARGETS[row])}")
            p99 = paired(results, "rxuv", "nginx", row + ".p99")
            cells.append(f"{p99:.2f} {mark(p99 <= P99_TARGET)}" if row in P99_ROWS else f"{p99:.2f}")
        else:
            cells += ["–", "–"]
        if "hb" in results:
            rate = paired(results, "rxuv", "hb", row + ".rate")
            cells.append(f"{rate:.2f} {mark(rate >= RATE_TARGET)}")
        else:
            cells.append("–")
        timeouts = max(record[row + ".timeout"] for record in results["rxuv"])
        cells.append(f"{timeouts} {mark(timeouts == 0)}" if row == "plaintext-c1000" else str(timeouts))
        cells.append(f"{paired(results, 'rxuv-metrics', 'rxuv', row + '.cpu'):.2f}" if "rxuv-metrics" in results else "–")
        print(f"| {label} | " + " | ".join(cells) + " |")


def make_root(directory):
    """The --root folder inside `directory`, holding the static file; both
    readable by nginx's worker, which may run as another user (nobody when
    started by root)."""
    os.chmod(directory, 0o755)
    root = os.path.join(directory, "root")
    os.mkdir(root, 0o755)
    with open(os.path.join(root, STATIC_NAME), "wb") as file:
        file.write(STATIC_BODY)
    os.chmod(os.path.join(root, STATIC_NAME), 0o644)
    return root


def raise_file_limit(needed=4096):
    """Lifts RLIMIT_NOFILE to its hard limit for this process and every child
    (wrk and the servers at 1000 connections)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        log(f"httpbench: the hard limit on open files is {hard}; c=1000 needs about {needed} (ulimit -Hn)")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 s of every case, once (CI)")
    parser.add_argument("--rounds", type=int, help="rounds (default 3; quick 1)")
    parser.add_argument("--seconds", type=int, help="wrk's -d per case, whole seconds (default 10; quick 1)")
    parser.add_argument("--servers", default="nginx,hb,rxuv,rxuv-metrics",
                        help="comma-separated, from nginx, hb, rxuv, rxuv-metrics (default all four, in that order)")
    parser.add_argument("--skip-build", "--no-build", action="store_true", dest="skip_build",
                        help="use the release binaries already built")
    parser.add_argument("--hb-bin", help="the directory holding hb-http (default: Benchmarks' release bin path)")
    parser.add_argument("--rxuv-bin", help="the directory holding http-server (default: the root package's release bin path)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    parser.add_argument("--server-core", type=int, default=0)
    parser.add_argument("--client-core", type=int, default=1)
    settings = parser.parse_args()
    settings.rounds = settings.rounds or (1 if settings.quick else 3)
    settings.seconds = settings.seconds or (1 if settings.quick else 10)
    settings.warmup = 0 if settings.quick else 1
    known, asked = [key for key, _ in SERVERS], settings.servers.split(",")
    if not set(asked) <= set(known):
        parser.error(f"--servers: a comma-separated list from {', '.join(known)}")
    settings.servers = [key for key in known if key in asked]
    if settings.rounds < 1 or not 1 <= settings.seconds <= 120:
        parser.error("rounds must be at least 1, seconds in [1, 120]")

    missing = [tool for tool, there in (("wrk", shutil.which("wrk")), ("nginx", os.access(NGINX, os.X_OK)))
               if not there and (tool == "wrk" or "nginx" in settings.servers)]
    if missing:
        raise RuntimeError(f"{' and '.join(missing)} missing: run `make setup` (it installs wrk and nginx-light)")
    if not settings.skip_build:
        build(settings.servers)
    if "hb" in settings.servers:
        settings.hb_bin = settings.hb_bin or bin_path()
    if "rxuv" in settings.servers or "rxuv-metrics" in settings.servers:
        settings.rxuv_bin = settings.rxuv_bin or root_bin_path()
    raise_file_limit()
    pinning = Pinning(not settings.no_pin, settings.server_core, settings.client_core)
    directory = tempfile.mkdtemp(prefix="rxuv-httpbench-")
    started = time.monotonic()
    try:
        root = make_root(directory)
        results = {}
        for round_index in range(settings.rounds):
            run_round(settings, pinning, directory, root, results, round_index)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    report(results, settings, pinning)
    print(f"\nhttpbench: {'quick mode, ' if settings.quick else ''}measured in {time.monotonic() - started:.1f} s (build excluded)")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"httpbench: {error}")
        sys.exit(1)
