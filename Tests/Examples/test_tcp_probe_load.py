"""tcp-probe under load, as a process over 127.0.0.1: many targets probed
every few milliseconds, some of which reset the connection at once, then
SIGINT or SIGTERM. Bounded for CI; RXUV_PROBE_TARGETS changes the count."""

import os
import re
import signal
import socket
import struct
import threading
import time
import unittest

from support import Example

TARGETS = int(os.environ.get("RXUV_PROBE_TARGETS", "16"))


class Acceptor:
    """A listener that accepts every connection and closes it at once, every
    other one with a reset: the probe's peers hang up on it."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4096)
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.running = True
        self.accepted = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            try:
                sock, _ = self.listener.accept()
            except (socket.timeout, TimeoutError, OSError):
                continue
            if self.accepted % 2:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
            self.accepted += 1

    def close(self):
        self.running = False
        self.thread.join(timeout=2)
        self.listener.close()


class TCPProbeLoadTests(unittest.TestCase):
    def test_sigint_and_sigterm_under_load_exit_0_within_3_seconds(self):
        acceptors = [Acceptor() for _ in range(TARGETS)]
        for acceptor in acceptors:
            self.addCleanup(acceptor.close)
        targets = [f"127.0.0.1:{acceptor.port}" for acceptor in acceptors]
        for signum in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=signal.Signals(signum).name):
                probe = Example("tcp-probe", *targets, "--interval", "2ms", "--timeout", "500ms")
                self.addCleanup(probe.stop)
                # Let every target answer, with attempts in flight all the time.
                for target in targets:
                    probe.expect_line(rf"^{re.escape(target)}  open  ")
                time.sleep(0.5)
                probe.send_signal(signum)
                code, waited = probe.wait(3.0)
                self.assertEqual(code, 0, probe.stdout[-TARGETS - 2:] + probe.stderr)
                self.assertLess(waited, 3.0)
                marker = probe.stdout.index("--- tcp-probe statistics ---")
                stats = probe.stdout[marker + 1:]
                self.assertEqual(len(stats), TARGETS, stats)
                sent = 0
                for target, line in zip(targets, stats):
                    match = re.match(rf"^{re.escape(target)}  sent (\d+)  ok (\d+)  ", line)
                    self.assertIsNotNone(match, line)
                    sent += int(match.group(1))
                attempts = marker
                print(f"  {signal.Signals(signum).name}: {TARGETS} targets, {sent} attempts counted ({attempts} lines), "
                      f"exit 0 after {waited:.2f}s", flush=True)


if __name__ == "__main__":
    unittest.main()
