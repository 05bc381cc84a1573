#!/usr/bin/env python3
"""statsd-agg's throughput: the most datagrams per second it takes in on one
core with no loss.

    Benchmarks/Scripts/statsdbench.py                  # release build, then the search (≈ 1 min)
    Benchmarks/Scripts/statsdbench.py --quick          # one second at one rate, to keep the script working
    Benchmarks/Scripts/statsdbench.py --bin .build/release   # an existing build

statsd-agg (release) runs pinned to core 0; this script sends from core 1
(`sendmmsg`, one counter line a datagram, `bench.hits:1|c`), at a rate
raised step by step (×1.25) until the kernel drops datagrams on
statsd-agg's socket (the `drops` column of /proc/net/udp), then narrowed by
bisection. A rate passes when every datagram sent was counted by statsd-agg
(its `statsd.packets_received`, read from its JSON flushes) and the kernel
dropped none. The sender itself tops out near 400,000 datagrams a second
on loopback (the kernel's delivery runs on its core): a result near that is
the sender's limit, and is reported as such.
"""

import argparse
import ctypes
import ctypes.util
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The example tests' helpers: the kernel's UDP drop count.
sys.path.insert(0, os.path.join(ROOT, "Tests", "Examples"))
from support import udp_drops  # noqa: E402
PAYLOAD = b"bench.hits:1|c"


def log(message):
    print(message, file=sys.stderr, flush=True)


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


class MessageHeader(ctypes.Structure):
    _fields_ = [("name", ctypes.c_void_p), ("name_length", ctypes.c_uint32), ("iov", ctypes.c_void_p), ("iov_length", ctypes.c_size_t),
                ("control", ctypes.c_void_p), ("control_length", ctypes.c_size_t), ("flags", ctypes.c_int)]


class MultipleMessageHeader(ctypes.Structure):
    """struct mmsghdr, for sendmmsg(2)."""
    _fields_ = [("header", MessageHeader), ("length", ctypes.c_uint)]


class Sender:
    """A UDP socket that sends PAYLOAD in batches with sendmmsg(2)."""

    BATCH = 256

    def __init__(self, port):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.connect(("127.0.0.1", port))
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.buffer = ctypes.create_string_buffer(PAYLOAD, len(PAYLOAD))
        self.iov = IOVec(ctypes.cast(self.buffer, ctypes.c_void_p), len(PAYLOAD))
        self.messages = (MultipleMessageHeader * Sender.BATCH)()
        for message in self.messages:
            message.header.iov = ctypes.cast(ctypes.pointer(self.iov), ctypes.c_void_p)
            message.header.iov_length = 1

    def send(self, count):
        """Sends `count` datagrams; returns how many the kernel took."""
        sent = 0
        while sent < count:
            taken = self.libc.sendmmsg(self.socket.fileno(), self.messages, min(Sender.BATCH, count - sent), 0)
            if taken <= 0:
                break
            sent += taken
        return sent

    def run(self, rate, seconds):
        """Sends at `rate` a second for `seconds`, in 1 ms steps; returns (sent, elapsed)."""
        sent = 0
        started = time.monotonic()
        while True:
            elapsed = time.monotonic() - started
            if elapsed >= seconds:
                break
            due = int(elapsed * rate) + max(1, rate // 1000) - sent
            if due > 0:
                sent += self.send(due)
            else:
                time.sleep(0.0002)
        return sent, time.monotonic() - started

    def close(self):
        self.socket.close()


class Aggregator:
    """statsd-agg, pinned, flushing JSON to a pipe every 200 ms."""

    def __init__(self, binary, core):
        argv = [binary, "--port", "0", "--stdout", "--flush-interval", "200ms"]
        if shutil.which("taskset") and (os.cpu_count() or 1) >= 2:
            argv = ["taskset", "-c", str(core)] + argv
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.flushes = queue.Queue()
        self.received = 0
        line = self.process.stderr.readline()
        if "listening on 127.0.0.1:" not in line:
            raise RuntimeError(f"statsd-agg did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.flushes.put(json.loads(line)["metrics"]["stats.counters.statsd.packets_received.count"])

    def drain(self):
        """Reads flushes until two in a row count nothing new."""
        quiet = 0
        while quiet < 2:
            count = self.flushes.get(timeout=10)
            self.received += count
            quiet = quiet + 1 if count == 0 else 0
        return self.received

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def trial(aggregator, sender, rate, seconds):
    """(passed, sent, achieved rate, dropped, lost) of one rate."""
    aggregator.drain()
    received_before, drops_before = aggregator.received, udp_drops(aggregator.port)
    sent, elapsed = sender.run(rate, seconds)
    received = aggregator.drain() - received_before
    dropped = udp_drops(aggregator.port) - drops_before
    achieved = sent / elapsed
    lost = sent - received
    log(f"  {rate:>9,}/s asked, {achieved:>9,.0f}/s sent: received {received:,}, kernel dropped {dropped:,}")
    return dropped == 0 and lost == 0, sent, achieved, dropped, lost


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one second at 50,000 datagrams a second")
    parser.add_argument("--bin", help="the directory holding a release statsd-agg (default: build it)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a rate is held")
    arguments = parser.parse_args()

    if arguments.bin is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "statsd-agg"], cwd=ROOT, check=True)
        arguments.bin = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                       capture_output=True, text=True).stdout.strip()
    binary = os.path.join(arguments.bin, "statsd-agg")
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, {1})

    aggregator = Aggregator(binary, core=0)
    sender = Sender(aggregator.port)
    try:
        if arguments.quick:
            passed, sent, achieved, dropped, lost = trial(aggregator, sender, 50_000, 1.0)
            print(f"statsd-agg --quick: {sent:,} datagrams at {achieved:,.0f}/s, {dropped} dropped, {lost} lost")
            return 0 if lost == dropped else 1
        best, worst = 0, None
        rate = 50_000
        sender_limited = False
        while True:
            passed, _, achieved, _, _ = trial(aggregator, sender, rate, arguments.seconds)
            if not passed:
                worst = min(rate, int(achieved))
                break
            best = min(rate, int(achieved))
            if achieved < rate * 0.97:
                sender_limited = True  # no loss at all the sender could send
                break
            rate = int(rate * 1.25)
        for _ in range(4 if worst and worst - best > 2_000 else 0):
            rate = (best + worst) // 2
            passed, _, achieved, _, _ = trial(aggregator, sender, rate, arguments.seconds)
            if passed:
                best = rate
            else:
                worst = rate
        if sender_limited:
            print(f"statsd-agg: {best:,} datagrams/s with 0 loss on one core, the most the sender could send")
        else:
            print(f"statsd-agg: {best:,} datagrams/s with 0 loss on one core (first loss at {worst:,}/s)")
        return 0
    finally:
        sender.close()
        aggregator.stop()


if __name__ == "__main__":
    sys.exit(main())
