"""echo-server and kv-server at their descriptor limit (`ulimit -n 256`)
facing 1,000 connections: they neither exit nor spin, log the shortage
once, not per attempt, and accept again as soon as descriptors free up."""

import resource
import socket
import time
import unittest

from support import Example, cpu_seconds

LIMIT = 256
CONNECTIONS = 1000


class DescriptorExhaustionTests(unittest.TestCase):
    def setUp(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = CONNECTIONS + 200
        if hard != resource.RLIM_INFINITY and hard < wanted:
            self.skipTest(f"the descriptor limit ({hard}) is below {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
        self.addCleanup(resource.setrlimit, resource.RLIMIT_NOFILE, (soft, hard))

    def exhaust(self, name, args, request, answer):
        server = Example(name, "--port", 0, *args, open_files=LIMIT)
        self.addCleanup(server.stop)
        port = server.listening_port()
        clients = []
        self.addCleanup(lambda: [c.close() for c in clients])
        for _ in range(CONNECTIONS):
            c = socket.socket()
            c.setblocking(False)
            c.connect_ex(("127.0.0.1", port))
            clients.append(c)
        time.sleep(1.0)
        # At the limit: the server waits, it does not spin.
        before = cpu_seconds(server.process.pid)
        time.sleep(3.0)
        spent = cpu_seconds(server.process.pid) - before
        self.assertIsNone(server.process.poll(), server.stderr)
        shortage_lines = [line for line in server.stderr if "EMFILE" in line]
        # The first clients were accepted and are served.
        for c in clients[:5]:
            self.assertEqual(self.ask(c, request), answer)
        # Half the clients leave: the ones waiting in the backlog are
        # accepted as descriptors free up, and served.
        for c in clients[:500]:
            c.close()
        del clients[:500]
        self.assertEqual(self.ask(clients[100], request, timeout=10), answer)
        # All leave: a new client is served at once.
        for c in clients:
            c.close()
        clients.clear()
        fresh = socket.create_connection(("127.0.0.1", port), timeout=10)
        clients.append(fresh)
        fresh.setblocking(True)
        self.assertEqual(self.ask(fresh, request, timeout=10), answer)
        self.assertIsNone(server.process.poll())
        print(f"\n{name} at ulimit -n {LIMIT} with {CONNECTIONS} connections: {spent * 1000:.0f} ms of CPU in 3 s at the limit, "
              f"{len(shortage_lines)} EMFILE log line(s)", flush=True)
        self.assertLess(spent, 0.3)
        self.assertEqual(len(shortage_lines), 1, server.stderr)

    @staticmethod
    def ask(sock, request, timeout=5.0):
        sock.setblocking(True)
        sock.settimeout(timeout)
        sock.sendall(request)
        received = b""
        deadline = time.monotonic() + timeout
        while not received.endswith(b"\n") and time.monotonic() < deadline:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        return received

    def test_echo_server(self):
        self.exhaust("echo-server", ["--threads", 1], b"ping\n", b"ping\n")

    def test_kv_server(self):
        self.exhaust("kv-server", [], b"PING\r\n", b"+PONG\r\n")


if __name__ == "__main__":
    unittest.main()
