"""wait-for as a process: a port that answers, one that starts answering
later, one that never does, and a command that cannot start; all on
127.0.0.1."""

import socket
import threading
import time
import unittest

from support import Example, free_port


class WaitForTests(unittest.TestCase):
    def listener(self, port=0):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(16)   # the kernel completes handshakes; nobody needs to accept
        self.addCleanup(sock.close)
        return sock

    def wait_for(self, *args):
        example = Example("wait-for", *args)
        self.addCleanup(example.stop)
        return example

    def test_an_open_port_runs_the_command_and_exits_with_its_status(self):
        target = f"127.0.0.1:{self.listener().getsockname()[1]}"
        example = self.wait_for(target, "--", "sh", "-c", "echo ran; exit 3")
        code, _ = example.wait(10)
        self.assertEqual(code, 3, example.stderr)
        self.assertEqual(example.stdout, ["ran"])
        self.assertEqual(example.stderr, [f"wait-for: {target} answers"])

    def test_a_port_that_opens_later_is_waited_for(self):
        port = free_port()
        opened = threading.Timer(0.5, lambda: self.listener(port))
        opened.start()
        self.addCleanup(opened.cancel)
        started = time.monotonic()
        example = self.wait_for(f"127.0.0.1:{port}", "--interval", "50ms", "--", "echo", "done")
        code, _ = example.wait(10)
        self.assertEqual(code, 0, example.stderr)
        self.assertEqual(example.stdout, ["done"])
        self.assertGreaterEqual(time.monotonic() - started, 0.5)

    def test_no_command_exits_0_once_every_target_answers(self):
        first = f"127.0.0.1:{self.listener().getsockname()[1]}"
        second = f"127.0.0.1:{self.listener().getsockname()[1]}"
        example = self.wait_for(first, second)
        code, _ = example.wait(10)
        self.assertEqual(code, 0, example.stderr)
        self.assertEqual(example.stderr, [f"wait-for: {first} answers", f"wait-for: {second} answers"])

    def test_time_running_out_exits_1_naming_the_silent_targets(self):
        open_target = f"127.0.0.1:{self.listener().getsockname()[1]}"
        closed = f"127.0.0.1:{free_port()}"
        example = self.wait_for(open_target, closed, "--timeout", "300ms", "--interval", "50ms", "--", "echo", "never")
        code, waited = example.wait(10)
        self.assertEqual(code, 1, example.stderr)
        self.assertLess(waited, 5)
        self.assertEqual(example.stdout, [])
        self.assertEqual(example.stderr, [f"wait-for: {open_target} answers", f"wait-for: timed out after 300ms; no answer from {closed}"])

    def test_a_command_that_cannot_start_exits_127(self):
        target = f"127.0.0.1:{self.listener().getsockname()[1]}"
        example = self.wait_for(target, "--", "/no/such/command")
        code, _ = example.wait(10)
        self.assertEqual(code, 127, example.stderr)
        self.assertEqual(example.stderr[-1], "wait-for: cannot run /no/such/command: ENOENT (no such file or directory)")

    def test_bad_flags_exit_64(self):
        code, _ = self.wait_for("--interval", "0ms", "127.0.0.1:1").wait(10)
        self.assertEqual(code, 64)


if __name__ == "__main__":
    unittest.main()
