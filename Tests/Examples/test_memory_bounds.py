"""Memory against peers that send and never read, through real processes: the
daemons' resident memory stays under the bound their watermarks promise.

- echo-server: a connection holds at most its write high watermark (64 KiB)
  of echoed bytes and one read (64 KiB); past the watermark reading pauses.
- kv-server, pipelined commands whose replies outweigh them (GET of a large
  value): at most the high watermark of replies, one batch of replies
  (64 KiB) and one read's commands, whatever a reply weighs; the held
  commands are answered, in order, once the client reads.
- kv-server, a pub/sub subscriber that never reads: closed once its
  messages pass --pubsub-output-limit, as Redis does.
- statsd-agg under a UDP flood: the kernel drops what the socket cannot
  hold; a flood of distinct names keeps at most --max-names of them.

Each case measures the growth of the peak resident set (VmHWM) over the
resident set before the load, and states the bound it checks against.
RELIABILITY.md lists the figures."""

import os
import re
import socket
import threading
import time
import unittest

from resp import encode
from support import Example, cpu_seconds, status_kib, udp_drops

KiB = 1024
MiB = 1024 * KiB
#: Allocator and runtime slack on top of each computed bound: malloc's
#: arenas, the thread pool, the debug build's larger frames.
SLACK = 4 * MiB


def flood(port, payload, clients, limit_bytes, seconds=15.0):
    """`clients` connections that each send `payload` over and over, up to
    `limit_bytes`, and never read (a small receive buffer); returns the
    sockets once every one is done or has stalled for a second, and the
    bytes each sent."""
    sockets = []
    for _ in range(clients):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.setblocking(False)
        sockets.append(sock)
    sent = [0] * clients
    deadline = time.monotonic() + seconds
    last_progress = time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - last_progress < 1.0:
        progressed = False
        for index, sock in enumerate(sockets):
            if sent[index] >= limit_bytes:
                continue
            try:
                sent[index] += sock.send(payload)
                progressed = True
            except BlockingIOError:
                pass
        if progressed:
            last_progress = time.monotonic()
        elif all(count >= limit_bytes for count in sent):
            break
        else:
            time.sleep(0.01)
    return sockets, sent


def read_exactly(sock, count, timeout=60.0):
    sock.setblocking(True)
    sock.settimeout(timeout)
    chunks, got = [], 0
    while got < count:
        chunk = sock.recv(min(1 << 20, count - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class MemoryBoundsTests(unittest.TestCase):
    def start(self, name, *args):
        example = Example(name, "--port", 0, *args)
        self.addCleanup(example.stop)
        found = None
        deadline = time.monotonic() + 20
        while found is None and time.monotonic() < deadline:
            for line in list(example.stdout) + list(example.stderr):
                found = found or re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            time.sleep(0.02)
        self.assertIsNotNone(found, f"{name} did not say where it listens: {example.stderr}")
        return example, int(found.group(1))

    def assert_growth_under(self, example, before_kib, bound, what):
        """Once the daemon is idle (its CPU time still for 300 ms, within
        10 s: it has done what the load let it do), its peak RSS has grown
        less than `bound` bytes over `before_kib`."""
        deadline = time.monotonic() + 10
        last = cpu_seconds(example.process.pid)
        while time.monotonic() < deadline:
            time.sleep(0.3)
            now = cpu_seconds(example.process.pid)
            if now == last:
                break
            last = now
        growth = status_kib(example.process.pid, "VmHWM") * KiB - before_kib * KiB
        print(f"\n    {what}: peak RSS grew {growth / MiB:.1f} MiB (bound {bound / MiB:.1f} MiB)", end="")
        self.assertLess(growth, bound, f"{what}: peak RSS grew {growth / MiB:.1f} MiB, over {bound / MiB:.1f} MiB")

    def test_echo_peers_that_never_read(self):
        example, port = self.start("echo-server", "--threads", "1")
        before = status_kib(example.process.pid, "VmRSS")
        clients = 20
        sockets, sent = flood(port, b"x" * (64 * KiB), clients, limit_bytes=64 * MiB)
        try:
            self.assertTrue(all(count < 64 * MiB for count in sent), f"a peer that never reads could send all it had: {sent}")
            self.assert_growth_under(example, before, clients * 128 * KiB + SLACK, f"echo, {clients} peers that never read")
            # Reading again, a peer gets its bytes back in order.
            echoed = read_exactly(sockets[0], sent[0])
            self.assertEqual(echoed, b"x" * sent[0])
        finally:
            for sock in sockets:
                sock.close()
        self.assertIsNone(example.process.poll())

    def test_kv_pipelining_without_reading(self):
        """GETs of a 1 KiB value: a 22-byte command asks for 1 KiB. Without
        a bound on what one read's commands queue, each connection's 64 KiB
        reads queued some 3 MiB of replies (68 MiB over 20 connections)."""
        example, port = self.start("kv-server", "--threads", "1")
        setup = socket.create_connection(("127.0.0.1", port), timeout=10)
        setup.sendall(encode("SET", "big", b"v" * KiB) + encode("SET", "n", "0"))
        self.assertEqual(read_exactly(setup, 10), b"+OK\r\n+OK\r\n")
        setup.close()
        before = status_kib(example.process.pid, "VmRSS")
        clients, pairs = 20, 90_000
        request = (encode("GET", "big") + encode("INCR", "n")) * pairs
        sockets, sent = flood(port, request, clients, limit_bytes=len(request))
        try:
            self.assert_growth_under(example, before, clients * 768 * KiB + SLACK, f"kv-server, {clients} pipelining peers that never read")
            # Reading again, every held command is answered, in order: the
            # first peer sends the rest of its commands and reads them all.
            first = sockets[0]
            first.setblocking(True)
            rest = threading.Thread(target=first.sendall, args=(request[sent[0]:],))
            rest.start()
            bulk = b"$%d\r\n%s\r\n" % (KiB, b"v" * KiB)
            first.settimeout(60)
            answers, position, counts = b"", 0, []
            while len(counts) < pairs:
                end = answers.find(b"\r\n", position + len(bulk)) if len(answers) >= position + len(bulk) else -1
                if end < 0:
                    chunk = first.recv(1 << 20)
                    self.assertTrue(chunk, f"the connection closed after {len(counts)} of {pairs} answers")
                    answers = answers[position:] + chunk
                    position = 0
                    continue
                self.assertEqual(answers[position:position + len(bulk)], bulk, f"answer {len(counts)} is not the value")
                counts.append(int(answers[position + len(bulk) + 1:end]))
                position = end + 2
            rest.join(timeout=30)
            self.assertEqual(counts, sorted(counts), "INCR answers out of order")
            self.assertEqual(len(set(counts)), pairs)
        finally:
            for sock in sockets:
                sock.close()
        self.assertIsNone(example.process.poll())

    def test_kv_pubsub_subscriber_that_never_reads(self):
        limit = 1 * MiB
        example, port = self.start("kv-server", "--threads", "2", "--pubsub-output-limit", str(limit))
        subscriber = socket.socket()
        subscriber.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        subscriber.connect(("127.0.0.1", port))
        subscriber.settimeout(10)
        subscriber.sendall(encode("SUBSCRIBE", "news"))
        confirmation = b"*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n"
        self.assertEqual(read_exactly(subscriber, len(confirmation)), confirmation)
        before = status_kib(example.process.pid, "VmRSS")
        publisher = socket.create_connection(("127.0.0.1", port), timeout=10)
        message = b"m" * (4 * KiB)
        receivers = None
        published = 0
        deadline = time.monotonic() + 30
        # Bounded: at most 20,000 messages (80 MiB) or 30 s.
        while published < 20_000 and time.monotonic() < deadline:
            publisher.sendall(encode("PUBLISH", "news", message) * 100)
            replies = read_exactly(publisher, 4 * 100)
            published += 100
            receivers = replies[-4:]
            if receivers == b":0\r\n":
                break
        self.assertEqual(receivers, b":0\r\n", "the subscriber that never reads was never closed")
        self.assertLess(published * len(message), 16 * MiB)
        example.expect_stderr(r"subscriber \d+ is not reading \(pub/sub output limit of 1048576 bytes\); closing it")
        self.assert_growth_under(example, before, limit + SLACK, "kv-server, a subscriber that never reads")
        publisher.close()
        subscriber.close()
        self.assertIsNone(example.process.poll())

    def flood_udp(self, port, datagrams, seconds):
        """Sends `datagrams` round and round from two threads for `seconds`."""
        sent = [0, 0]

        def send(slot):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    for datagram in datagrams:
                        sender.sendto(datagram, ("127.0.0.1", port))
                    sent[slot] += len(datagrams)

        threads = [threading.Thread(target=send, args=(slot,)) for slot in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(sent)

    def test_statsd_udp_flood(self):
        """A flood of a few names: the receive path holds one batch of
        datagrams; what the socket cannot take, the kernel drops."""
        example, port = self.start("statsd-agg", "--stdout", "--flush-interval", "500ms")
        before = status_kib(example.process.pid, "VmRSS")
        datagrams = [b"\n".join(b"flood.c%d:1|c\nflood.g%d:%d|g" % (index, index, index) for index in range(20))] * 10
        sent = self.flood_udp(port, datagrams, seconds=3)
        drops = udp_drops(port)
        print(f"\n    statsd-agg: {sent} datagrams sent, {drops} dropped by the kernel", end="")
        self.assert_growth_under(example, before, SLACK, "statsd-agg, a flood of 40 names")
        self.assertIsNone(example.process.poll())

    def test_statsd_flood_of_distinct_names(self):
        """Every datagram a new name: at most --max-names are kept."""
        example, port = self.start("statsd-agg", "--stdout", "--flush-interval", "500ms", "--max-names", "10000")
        before = status_kib(example.process.pid, "VmRSS")
        datagrams = [b"\n".join(b"distinct.%d.%d:1|c" % (batch, index) for index in range(20)) for batch in range(10_000)]
        sent = self.flood_udp(port, datagrams, seconds=3)
        self.assertGreater(sent, 20_000)
        example.expect_stderr(r"dropped \d+ samples of new names: 10000 names are kept already \(--max-names\)", timeout=5)
        # Some 400 bytes a name: the name, its slot, its two lines in each
        # flush. Without the cap, 3 s of this flood grow it by some 39 MiB,
        # and on without end.
        self.assert_growth_under(example, before, 10_000 * 400 + SLACK, "statsd-agg, a flood of distinct names")
        self.assertIsNone(example.process.poll())


if __name__ == "__main__":
    unittest.main()
