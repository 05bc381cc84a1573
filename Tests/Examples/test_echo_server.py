"""echo-server as a process, driven by python socket clients over 127.0.0.1."""

import random
import selectors
import signal
import socket
import time
import unittest

from support import Example, connect


def echo_many(port, payloads, deadline_seconds):
    """Sends each payload on its own connection, all at once, half-closes,
    and returns what came back on each. Non-blocking, one selector."""
    selector = selectors.DefaultSelector()
    states = []
    for payload in payloads:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.setblocking(False)
        state = {"sock": sock, "payload": memoryview(payload), "sent": 0, "received": bytearray(), "done": False}
        states.append(state)
        selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, state)
    deadline = time.monotonic() + deadline_seconds
    open_count = len(states)
    while open_count:
        if time.monotonic() > deadline:
            raise AssertionError(f"echo did not finish within {deadline_seconds}s")
        for key, events in selector.select(timeout=1):
            state = key.data
            sock = state["sock"]
            if events & selectors.EVENT_WRITE and state["sent"] < len(state["payload"]):
                try:
                    state["sent"] += sock.send(state["payload"][state["sent"]:state["sent"] + 256 * 1024])
                except BlockingIOError:
                    pass
                if state["sent"] == len(state["payload"]):
                    sock.shutdown(socket.SHUT_WR)
                    selector.modify(sock, selectors.EVENT_READ, state)
            if events & selectors.EVENT_READ:
                try:
                    chunk = sock.recv(1024 * 1024)
                except BlockingIOError:
                    continue
                if chunk:
                    state["received"] += chunk
                else:
                    selector.unregister(sock)
                    sock.close()
                    open_count -= 1
    selector.close()
    return [bytes(state["received"]) for state in states]


class EchoServerTests(unittest.TestCase):
    def start(self, *args):
        server = Example("echo-server", "--port", 0, *args)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def test_help_describes_the_flags(self):
        example = Example("echo-server", "--help")
        self.addCleanup(example.stop)
        code, _ = example.wait(10)
        self.assertEqual(code, 0)
        text = "\n".join(example.stdout)
        for flag in ("--host", "--port", "--max-connections", "--idle-timeout"):
            self.assertIn(flag, text)

    def test_a_bad_flag_is_a_usage_error(self):
        example = Example("echo-server", "--idle-timeout", "soon")
        self.addCleanup(example.stop)
        code, _ = example.wait(10)
        self.assertEqual(code, 64)
        self.assertIn("--idle-timeout", "\n".join(example.stderr))

    def test_200_concurrent_connections_of_1_MiB_echo_byte_exact(self):
        server, port = self.start()
        generator = random.Random(4)
        payloads = [generator.randbytes(1024 * 1024) for _ in range(200)]
        started = time.monotonic()
        echoed = echo_many(port, payloads, deadline_seconds=45)
        elapsed = time.monotonic() - started
        for index, (sent, received) in enumerate(zip(payloads, echoed)):
            self.assertEqual(len(received), len(sent), f"connection {index}")
            self.assertTrue(received == sent, f"connection {index}: bytes differ")
        print(f"  200 x 1 MiB echoed in {elapsed:.2f}s", flush=True)
        server.send_signal(signal.SIGTERM)
        code, _ = server.wait(5)
        self.assertEqual(code, 0)
        self.assertEqual(server.stdout[-1], f"echo-server: stopped; served 200 connections, echoed {200 * 1024 * 1024} bytes")

    def test_sigterm_mid_transfer_exits_0_within_3_seconds(self):
        server, port = self.start()
        # One client keeps sending and reading; one sends and never reads, so
        # the server has writes it cannot finish.
        busy = connect(port)
        stuck = connect(port)
        stuck.setblocking(False)
        chunk = random.Random(1).randbytes(64 * 1024)
        received = 0
        for _ in range(32):
            busy.sendall(chunk)
            received += len(busy.recv(1024 * 1024))
            try:
                stuck.send(chunk)
            except BlockingIOError:
                pass
        busy.sendall(chunk)   # in flight when the signal arrives
        server.send_signal(signal.SIGTERM)
        code, waited = server.wait(3.0)
        self.assertEqual(code, 0)
        self.assertLess(waited, 3.0)
        self.assertRegex(server.stdout[-1], r"^echo-server: stopped; served 2 connections, echoed \d+ bytes$")
        # The busy client gets the rest of its echo, then EOF.
        busy.settimeout(5)
        while True:
            data = busy.recv(1024 * 1024)
            if not data:
                break
            received += len(data)
        self.assertEqual(received, 33 * len(chunk))
        busy.close()
        stuck.close()

    def test_sigint_also_stops_cleanly(self):
        server, port = self.start()
        with connect(port) as client:
            client.sendall(b"ping")
            self.assertEqual(client.recv(16), b"ping")
            server.send_signal(signal.SIGINT)
            code, _ = server.wait(3.0)
            self.assertEqual(code, 0)
            self.assertEqual(client.recv(16), b"")
        self.assertIn("echo-server: SIGINT: no new connections, closing 1 open", server.stdout)

    def test_sighup_prints_the_counters(self):
        server, port = self.start()
        with connect(port) as client:
            client.sendall(b"hello")
            self.assertEqual(client.recv(16), b"hello")
            server.send_signal(signal.SIGHUP)
            server.expect_line(r"^echo-server: 1 open, 1 served, 0 refused, 5 bytes echoed$")
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(3.0)[0], 0)

    def test_port_in_use_exits_1_with_a_message(self):
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen(1)
            port = taken.getsockname()[1]
            server = Example("echo-server", "--port", port)
            self.addCleanup(server.stop)
            code, _ = server.wait(10)
        self.assertEqual(code, 1)
        self.assertEqual(server.stderr, [f"echo-server: cannot listen on 127.0.0.1:{port}: EADDRINUSE (address already in use)"])
        self.assertEqual(server.stdout, [])

    def test_idle_connections_are_closed(self):
        server, port = self.start("--idle-timeout", "300ms")
        with connect(port) as idle, connect(port) as chatty:
            started = time.monotonic()
            for _ in range(6):   # 600 ms of traffic, 100 ms apart
                chatty.sendall(b"x")
                self.assertEqual(chatty.recv(1), b"x")
                time.sleep(0.1)
            self.assertEqual(idle.recv(16), b"")   # closed by the server
            self.assertLess(time.monotonic() - started, 3)
            chatty.sendall(b"still here")
            self.assertEqual(chatty.recv(16), b"still here")
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(3.0)[0], 0)

    def test_connections_beyond_the_maximum_are_refused(self):
        server, port = self.start("--max-connections", "2")
        first, second = connect(port), connect(port)
        for client in (first, second):
            client.sendall(b"in")
            self.assertEqual(client.recv(2), b"in")
        # Refused with a reset: at connect, at the first read, or (if the
        # reset raced the read) an end.
        try:
            with connect(port) as third:
                self.assertEqual(third.recv(16), b"")
        except ConnectionResetError:
            pass
        first.close()
        time.sleep(0.2)
        with connect(port) as fourth:   # a slot is free again
            fourth.sendall(b"back")
            self.assertEqual(fourth.recv(4), b"back")
        second.close()
        time.sleep(0.2)
        server.send_signal(signal.SIGHUP)
        server.expect_line(r"^echo-server: 0 open, 3 served, 1 refused, 8 bytes echoed$")
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(3.0)[0], 0)

    def test_a_client_that_never_reads_does_not_grow_the_server(self):
        server, port = self.start()
        with connect(port) as warmup:
            warmup.sendall(b"w")
            warmup.recv(1)
        baseline = server.rss_kib()
        with connect(port) as client:
            client.setblocking(False)
            chunk = bytes(256 * 1024)
            accepted = 0
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                try:
                    accepted += client.send(chunk)
                except BlockingIOError:
                    time.sleep(0.01)
            grown = server.rss_kib() - baseline
            # The kernel's socket buffers take a few MiB; the server itself only its watermark.
            self.assertLess(accepted, 64 * 1024 * 1024)
            self.assertLess(grown, 16 * 1024, f"server grew by {grown} KiB after {accepted} bytes")
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(3.0)[0], 0)


if __name__ == "__main__":
    unittest.main()
