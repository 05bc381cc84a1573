#!/usr/bin/env python3
"""The echo in async/await beside the README's Rx chain, in one run: server
CPU per 64-byte round trip of `rxuv-echo` (the Rx chain), `rxuv-echo
--async` (`for try await` in a task that prefers the loop), `rxuv-echo
--actor` (an actor on the loop) and `nio-echo --async` (SwiftNIO's
`NIOAsyncChannel`), at 10, 100 and 1000 connections.

    Benchmarks/Scripts/asyncbench.py               # 6 rounds (≈ 3 min), release binaries already built
    Benchmarks/Scripts/asyncbench.py --rounds 2    # fewer

Every round starts each server in turn pinned to one core and drives it
with `netload` pinned to the other (2 s per case after 0.3 s of warm-up),
then prints, for each form and connection count, the median CPU per round
trip and the median of each round's ratio to the Rx chain of the same
round: the figure the async target (≤ 1.15) is judged by. Needs
`swift build -c release --product rxuv-echo`, `nio-echo` and `netload` in
Benchmarks/. Everything runs on 127.0.0.1 and stops by itself.
"""
import argparse
import os
import re
import statistics
import subprocess

BINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release")
FORMS = [
    ("Rx chain", ["rxuv-echo"]),
    ("async", ["rxuv-echo", "--async"]),
    ("actor", ["rxuv-echo", "--actor"]),
    ("NIO async", ["nio-echo", "--async"]),
]
CONNECTIONS = (10, 100, 1000)


def serve(argv, server_core):
    process = subprocess.Popen(["taskset", "-c", server_core, os.path.join(BINS, argv[0])] + argv[1:] + ["--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    found = re.search(r"port (\d+)", line)
    if not found:
        process.kill()
        raise RuntimeError(f"{argv[0]} printed no port: {line!r}")
    return process, found.group(1)


def cpu_per_round_trip(port, pid, connections, client_core):
    output = subprocess.run(
        ["taskset", "-c", client_core, os.path.join(BINS, "netload"), "--port", port, "--connections", str(connections),
         "--seconds", "2", "--warmup", "0.3", "--server-pid", str(pid)],
        capture_output=True, text=True, timeout=60).stdout
    found = re.search(r"server_cpu_us_per_rt=([0-9.]+)", output)
    if not found:
        raise RuntimeError(f"netload reported no server CPU: {output!r}")
    return float(found.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--server-core", default="0")
    parser.add_argument("--client-core", default="1")
    settings = parser.parse_args()
    results = {}
    for _ in range(settings.rounds):
        for name, argv in FORMS:
            process, port = serve(argv, settings.server_core)
            try:
                for connections in CONNECTIONS:
                    results.setdefault((name, connections), []).append(
                        cpu_per_round_trip(port, process.pid, connections, settings.client_core))
            finally:
                process.terminate()
                process.wait()
    print(f"Server CPU per round trip (µs), {settings.rounds} rounds; ratio: the median of each round's ratio to the Rx chain\n")
    print("| form | " + " | ".join(f"c={c} µs | c={c} / Rx chain" for c in CONNECTIONS) + " |")
    print("|---|" + "---:|---:|" * len(CONNECTIONS))
    for name, _ in FORMS:
        cells = []
        for connections in CONNECTIONS:
            own = results[(name, connections)]
            chain = results[("Rx chain", connections)]
            ratios = [mine / theirs for mine, theirs in zip(own, chain)]
            cells.append(f"{statistics.median(own):.2f} | {statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
