"""echo-server under load and against hostile peers, as a process over 127.0.0.1.

The figures are bounded for CI (10,000 concurrent connections, or as many as
the descriptor limit allows; 5,000 connect/close cycles); RXUV_LOAD_CONNECTIONS
and RXUV_FLOOD_CYCLES change them for a longer manual run."""

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
MAX_MESSAGE = 256 * 1024


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
    def start(self, *args):
        server = Example("echo-server", "--port", 0, "--idle-timeout", "0", *args)
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
