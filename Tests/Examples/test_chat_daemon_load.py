"""chat-daemon under load and against hostile peers, as a process over
127.0.0.1: half-close in both directions, peers that reset while the daemon
writes to them (SIGPIPE must not kill it), and SIGTERM/SIGINT with every
client busy. Bounded for CI; RXUV_CHAT_CLIENTS and RXUV_CHAT_BURST_LINES change the
client count and the lines each sends at once."""

import os
import signal
import socket
import struct
import time
import unittest

from support import Example, LineClient, connect

CLIENTS = int(os.environ.get("RXUV_CHAT_CLIENTS", "100"))
BURST_LINES = int(os.environ.get("RXUV_CHAT_BURST_LINES", "3"))
WELCOME = "* welcome to chat-daemon; send your nick (1 to 16 letters, digits, _ or -, starting with a letter)"


class ChatDaemonLoadTests(unittest.TestCase):
    def setUp(self):
        self.daemon = Example("chat-daemon", "--port", 0)
        self.addCleanup(self.daemon.stop)
        self.port = self.daemon.listening_port()

    def join(self, nick):
        client = LineClient(self.port)
        self.addCleanup(client.close)
        self.assertEqual(client.line(), WELCOME)
        client.send(nick + "\n")
        self.assertTrue(client.line().startswith(f"* you are {nick}; here: "))
        return client

    def counters(self, connected, timeout=10.0):
        """SIGHUP until the daemon reports `connected` clients; returns its line."""
        deadline = time.monotonic() + timeout
        while True:
            self.daemon.send_signal(signal.SIGHUP)
            match = self.daemon.expect_line(r"^chat-daemon: (\d+) connected, (\d+) in the room, (\d+) messages relayed$")
            if int(match.group(1)) == connected:
                return match
            if time.monotonic() > deadline:
                raise AssertionError(f"the daemon reports {match.group(1)} connected, expected {connected}")
            time.sleep(0.1)

    def stop_daemon(self, signum=signal.SIGTERM):
        self.daemon.send_signal(signum)
        code, waited = self.daemon.wait(3.0)
        self.assertEqual(code, 0, self.daemon.stderr)
        self.assertLess(waited, 3.0)
        self.assertRegex(self.daemon.stdout[-1], r"^chat-daemon: stopped; served \d+ connections?, relayed \d+ messages?$")
        return waited

    def test_half_close_from_the_client_every_reply_comes_back_then_eof(self):
        # A client sends its nick and commands in one go and shuts down its
        # write side at once: it still gets every reply, then EOF.
        watcher = self.join("watcher")
        client = LineClient(self.port)
        self.addCleanup(client.close)
        commands = "alice\n/who\n/nope\n" + "".join(f"line {i}\n" for i in range(100)) + "/who\n"
        client.send(commands)
        client.sock.shutdown(socket.SHUT_WR)
        self.assertEqual(client.line(), WELCOME)
        self.assertEqual(client.line(), "* you are alice; here: alice, watcher")
        self.assertEqual(client.line(), "* here: alice, watcher")
        self.assertEqual(client.line(), "* unknown command /nope (try /who or /quit)")
        self.assertEqual(client.line(), "* here: alice, watcher")
        self.assertIsNone(client.line(), "EOF after the replies")
        self.assertEqual(watcher.line(), "* alice joined")
        self.assertEqual([watcher.line() for _ in range(100)], [f"<alice> line {i}" for i in range(100)])
        self.assertEqual(watcher.line(), "* alice left")
        self.counters(1)
        self.stop_daemon()

    def test_half_close_from_the_daemon_the_client_sees_bye_then_eof_while_still_sending(self):
        # /quit: the daemon writes "* bye" and closes its side. A client that
        # keeps sending meanwhile must still read the goodbye and then EOF.
        for round in range(20):
            client = self.join(f"q{round}")
            client.send("/quit\n")
            client.sock.setblocking(False)
            for _ in range(50):
                try:
                    client.sock.send(b"still talking\n")
                except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                    break
            client.sock.setblocking(True)
            lines = []
            try:
                while (line := client.line()) is not None:
                    lines.append(line)
            except ConnectionResetError as error:
                raise AssertionError(f"round {round}: reset before the goodbye and EOF; read {lines}") from error
            self.assertIn("* bye", lines, f"round {round}")
            client.close()
        self.counters(0)
        self.stop_daemon()

    def test_peers_that_reset_while_the_daemon_writes_to_them_do_not_kill_it(self):
        # Readers that never read fill their buffers with broadcasts, then
        # reset: the daemon's writes to them fail with EPIPE/ECONNRESET, never SIGPIPE.
        talker = self.join("talker")
        victims = [self.join(f"v{i}") for i in range(30)]
        for victim in victims:
            victim.sock.setblocking(False)
        line = "x" * 1000 + "\n"
        talker.sock.setblocking(False)
        burst = (line * 200).encode()
        for round in range(len(victims)):
            try:
                talker.sock.send(burst)
            except BlockingIOError:
                pass
            victim = victims[round]
            victim.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            victim.sock.close()
            time.sleep(0.01)
        self.assertIsNone(self.daemon.process.poll(), "the daemon died (SIGPIPE?)")
        talker.close()
        self.counters(0)
        fresh = self.join("fresh")
        fresh.send("/who\n")
        self.assertEqual(fresh.line(), "* here: fresh")
        self.stop_daemon()

    def test_across_four_loops_every_client_gets_one_senders_lines_in_order(self):
        """100 clients spread over 4 loops; one of them sends 50 lines, which
        cross from its loop to the room's and out to every other loop: each
        client gets all 50, in order."""
        self.daemon.stop()
        self.daemon = Example("chat-daemon", "--port", 0, "--threads", 4)
        self.addCleanup(self.daemon.stop)
        self.port = self.daemon.listening_port()
        clients = []
        for index in range(CLIENTS):
            client = self.join(f"c{index}")
            clients.append(client)
            for earlier in clients[:-1]:
                self.assertEqual(earlier.line(), f"* c{index} joined")
        lines = [f"message {i} from c0" for i in range(50)]
        clients[0].send("".join(line + "\n" for line in lines))
        for client in clients[1:]:
            self.assertEqual([client.line() for _ in lines], [f"<c0> {line}" for line in lines])
        self.stop_daemon()

    def test_sigterm_and_sigint_with_busy_clients_exit_0_within_3_seconds(self):
        for signum in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=signal.Signals(signum).name):
                if signum != signal.SIGTERM:
                    self.daemon = Example("chat-daemon", "--port", 0)
                    self.addCleanup(self.daemon.stop)
                    self.port = self.daemon.listening_port()
                clients = []
                for index in range(CLIENTS):
                    sock = connect(self.port)
                    self.addCleanup(sock.close)
                    sock.sendall(f"c{index}\n".encode())
                    clients.append(sock)
                self.counters(CLIENTS)
                # Every client sends a burst and none reads: each line goes to
                # all the others, so the daemon has writes it cannot finish.
                burst = b"".join(b"hello from a busy client %d\n" % i for i in range(BURST_LINES))
                for sock in clients:
                    sock.setblocking(False)
                    try:
                        sock.send(burst)
                    except BlockingIOError:
                        pass
                time.sleep(0.2)
                waited = self.stop_daemon(signum)
                print(f"  {signal.Signals(signum).name} with {CLIENTS} busy clients: exit 0 after {waited:.2f}s", flush=True)
                for sock in clients:
                    sock.close()


if __name__ == "__main__":
    unittest.main()
