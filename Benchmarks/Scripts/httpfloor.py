#!/usr/bin/env python3
"""How the latency wrk measures at 100 connections follows a server's CPU
per request: nginx, the C floor (`uv-echo --http`: a fixed answer per
read on libuv) as it is and made dearer by a busy-wait per request, and RxUV's two
HTTP servers, side by side.

    Benchmarks/Scripts/httpfloor.py                      # release builds, then 3 rounds (≈ 2 min)
    Benchmarks/Scripts/httpfloor.py --skip-build --rounds 5 --seconds 5
    Benchmarks/Scripts/httpfloor.py --skip-build --servers nginx,http-server \
        --http-server before=/tmp/before --path /static/file64k.bin   # a change, side by side

Every server is started once, pinned to one core (nginx as httpbench.py
runs it; `uv-echo --http`, and with `--spin 600` and `--spin 1200` ns;
rxuv-http, the benchmark's routes with nothing recorded per request;
http-server `--no-request-metrics`). Each round runs `wrk -t1 -c100 --latency` on
/plaintext, pinned to the other core, against each server in turn (the
order turns by one each round), with Scripts/wrk-percentiles.lua, and
reads the server's CPU (utime + stime) around the run. Prints the medians
of CPU per request and of the 50th, 90th and 99th percentiles, and each
server's p99 over nginx's in the same round (median of the rounds).
`--path` asks for another of httpbench.py's paths (/json, the static
file; the C floors answer any path alike); `--servers` picks some of the
servers; `--http-server NAME=DIR` adds the http-server built in DIR
(a checkout's .build/release before a change), run as the one above.
Everything runs on 127.0.0.1 and stops by itself.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from httpbench import CLOCK_TICKS, Listening, Nginx, cpu_ticks, make_root, raise_file_limit, root_bin_path, stop  # noqa: E402
from netbench import PACKAGE, Pinning, Server, bin_path, log  # noqa: E402

# (key, label, how it starts)
SERVERS = [
    ("nginx", "nginx, 1 worker", None),
    ("floor", "uv-echo --http (C on libuv, a fixed answer per read)", ["uv-echo", "--http"]),
    ("floor+0.6", "uv-echo --http --spin 600", ["uv-echo", "--http", "--spin", "600"]),
    ("floor+1.2", "uv-echo --http --spin 1200", ["uv-echo", "--http", "--spin", "1200"]),
    ("rxuv-http", "rxuv-http (RxUVHTTP, the benchmark's routes)", ["rxuv-http"]),
    ("http-server", "http-server --no-request-metrics", "http-server"),
]


def start(key, how, settings, pinning, directory, root):
    if key == "nginx":
        return Nginx(pinning, directory, root)
    if how == "http-server" or how[0] == "http-server":
        bin_dir = settings.rxuv_bin if how == "http-server" else how[1]
        return Listening(key, pinning.server([os.path.join(bin_dir, "http-server"), "--port", "0", "--threads", "1",
                                              "--root", root, "--no-request-metrics"]), directory)
    return Server(pinning.server([os.path.join(settings.bench_bin, how[0]), "--port", "0"] + how[1:]))


def measure(pinning, server, seconds, path):
    script = os.path.join(HERE, "wrk-percentiles.lua")
    argv = pinning.client(["wrk", "-t1", "-c100", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{server.port}{path}"])
    before = cpu_ticks(server.process.pid)
    output = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=seconds + 30).stdout
    ticks = cpu_ticks(server.process.pid) - before
    found = dict(re.findall(r"(\w+(?:\.\d)?)=(\d+)", output.strip().splitlines()[-1]))
    requests = int(found["requests"])
    return {"cpu": ticks / CLOCK_TICKS * 1e6 / max(requests, 1), "p50": int(found["p50"]), "p90": int(found["p90"]),
            "p99": int(found["p99"])}


def main():
    sys.stdout.reconfigure(line_buffering=True)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--skip-build", "--no-build", action="store_true", dest="skip_build")
    parser.add_argument("--path", default="/plaintext", help="the path every server is asked for (default /plaintext)")
    parser.add_argument("--servers", default=",".join(key for key, _, _ in SERVERS),
                        help="comma-separated, from " + ", ".join(key for key, _, _ in SERVERS) + " (default all; nginx always)")
    parser.add_argument("--http-server", action="append", default=[], metavar="NAME=DIR",
                        help="also the http-server in DIR, as NAME (repeatable)")
    settings = parser.parse_args()
    wanted = {"nginx"} | set(settings.servers.split(","))
    unknown = wanted - {key for key, _, _ in SERVERS}
    if unknown:
        raise ValueError(f"unknown servers: {', '.join(sorted(unknown))}")
    chosen = [server for server in SERVERS if server[0] in wanted]
    for extra in settings.http_server:
        name, _, bin_dir = extra.partition("=")
        if not name or not os.path.isfile(os.path.join(bin_dir, "http-server")):
            raise ValueError(f"--http-server {extra}: NAME=DIR, with DIR holding an http-server")
        chosen.append((name, f"http-server --no-request-metrics, from {bin_dir}", ("http-server", bin_dir)))
    if not settings.skip_build:
        log("httpfloor: swift build -c release --product uv-echo, rxuv-http (Benchmarks/), http-server")
        for product in ("uv-echo", "rxuv-http"):
            subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", product], check=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "http-server"], cwd=os.path.dirname(PACKAGE), check=True)
    settings.bench_bin, settings.rxuv_bin = bin_path(), root_bin_path()
    raise_file_limit()
    pinning = Pinning(True, 0, 1)
    directory = tempfile.mkdtemp(prefix="rxuv-httpfloor-")
    servers, results = {}, {key: [] for key, _, _ in chosen}
    try:
        root = make_root(directory)
        for key, _, how in chosen:
            servers[key] = start(key, how, settings, pinning, directory, root)
            measure(pinning, servers[key], 1, settings.path)
        keys = [key for key, _, _ in chosen]
        for round_index in range(settings.rounds):
            turn = round_index % len(keys)
            for key in keys[turn:] + keys[:turn]:
                results[key].append(measure(pinning, servers[key], settings.seconds, settings.path))
            log(f"httpfloor: round {round_index + 1}: " + " ".join(
                f"{key}={results[key][-1]['cpu']:.2f}µs,p99={results[key][-1]['p99']}" for key in keys))
    finally:
        for server in servers.values():
            stop(server)
        shutil.rmtree(directory, ignore_errors=True)
    print(f"\n`wrk -t1 -c100 -d{settings.seconds}s` on {settings.path}, {settings.rounds} rounds, medians; "
          "servers on core 0, wrk on core 1.\n")
    print("| server | CPU µs/request | p50 µs | p90 µs | p99 µs | p99 / nginx's |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, label, _ in chosen:
        med = {name: statistics.median(record[name] for record in results[key]) for name in ("cpu", "p50", "p90", "p99")}
        ratio = statistics.median(a["p99"] / b["p99"] for a, b in zip(results[key], results["nginx"]))
        print(f"| {label} | {med['cpu']:.2f} | {med['p50']:.0f} | {med['p90']:.0f} | {med['p99']:.0f} | {ratio:.2f} |")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        log(f"httpfloor: {error}")
        sys.exit(1)
