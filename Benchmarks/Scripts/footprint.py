#!/usr/bin/env python3
"""What a release echo-server costs before it serves anything: the size of
the executable and of the shared libraries it loads, the time from exec to
its first line of output ("listening on", "port N"), and the resident memory
at that point (median of N runs).

    python3 Benchmarks/Scripts/footprint.py RUNS .build/release/echo-server --port 0 --threads 1
    python3 Benchmarks/Scripts/footprint.py RUNS Benchmarks/.build/release/rxuv-echo

Used for the FoundationEssentials measurement in
Documentation/Benchmarks/2026-11-24-third-performance-round.md.
"""
import os
import signal
import statistics
import subprocess
import sys
import time


def shared_libraries(binary):
    libs = {}
    for line in subprocess.run(["ldd", binary], capture_output=True, text=True).stdout.splitlines():
        parts = line.split("=>")
        if len(parts) == 2 and parts[1].strip().startswith("/"):
            path = parts[1].split("(")[0].strip()
            libs[parts[0].strip()] = os.path.getsize(os.path.realpath(path))
    return libs


def one_run(command):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    elapsed = time.perf_counter() - start
    if not line:
        process.kill()
        raise SystemExit("the server printed nothing")
    with open(f"/proc/{process.pid}/status") as status:
        rss = next(int(row.split()[1]) for row in status if row.startswith("VmRSS:"))
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=10)
    return elapsed, rss


def main():
    runs = int(sys.argv[1])
    command = sys.argv[2:]
    binary = command[0]
    libs = shared_libraries(binary)
    one_run(command)  # warm the page cache
    results = [one_run(command) for _ in range(runs)]
    startup = statistics.median(r[0] for r in results) * 1000
    rss = statistics.median(r[1] for r in results)
    print(f"executable: {os.path.getsize(binary) / 1024:.0f} KiB")
    print(f"shared libraries: {len(libs)}, {sum(libs.values()) / 1024 / 1024:.1f} MiB")
    for name in sorted(libs):
        if "Foundation" in name or "icu" in name:
            print(f"  {name}: {libs[name] / 1024 / 1024:.1f} MiB")
    print(f"start-up to listening (median of {runs}): {startup:.1f} ms")
    print(f"RSS when listening (median): {rss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
