"""echo-server over TLS (--tls-cert, --tls-key), driven by Python's ssl module
and the openssl command line over 127.0.0.1."""

import asyncio
import os
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import unittest

from support import Example, tls_certificates


class EchoServerTLSTests(unittest.TestCase):
    def setUp(self):
        self.certificates = tls_certificates()
        # The server's own copies, so a test can replace them under it.
        self.folder = tempfile.mkdtemp(prefix="rxuv-echo-tls-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        for name in ("server.pem", "server.key"):
            shutil.copy(os.path.join(self.certificates, name), self.folder)

    def start(self, *args):
        server = Example("echo-server", "--port", 0, "--threads", 2,
                         "--tls-cert", os.path.join(self.folder, "server.pem"),
                         "--tls-key", os.path.join(self.folder, "server.key"), *args)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def client_context(self):
        return ssl.create_default_context(cafile=os.path.join(self.certificates, "ca.pem"))

    def test_20_concurrent_clients_echo_256_KiB_byte_exact_and_close_cleanly(self):
        server, port = self.start()
        context = self.client_context()

        async def client():
            payload = os.urandom(256 * 1024)
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="localhost")
            writer.write(payload)
            received = await asyncio.wait_for(reader.readexactly(len(payload)), 30)
            version = writer.get_extra_info("ssl_object").version()
            writer.close()
            await writer.wait_closed()
            return received == payload, version

        async def clients():
            return await asyncio.gather(*(client() for _ in range(20)))

        results = asyncio.run(clients())
        self.assertEqual(results, [(True, "TLSv1.3")] * 20)
        server.send_signal(signal.SIGTERM)
        code, _ = server.wait(5)
        self.assertEqual(code, 0)
        self.assertEqual(server.stdout[-1], f"echo-server: stopped; served 20 connections, echoed {20 * 256 * 1024} bytes")

    def test_1000_concurrent_handshakes_all_served(self):
        # 1,000 client sockets here and 1,000 connections in the server,
        # which inherits this limit.
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
        self.addCleanup(resource.setrlimit, resource.RLIMIT_NOFILE, (soft, hard))
        server, port = self.start()
        context = self.client_context()
        gate = asyncio.Event()

        async def client(index, opened):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="localhost")
            opened.append(index)
            if len(opened) == 1000:
                gate.set()
            await gate.wait()   # every handshake is done before any echo
            line = b"client %d\n" % index
            writer.write(line)
            echoed = await asyncio.wait_for(reader.readexactly(len(line)), 60)
            writer.close()
            await writer.wait_closed()
            return echoed == line

        async def clients():
            opened = []
            return await asyncio.wait_for(asyncio.gather(*(client(i, opened) for i in range(1000))), 120)

        results = asyncio.run(clients())
        self.assertEqual(results.count(True), 1000)
        server.send_signal(signal.SIGHUP)
        server.expect_line(r"^echo-server: 0 open, 1000 served, 0 refused, \d+ bytes echoed$", timeout=10)
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(5)[0], 0)

    def test_openssl_s_client_verifies_and_echoes(self):
        server, port = self.start()
        client = subprocess.Popen(
            ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-CAfile", os.path.join(self.certificates, "ca.pem"),
             "-servername", "localhost", "-verify_return_error", "-quiet"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(client.kill)
        client.stdin.write(b"hello over tls\n")
        client.stdin.flush()
        self.assertEqual(client.stdout.readline(), b"hello over tls\n")
        client.stdin.close()
        client.terminate()
        client.wait(5)

    def test_sigterm_drains_with_close_notify(self):
        server, port = self.start()
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            tls = self.client_context().wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False)
            tls.sendall(b"ping")
            self.assertEqual(tls.recv(16), b"ping")
            server.send_signal(signal.SIGTERM)
            # A clean end: close_notify, not a ragged EOF (SSLEOFError).
            self.assertEqual(tls.recv(16), b"")
        code, _ = server.wait(3)
        self.assertEqual(code, 0)

    def test_sighup_reloads_the_certificate_for_new_connections(self):
        server, port = self.start()
        context = self.client_context()
        context.check_hostname = False

        def common_name():
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                with context.wrap_socket(raw) as tls:
                    subject = dict(field[0] for field in tls.getpeercert()["subject"])
                    return subject["commonName"]

        self.assertEqual(common_name(), "localhost")
        for name in ("pem", "key"):
            shutil.copy(os.path.join(self.certificates, f"other.{name}"), os.path.join(self.folder, f"server.{name}"))
        server.send_signal(signal.SIGHUP)
        server.expect_line(r"^echo-server: reloaded .*server\.pem$")
        self.assertEqual(common_name(), "other.example")
        # A broken file on disk: the reload fails, the certificate in use stays.
        with open(os.path.join(self.folder, "server.key"), "w") as broken:
            broken.write("not a key\n")
        server.send_signal(signal.SIGHUP)
        server.expect_stderr(r"cannot reload the certificate")
        self.assertEqual(common_name(), "other.example")
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(3)[0], 0)

    def test_plain_text_to_the_tls_port_is_closed_and_the_server_carries_on(self):
        server, port = self.start()
        with socket.create_connection(("127.0.0.1", port), timeout=5) as plain:
            plain.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            while plain.recv(4096):
                pass
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            with self.client_context().wrap_socket(raw, server_hostname="localhost") as tls:
                tls.sendall(b"fine")
                self.assertEqual(tls.recv(16), b"fine")

    def test_a_missing_certificate_exits_1_with_a_message(self):
        server = Example("echo-server", "--port", 0, "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem")
        self.addCleanup(server.stop)
        code, _ = server.wait(10)
        self.assertEqual(code, 1)
        self.assertIn("/nonexistent/cert.pem", "\n".join(server.stderr))
        self.assertIn("invalidConfiguration", "\n".join(server.stderr))

    def test_tls_flags_go_together(self):
        server = Example("echo-server", "--tls-cert", "cert.pem")
        self.addCleanup(server.stop)
        code, _ = server.wait(10)
        self.assertEqual(code, 64)
        self.assertIn("--tls-cert and --tls-key go together", "\n".join(server.stderr))
