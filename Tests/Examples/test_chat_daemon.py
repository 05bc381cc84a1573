"""chat-daemon as a process with three (and more) python socket clients."""

import signal
import socket
import struct
import time
import unittest

from support import Example, LineClient

WELCOME = "* welcome to chat-daemon; send your nick (1 to 16 letters, digits, _ or -, starting with a letter)"


class ChatDaemonTests(unittest.TestCase):
    def setUp(self):
        self.daemon = Example("chat-daemon", "--port", 0)
        self.addCleanup(self.daemon.stop)
        self.port = self.daemon.listening_port()

    def client(self):
        client = LineClient(self.port)
        self.addCleanup(client.close)
        self.assertEqual(client.line(), WELCOME)
        return client

    def join(self, nick, others=()):
        client = self.client()
        client.send(nick + "\n")
        self.assertTrue(client.line().startswith(f"* you are {nick}; here: "))
        for other in others:
            self.assertEqual(other.line(), f"* {nick} joined")
        return client

    def stop_daemon(self, clients):
        self.daemon.send_signal(signal.SIGTERM)
        for client in clients:
            self.assertEqual(client.lines_until(lambda line: line.startswith("* server shutting down"))[-1], "* server shutting down")
            self.assertIsNone(client.line(), "the daemon closes the connection after its goodbye")
        code, waited = self.daemon.wait(3.0)
        self.assertEqual(code, 0, self.daemon.stderr)
        self.assertLess(waited, 3.0)
        self.assertRegex(self.daemon.stdout[-1], r"^chat-daemon: stopped; served \d+ connections?, relayed \d+ messages?$")

    def test_three_clients_then_sigterm(self):
        alice = self.join("alice")
        bob = self.join("bob", [alice])

        # Nick clash, case-insensitive, then an invalid nick, then a good one.
        carol = self.client()
        carol.send("ALICE\n")
        self.assertEqual(carol.line(), "* nick ALICE is taken, choose another")
        carol.send("9lives\n")
        self.assertEqual(carol.line(), "* invalid nick: 1 to 16 letters, digits, _ or -, starting with a letter")
        carol.send("carol\n")
        self.assertEqual(carol.line(), "* you are carol; here: alice, bob, carol")
        self.assertEqual(alice.line(), "* carol joined")
        self.assertEqual(bob.line(), "* carol joined")

        # /who
        bob.send("/who\n")
        self.assertEqual(bob.line(), "* here: alice, bob, carol")

        # Broadcast order per sender: 200 lines each from alice and bob, sent
        # in bursts; carol sees each sender's lines in order, the sender none of its own.
        count = 200
        alice.send("".join(f"a{i}\n" for i in range(count)))
        bob.send("".join(f"b{i}\n" for i in range(count)))
        seen = [carol.line() for _ in range(2 * count)]
        self.assertEqual([line for line in seen if line.startswith("<alice> ")], [f"<alice> a{i}" for i in range(count)])
        self.assertEqual([line for line in seen if line.startswith("<bob> ")], [f"<bob> b{i}" for i in range(count)])
        self.assertEqual([alice.line() for _ in range(count)], [f"<bob> b{i}" for i in range(count)])
        self.assertEqual([bob.line() for _ in range(count)], [f"<alice> a{i}" for i in range(count)])

        # An over-long line is refused, not relayed; the connection goes on.
        alice.send(b"x" * 10_000 + b"\n")
        self.assertEqual(alice.line(), "* line too long (over 4096 bytes), dropped")
        alice.send("after the long one\n")
        self.assertEqual(bob.line(), "<alice> after the long one")
        self.assertEqual(carol.line(), "<alice> after the long one")

        # A line of exactly 4096 bytes, with CRLF, is fine.
        alice.send(b"y" * 4096 + b"\r\n")
        self.assertEqual(bob.line(), "<alice> " + "y" * 4096)
        self.assertEqual(carol.line(), "<alice> " + "y" * 4096)

        # Binary garbage does not hurt: controls removed, invalid UTF-8 replaced.
        bob.send(b"\xff\xfe\x00bin\x1b[31mary\x07\n")
        self.assertEqual(alice.line(), "<bob> \ufffd\ufffdbin[31mary")
        self.assertEqual(carol.line(), "<bob> \ufffd\ufffdbin[31mary")

        # A client that vanishes mid-line: its partial line is dropped.
        dave = self.join("dave", [alice, bob, carol])
        dave.send("half a li")
        time.sleep(0.1)
        dave.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        dave.close()   # a reset, mid-line
        for client in (alice, bob, carol):
            self.assertEqual(client.line(), "* dave left")

        # The counters on SIGHUP.
        self.daemon.send_signal(signal.SIGHUP)
        self.daemon.expect_line(r"^chat-daemon: 3 connected, 3 in the room, 403 messages relayed$")

        # The daemon logs who is here from the room's read-only Property.
        self.assertIn("chat-daemon: here: alice, bob, carol, dave", self.daemon.stdout)
        self.assertEqual(self.daemon.stdout.count("chat-daemon: here: alice, bob, carol"), 2)

        self.stop_daemon([alice, bob, carol])

    def test_quit_says_bye_and_closes(self):
        alice = self.join("alice")
        bob = self.join("bob", [alice])
        bob.send("/quit\n")
        self.assertEqual(bob.line(), "* bye")
        self.assertIsNone(bob.line())
        self.assertEqual(alice.line(), "* bob left")
        alice.send("/nope\n")
        self.assertEqual(alice.line(), "* unknown command /nope (try /who or /quit)")
        alice.send("/who\n")
        self.assertEqual(alice.line(), "* here: alice")
        self.stop_daemon([alice])

    def test_a_nick_is_free_again_after_its_owner_leaves(self):
        first = self.join("erin")
        first.sock.shutdown(socket.SHUT_WR)   # EOF
        self.assertIsNone(first.line())
        second = self.join("erin")
        self.stop_daemon([second])

    def test_sigterm_reaches_clients_that_have_no_nick_yet(self):
        waiting = self.client()
        joined = self.join("frank")
        self.stop_daemon([waiting, joined])

    def test_port_in_use_exits_1_with_a_message(self):
        other = Example("chat-daemon", "--port", self.port)
        self.addCleanup(other.stop)
        code, _ = other.wait(10)
        self.assertEqual(code, 1)
        self.assertEqual(other.stderr, [f"chat-daemon: cannot listen on 127.0.0.1:{self.port}: EADDRINUSE (address already in use)"])
        self.stop_daemon([])

    def test_help(self):
        example = Example("chat-daemon", "--help")
        self.addCleanup(example.stop)
        code, _ = example.wait(10)
        self.assertEqual(code, 0)
        text = "\n".join(example.stdout)
        for word in ("--host", "--port", "/who", "/quit"):
            self.assertIn(word, text)
        self.stop_daemon([])


if __name__ == "__main__":
    unittest.main()
