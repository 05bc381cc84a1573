"""tcp-probe as a process against an open port, a closed port and a black hole,
all on 127.0.0.1."""

import re
import signal
import socket
import unittest

from support import BlackHole, Example, free_port, tls_certificates

OPEN = r"^{target}  open  (\d+\.\d\d) ms$"
STATS_OK = r"^{target}  sent {sent}  ok {ok}  loss {loss}%  min/avg/max (\d+\.\d\d)/(\d+\.\d\d)/(\d+\.\d\d) ms$"


class TCPProbeTests(unittest.TestCase):
    def setUp(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)   # the kernel completes handshakes; nobody needs to accept
        self.open_target = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.addCleanup(self.listener.close)

    def probe(self, *args):
        example = Example("tcp-probe", *args)
        self.addCleanup(example.stop)
        return example

    def statistics(self, example):
        marker = example.stdout.index("--- tcp-probe statistics ---")
        return example.stdout[marker + 1:]

    def test_open_port_reports_latency_and_exits_0(self):
        example = self.probe(self.open_target, "--count", 3, "--interval", "100ms")
        code, _ = example.wait(10)
        self.assertEqual(code, 0, example.stderr)
        attempts = [line for line in example.stdout if line.startswith(self.open_target + "  ")]
        self.assertEqual(len(attempts), 4)   # three attempts, one statistics line
        for line in attempts[:3]:
            self.assertRegex(line, OPEN.format(target=re.escape(self.open_target)))
        [stats] = self.statistics(example)
        match = re.match(STATS_OK.format(target=re.escape(self.open_target), sent=3, ok=3, loss=r"0\.0"), stats)
        self.assertIsNotNone(match, stats)
        low, average, high = map(float, match.groups())
        self.assertLessEqual(low, average)
        self.assertLessEqual(average, high)

    def test_open_closed_and_black_hole_together_exit_2(self):
        closed = f"127.0.0.1:{free_port()}"
        hole = BlackHole()
        self.addCleanup(hole.close)
        silent = f"127.0.0.1:{hole.port}"
        example = self.probe(self.open_target, closed, silent, "--count", 2, "--interval", "200ms", "--timeout", "300ms")
        code, _ = example.wait(10)
        self.assertEqual(code, 2, example.stdout + example.stderr)
        attempts = [line for line in example.stdout[:example.stdout.index("--- tcp-probe statistics ---")]]
        self.assertEqual(len(attempts), 6, attempts)
        self.assertEqual(sum(bool(re.match(OPEN.format(target=re.escape(self.open_target)), line)) for line in attempts), 2)
        self.assertEqual(attempts.count(f"{closed}  closed ECONNREFUSED"), 2)
        self.assertEqual(attempts.count(f"{silent}  timeout"), 2)
        stats = self.statistics(example)
        self.assertEqual(len(stats), 3)
        self.assertRegex(stats[0], STATS_OK.format(target=re.escape(self.open_target), sent=2, ok=2, loss=r"0\.0"))
        self.assertEqual(stats[1], f"{closed}  sent 2  ok 0  loss 100.0%")
        self.assertEqual(stats[2], f"{silent}  sent 2  ok 0  loss 100.0%")

    def test_a_closed_port_alone_exits_2(self):
        closed = f"127.0.0.1:{free_port()}"
        example = self.probe(closed, "--count", 1)
        code, _ = example.wait(10)
        self.assertEqual(code, 2)
        self.assertEqual(example.stdout, [f"{closed}  closed ECONNREFUSED", "--- tcp-probe statistics ---", f"{closed}  sent 1  ok 0  loss 100.0%"])

    def test_partial_loss_is_counted(self):
        # Open for the first attempt, closed for the rest: answered once, so exit 0.
        example = self.probe(self.open_target, "--count", 3, "--interval", "300ms")
        example.expect_line(OPEN.format(target=re.escape(self.open_target)))
        self.listener.close()
        code, _ = example.wait(10)
        self.assertEqual(code, 0)
        self.assertEqual(example.stdout[-3:-1], [f"{self.open_target}  closed ECONNREFUSED", "--- tcp-probe statistics ---"])
        self.assertRegex(example.stdout[-1], STATS_OK.format(target=re.escape(self.open_target), sent=3, ok=1, loss=r"66\.7"))

    def test_names_resolve_through_getaddrinfo(self):
        port = self.listener.getsockname()[1]
        example = self.probe(f"localhost:{port}", "--count", 1)
        code, _ = example.wait(10)
        self.assertEqual(code, 0, example.stdout)
        self.assertRegex(example.stdout[0], OPEN.format(target=re.escape(f"localhost:{port}")))

    def test_sigint_prints_the_statistics_so_far(self):
        example = self.probe(self.open_target, "--interval", "100ms")
        for _ in range(2):
            example.expect_line(OPEN.format(target=re.escape(self.open_target)))
        example.send_signal(signal.SIGINT)
        code, waited = example.wait(3)
        self.assertEqual(code, 0)
        stats = self.statistics(example)
        self.assertEqual(len(stats), 1)
        sent = int(re.search(r"  sent (\d+)  ", stats[0]).group(1))
        self.assertGreaterEqual(sent, 2)
        self.assertRegex(stats[0], STATS_OK.format(target=re.escape(self.open_target), sent=sent, ok=sent, loss=r"0\.0"))

    def test_usage_errors_exit_64(self):
        for args in ([], ["no-port"], ["127.0.0.1:99999"], [self.open_target, "--interval", "0"], [self.open_target, "--count", "0"]):
            example = self.probe(*args)
            code, _ = example.wait(10)
            self.assertEqual(code, 64, args)
            self.assertTrue(example.stderr, args)

    def test_help(self):
        example = self.probe("--help")
        code, _ = example.wait(10)
        self.assertEqual(code, 0)
        text = "\n".join(example.stdout)
        for flag in ("--interval", "--timeout", "--count", "host:port"):
            self.assertIn(flag, text)


if __name__ == "__main__":
    unittest.main()


class TCPProbeTLSTests(unittest.TestCase):
    """tcp-probe --tls against echo-server over TLS with a good and an expired
    certificate, and against a port that never answers the handshake."""

    def serve(self, certificate):
        folder = tls_certificates()
        server = Example("echo-server", "--port", 0, "--threads", 1,
                         "--tls-cert", f"{folder}/{certificate}.pem", "--tls-key", f"{folder}/{certificate}.key")
        self.addCleanup(server.stop)
        return f"127.0.0.1:{server.listening_port()}"

    def probe(self, *args):
        example = Example("tcp-probe", "--tls", "--tls-ca-file", f"{tls_certificates()}/ca.pem", *args)
        self.addCleanup(example.stop)
        return example

    def test_tls_reports_handshake_protocol_cipher_and_expiry(self):
        target = self.serve("server")
        example = self.probe(target, "--server-name", "localhost", "--count", 2, "--interval", "100ms")
        code, _ = example.wait(10)
        self.assertEqual(code, 0, example.stderr)
        attempts = [line for line in example.stdout if line.startswith(target + "  open")]
        self.assertEqual(len(attempts), 2, example.stdout)
        for line in attempts:
            self.assertRegex(line, r"  open  \d+\.\d\d ms  tls \d+\.\d\d ms TLSv1\.3 TLS_\w+ expires in 82[45] days$")

    def test_an_expired_certificate_is_a_tls_error_and_exits_2(self):
        target = self.serve("expired")
        example = self.probe(target, "--server-name", "localhost", "--count", 1)
        code, _ = example.wait(10)
        self.assertEqual(code, 2)
        self.assertRegex(example.stdout[0], rf"^{re.escape(target)}  tls-error certificateExpired \(certificate verify failed: certificate has expired\)$")

    def test_a_port_that_never_answers_the_handshake_times_out(self):
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen(8)
            target = f"127.0.0.1:{silent.getsockname()[1]}"
            example = self.probe(target, "--count", 1, "--timeout", "300ms")
            code, _ = example.wait(10)
        self.assertEqual(code, 2)
        self.assertEqual(example.stdout[0], f"{target}  timeout")

    def test_tls_flags_need_tls(self):
        example = Example("tcp-probe", "127.0.0.1:1", "--tls-insecure")
        self.addCleanup(example.stop)
        code, _ = example.wait(10)
        self.assertEqual(code, 64)
        self.assertIn("go with --tls", "\n".join(example.stderr))

