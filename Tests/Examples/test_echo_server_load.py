"""echo-server under load and against hostile peers, as a process over 127.0.0.1.

The figures are bounded for CI (10,000 concurrent connections, or as many as
the descriptor limit allows; 5,000 connect/close cycles; 20 clients that never
read); RXUV_LOAD_CONNECTIONS, RXUV_FLOOD_CYCLES and RXUV_NON_READERS change
them for a longer manual run."""

import errno
import math
import os
import random
import resource
import selectors
import signal
import socket
import struct
import time
import unittest

from support import Example, connect

CONNECTIONS = int(os.environ.get("RXUV_LOAD_CONNECTIONS", "10000"))
FLOOD_CYCLES = int(os.environ.get("RXUV_FLOOD_CYCLES", "5000"))
NON_READERS = int(os.environ.get("RXUV_NON_READERS", "20"))
MAX_MESSAGE = 256 * 1024
HIGH_WATERMARK = 64 * 1024   # TCPConnection.highWatermark's default
READ_SIZE = 64 * 1024        # the loop's read buffer: the most one read delivers


def raise_fd_limit(needed):
    """Raises this process's open-file limit (children inherit it) to at least
    `needed`, as far as the hard limit allows; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(soft, needed)
    if hard != resource.RLIM_INFINITY:
        target = min(target, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def open_connections(port, count, deadline, cleanup):
    """Opens `count` connections with non-blocking connects, at most 100 in
    flight, and returns the sockets; `cleanup` gets a closer for them. (More
    in flight than the listener's backlog of 128 makes Linux drop handshakes
    that the client already thinks complete; they then wait for SYN-ACK
    retransmits, seconds apart.)"""
    selector = selectors.DefaultSelector()
    connected = []
    everything = []
    cleanup(lambda: [sock.close() for sock in everything])
    pending = 0
    started = 0
    while len(connected) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"only {len(connected)} of {count} connections opened in time")
        while started < count and pending < 100:
            sock = socket.socket()
            everything.append(sock)
            sock.setblocking(False)
            code = sock.connect_ex(("127.0.0.1", port))
            if code not in (0, errno.EINPROGRESS):
                raise AssertionError(f"connect {started}: {os.strerror(code)}")
            selector.register(sock, selectors.EVENT_WRITE)
            started += 1
            pending += 1
        for key, _ in selector.select(timeout=1):
            sock = key.fileobj
            selector.unregister(sock)
            pending -= 1
            code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code:
                raise AssertionError(f"connect: {os.strerror(code)}")
            connected.append(sock)
    selector.close()
    return connected


class EchoServerLoadTests(unittest.TestCase):
    def start(self, *args, env=None):
        server = Example("echo-server", "--port", 0, "--idle-timeout", "0", *args, env=env)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def counters(self, server, open_count, timeout=10.0):
        """Sends SIGHUP until the server reports `open_count` open connections;
        returns (served, refused, echoed)."""
        deadline = time.monotonic() + timeout
        while True:
            server.send_signal(signal.SIGHUP)
            match = server.expect_line(r"^echo-server: (\d+) open, (\d+) served, (\d+) refused, (\d+) bytes echoed$")
            if int(match.group(1)) == open_count:
                return int(match.group(2)), int(match.group(3)), int(match.group(4))
            if time.monotonic() > deadline:
                raise AssertionError(f"the server reports {match.group(1)} open, expected {open_count}")
            time.sleep(0.1)

    def stop(self, server):
        server.send_signal(signal.SIGTERM)
        code, waited = server.wait(3.0)
        self.assertEqual(code, 0, server.stderr)
        self.assertLess(waited, 3.0)

    def test_concurrent_connections_random_sizes_every_byte_checked(self):
        # As many as the descriptor limit allows, up to CONNECTIONS (10,000
        # by default): the client and the server each hold one per connection.
        connections = min(CONNECTIONS, raise_fd_limit(CONNECTIONS + 256) - 256)
        server, port = self.start()
        generator = random.Random(6)
        # Sizes log-uniform over 1 B .. 256 KiB (every order of magnitude as
        # likely); each connection sends a slice of one random pool, so the
        # check needs no per-connection copy.
        pool = generator.randbytes(2 * MAX_MESSAGE)
        sizes = [min(MAX_MESSAGE, int(math.exp(generator.uniform(0, math.log(MAX_MESSAGE + 1))))) for _ in range(connections)]
        starts = [generator.randrange(MAX_MESSAGE) for _ in range(connections)]
        started = time.monotonic()
        sockets = open_connections(port, connections, started + 60, self.addCleanup)
        # All of them are open at once on the server.
        self.assertEqual(self.counters(server, connections), (connections, 0, 0))
        held = time.monotonic()
        rss_held = server.rss_kib()

        selector = selectors.DefaultSelector()
        states = {}
        for index, sock in enumerate(sockets):
            states[sock] = [index, 0, 0]   # index, bytes sent, bytes checked
            selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
        remaining = connections
        deadline = time.monotonic() + 90
        while remaining:
            if time.monotonic() > deadline:
                raise AssertionError(f"{remaining} connections had not finished their echo in time")
            for key, events in selector.select(timeout=1):
                sock = key.fileobj
                state = states[sock]
                index, sent, checked = state
                size, start = sizes[index], starts[index]
                if events & selectors.EVENT_WRITE and sent < size:
                    try:
                        sent += sock.send(pool[start + sent:start + min(size, sent + 64 * 1024)])
                    except BlockingIOError:
                        pass
                    state[1] = sent
                    if sent == size:
                        sock.shutdown(socket.SHUT_WR)
                        selector.modify(sock, selectors.EVENT_READ)
                if events & selectors.EVENT_READ:
                    try:
                        chunk = sock.recv(256 * 1024)
                    except BlockingIOError:
                        continue
                    if chunk:
                        expected = pool[start + checked:start + checked + len(chunk)]
                        if chunk != expected:
                            raise AssertionError(f"connection {index}: bytes {checked}..{checked + len(chunk)} differ")
                        state[2] = checked + len(chunk)
                    else:
                        self.assertEqual(checked, size, f"connection {index}: {checked} of {size} bytes came back")
                        selector.unregister(sock)
                        sock.close()
                        remaining -= 1
        selector.close()
        finished = time.monotonic()
        total = sum(sizes)
        # Every connection closed on the server too: back to idle.
        self.assertEqual(self.counters(server, 0), (connections, 0, total))
        rss_after = server.rss_kib()
        print(f"  {connections} connections held at once (opened in {held - started:.1f}s, server RSS {rss_held // 1024} MiB); "
              f"{total} bytes echoed and checked in {finished - held:.1f}s; back to 0 open, RSS {rss_after // 1024} MiB", flush=True)
        self.stop(server)

    def test_5000_connect_close_cycles(self):
        server, port = self.start()
        started = time.monotonic()
        for cycle in range(FLOOD_CYCLES):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                kind = cycle % 4
                if kind == 1:       # send, then close without reading the echo
                    sock.sendall(b"x" * 100)
                elif kind == 2:     # close with a reset (RST instead of FIN)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                elif kind == 3:     # a full echo
                    sock.sendall(b"ping")
                    self.assertEqual(sock.recv(16), b"ping")
        elapsed = time.monotonic() - started
        served, refused, _ = self.counters(server, 0)
        self.assertEqual((served, refused), (FLOOD_CYCLES, 0))
        with connect(port) as client:   # still serving
            client.sendall(b"after the flood")
            self.assertEqual(client.recv(64), b"after the flood")
        print(f"  {FLOOD_CYCLES} connect/close cycles (plain, unread data, reset, echo) in {elapsed:.1f}s; back to 0 open", flush=True)
        self.stop(server)

    def test_peers_that_reset_mid_write_do_not_hurt_the_server(self):
        server, port = self.start()
        chunk = random.Random(7).randbytes(1024 * 1024)
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.setblocking(False)
            try:
                sock.send(chunk)   # the server is echoing into our full buffers...
            except BlockingIOError:
                pass
            time.sleep(0.002)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()           # ...when we reset: its writes fail with EPIPE/ECONNRESET
        served, _, _ = self.counters(server, 0)
        self.assertEqual(served, 50)
        self.assertIsNone(server.process.poll(), "the server died (SIGPIPE?)")
        with connect(port) as client:
            client.sendall(b"alive")
            self.assertEqual(client.recv(16), b"alive")
        self.stop(server)

    def test_a_client_that_connects_and_sends_nothing_is_closed_by_the_idle_timeout(self):
        server = Example("echo-server", "--port", 0, "--idle-timeout", "200ms")
        self.addCleanup(server.stop)
        port = server.listening_port()
        idle = [connect(port) for _ in range(20)]
        started = time.monotonic()
        for sock in idle:
            self.assertEqual(sock.recv(16), b"")
            sock.close()
        self.assertLess(time.monotonic() - started, 2.0)
        self.assertEqual(self.counters(server, 0)[0], 20)
        self.stop(server)

    def test_clients_that_never_read_while_sending_200_MiB_hold_bounded_memory(self):
        # glibc serves allocations of 64 KiB and more (each full read's
        # buffer) by mmap and unmaps them when freed, so RSS follows the
        # buffers the server holds rather than freed memory the allocator keeps.
        server, port = self.start(env={"MALLOC_MMAP_THRESHOLD_": str(64 * 1024)})
        self.counters(server, 0)
        idle = server.rss_kib()
        # The baseline is the server holding the same connections, each set
        # up by one small echo: what the bound limits is the data it buffers.
        clients = [connect(port) for _ in range(NON_READERS)]
        for sock in clients:
            self.addCleanup(sock.close)
            sock.sendall(b"w")
            self.assertEqual(sock.recv(16), b"w")
            sock.setblocking(False)
        self.counters(server, NON_READERS)
        baseline = server.rss_kib()
        target = 200 * 1024 * 1024
        chunk = bytes(256 * 1024)
        sent = [0] * NON_READERS
        # Every client tries to send 200 MiB and reads nothing: the server
        # echoes until its writes back up, then stops reading; the kernel's
        # buffers fill and the sends stall. Stop once nobody got a byte
        # through for 1 s (or after 20 s).
        started = time.monotonic()
        last_progress = started
        peak = baseline
        while time.monotonic() - last_progress < 1.0 and time.monotonic() - started < 20:
            progressed = False
            for index, sock in enumerate(clients):
                if sent[index] >= target:
                    continue
                try:
                    sent[index] += sock.send(chunk[:min(len(chunk), target - sent[index])])
                    progressed = True
                except BlockingIOError:
                    pass
            if progressed:
                last_progress = time.monotonic()
            else:
                time.sleep(0.01)
                peak = max(peak, server.rss_kib())
        stalled = server.rss_kib()
        self.assertLess(sum(sent), NON_READERS * target, "a client got all 200 MiB through without reading")
        self.assertIsNone(server.process.poll(), "the server died")
        with connect(port) as client:   # still serving
            client.sendall(b"still here")
            self.assertEqual(client.recv(64), b"still here")
        for sock in clients:
            sock.close()
        self.counters(server, 0)
        time.sleep(0.2)
        closed = server.rss_kib()
        # What the server held for these peers once they stalled: what it
        # gave back when they closed, less the connections' own state.
        # The bound: twice the high watermark per connection.
        held = (stalled - closed) - (baseline - idle)
        bound = 2 * HIGH_WATERMARK * NON_READERS // 1024
        self.assertLess(held, bound, f"the server held {held} KiB for {NON_READERS} clients that never read ({sum(sent)} bytes sent)")
        # The whole process, transients included: a stalled connection may
        # queue the watermark plus the read that crossed it (64 KiB); a write
        # the kernel takes at once (uv_try_write) frees its read at once.
        peak_bound = 2 * (HIGH_WATERMARK + READ_SIZE) * NON_READERS // 1024
        self.assertLess(peak - baseline, peak_bound, f"server RSS peaked {peak - baseline} KiB over its baseline")
        print(f"  {NON_READERS} clients that never read sent {sum(sent) / 2**20:.1f} MiB in all before stalling "
              f"(max {max(sent) / 2**20:.1f} MiB each) in {last_progress - started:.1f}s; the server held {held} KiB for them "
              f"(bound {bound} KiB); RSS {baseline} KiB with the connections idle, {stalled} KiB stalled, peak {peak} KiB "
              f"(bound {baseline + peak_bound} KiB); "
              f"back to 0 open, still serving", flush=True)
        self.stop(server)

    def test_half_close_from_the_client_every_byte_comes_back_then_eof(self):
        # SHUT_WR while the server still has echo bytes to send (we have not
        # read any yet, so its writes are backed up): it must finish them,
        # then close its side.
        server, port = self.start()
        payload = random.Random(8).randbytes(8 * 1024 * 1024)
        with connect(port, timeout=10) as sock:
            received = bytearray()
            sock.setblocking(False)
            offset = 0
            deadline = time.monotonic() + 30
            while offset < len(payload):   # read only when we cannot send
                if time.monotonic() > deadline:
                    raise AssertionError(f"sent only {offset} of {len(payload)} bytes")
                try:
                    offset += sock.send(payload[offset:offset + 256 * 1024])
                except BlockingIOError:
                    try:
                        received += sock.recv(1024 * 1024)
                    except BlockingIOError:
                        time.sleep(0.001)
            sock.shutdown(socket.SHUT_WR)
            sock.settimeout(10)
            while True:
                chunk = sock.recv(1024 * 1024)
                if not chunk:
                    break
                received += chunk
            self.assertEqual(len(received), len(payload))
            self.assertTrue(received == payload, "the echo differs")
        self.counters(server, 0)
        self.stop(server)

    def test_sigterm_and_sigint_under_load_exit_0_within_3_seconds(self):
        for signum in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=signal.Signals(signum).name):
                server, port = self.start()
                sockets = open_connections(port, 1000, time.monotonic() + 30, self.addCleanup)
                self.counters(server, 1000)
                chunk = bytes(64 * 1024)
                # Every client has data in flight; none reads, so the server
                # has writes it cannot finish when the signal arrives.
                for sock in sockets:
                    try:
                        sock.send(chunk)
                    except BlockingIOError:
                        pass
                server.send_signal(signum)
                code, waited = server.wait(3.0)
                self.assertEqual(code, 0, server.stderr)
                self.assertLess(waited, 3.0)
                self.assertRegex(server.stdout[-1], r"^echo-server: stopped; served 1000 connections, echoed \d+ bytes$")
                for sock in sockets:
                    sock.close()


if __name__ == "__main__":
    unittest.main()
