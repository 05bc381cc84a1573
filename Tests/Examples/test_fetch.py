"""fetch as a process: against Python's http.server (a temporary directory
of files, in a child process), a small echo server in this file, RxUV's own
http-server, scripted raw servers, a refused port and a silent one; all on
127.0.0.1 with ports the system chose."""

import gzip
import hashlib
import http.server
import os
import re
import select
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from support import BIN_PATH, Example, free_port, tls_certificates


def fetch(*args, stdin=b"", timeout=30):
    """Runs fetch to its end (killed after `timeout` seconds); returns the
    CompletedProcess, its stdout and stderr as bytes."""
    path = os.path.join(BIN_PATH, "fetch")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is not built")
    return subprocess.run([path, *map(str, args)], input=stdin, capture_output=True, timeout=timeout)


class FileServer:
    """`python3 -m http.server` on 127.0.0.1, port 0, serving `root`, in a
    child process that is always killed (`close`)."""

    def __init__(self, root):
        self.process = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            self.port = self._port(deadline=time.monotonic() + 10)
        except BaseException:
            self.close()
            raise

    def _port(self, deadline):
        seen = b""
        while b"\n" not in seen:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.process.poll() is not None:
                raise RuntimeError(f"http.server did not say its port: {seen!r}")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                seen += os.read(self.process.stdout.fileno(), 4096)
        return int(re.search(rb"port (\d+)", seen).group(1))

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}"

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        self.process.stdout.close()


GZIP_TEXT = b"compressible " * 10_000


class EchoHandler(http.server.BaseHTTPRequestHandler):
    """Answers every request with the body it read; records the method, the
    path, the header fields and the body; `/slow` waits 100 ms first;
    counts how many requests are in hand at once. `/moved` redirects
    (302) to `/landed`, `/loop` to itself. `/gzip` answers `GZIP_TEXT`,
    gzipped when the request accepts gzip; `/bad-gzip` sends bytes that
    are not gzip as gzip."""

    protocol_version = "HTTP/1.1"
    seen = []
    lock = threading.Lock()
    in_flight = 0
    most_in_flight = 0

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        cls = type(self)
        with cls.lock:
            cls.seen.append((self.command, self.path, self.headers, body))
            cls.in_flight += 1
            cls.most_in_flight = max(cls.most_in_flight, cls.in_flight)
        try:
            if self.path.startswith("/slow"):
                time.sleep(0.1)
            if self.path in ("/moved", "/loop"):
                self.send_response(302)
                self.send_header("Location", "/landed" if self.path == "/moved" else "/loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if self.path in ("/gzip", "/bad-gzip"):
                asked = "gzip" in (self.headers["Accept-Encoding"] or "")
                body = GZIP_TEXT if not asked else gzip.compress(GZIP_TEXT) if self.path == "/gzip" else b"not gzip at all"
                self.send_response(200)
                if asked:
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            with cls.lock:
                cls.in_flight -= 1

    do_GET = do_POST = do_PUT = handle_one

    def log_message(self, *args):
        pass


class RawServer:
    """Accepts connections on 127.0.0.1 in a thread; to each, once a request
    head has arrived, sends `reply` (bytes) and closes."""

    def __init__(self, reply):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.reply = reply
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except (socket.timeout, TimeoutError, OSError):
                continue
            with connection:
                connection.settimeout(5)
                received = b""
                try:
                    while b"\r\n\r\n" not in received and len(received) < 65536:
                        chunk = connection.recv(65536)
                        if not chunk:
                            break
                        received += chunk
                    connection.sendall(self.reply)
                except OSError:
                    pass

    def close(self):
        self.stopped.set()
        self.thread.join(timeout=5)
        self.listener.close()


class FetchTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="rxuv-fetch-root-")
        cls.addClassCleanup(shutil.rmtree, cls.root, True)
        cls.small = b"hello, fetch\n"
        cls.large = os.urandom(5 << 20)
        cls.write(cls.root, "small.txt", cls.small)
        cls.write(cls.root, "large.bin", cls.large)
        for i in range(20):
            cls.write(cls.root, f"file{i}.bin", bytes([i]) * (i * 1000 + 1))
        cls.files = FileServer(cls.root)
        cls.addClassCleanup(cls.files.close)
        cls.echo = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EchoHandler)
        cls.echo.daemon_threads = True
        threading.Thread(target=cls.echo.serve_forever, daemon=True).start()
        cls.addClassCleanup(cls.echo.server_close)
        cls.addClassCleanup(cls.echo.shutdown)

    @staticmethod
    def write(root, name, data):
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)

    def echo_url(self, path="/echo"):
        return f"http://127.0.0.1:{self.echo.server_address[1]}{path}"

    def setUp(self):
        with EchoHandler.lock:
            EchoHandler.seen = []
            EchoHandler.most_in_flight = 0

    def test_get_writes_the_body_to_stdout(self):
        result = fetch(self.files.url("small.txt"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.small)
        self.assertEqual(result.stderr, b"")

    def test_a_5_mib_file_to_stdout_and_to_output_is_byte_identical(self):
        result = fetch(self.files.url("large.bin"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(hashlib.sha256(result.stdout).hexdigest(), hashlib.sha256(self.large).hexdigest())
        with tempfile.TemporaryDirectory(prefix="rxuv-fetch-out-") as out:
            target = os.path.join(out, "large.bin")
            result = fetch("-o", target, self.files.url("large.bin"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout, b"")
            with open(target, "rb") as f:
                self.assertEqual(f.read(), self.large)

    def test_include_writes_the_status_line_and_fields_first(self):
        result = fetch("-i", self.files.url("small.txt"))
        self.assertEqual(result.returncode, 0, result.stderr)
        head, separator, body = result.stdout.partition(b"\r\n\r\n")
        self.assertEqual(separator, b"\r\n\r\n")
        self.assertEqual(body, self.small)
        lines = head.split(b"\r\n")
        self.assertRegex(lines[0], rb"^HTTP/1\.[01] 200 OK$")
        fields = dict(line.split(b": ", 1) for line in lines[1:])
        self.assertEqual(fields[b"Content-Length"], str(len(self.small)).encode())
        self.assertIn(b"Server", fields)

    def test_post_with_data_sends_the_joined_strings_as_a_form(self):
        result = fetch("-d", "a=1", "-d", "b=two", self.echo_url())
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, b"a=1&b=two")
        method, path, headers, body = EchoHandler.seen[-1]
        self.assertEqual((method, path, body), ("POST", "/echo", b"a=1&b=two"))
        self.assertEqual(headers["Content-Type"], "application/x-www-form-urlencoded")
        self.assertEqual(headers["Content-Length"], "9")

    def test_data_binary_sends_a_file_and_standard_input_unchanged(self):
        data = bytes(range(256)) * 4096 + b"\r\n\x00end"
        with tempfile.NamedTemporaryFile(prefix="rxuv-fetch-body-") as body:
            body.write(data)
            body.flush()
            result = fetch("--data-binary", f"@{body.name}", "-X", "PUT", self.echo_url("/file"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, data)
        self.assertEqual(EchoHandler.seen[-1][0:2], ("PUT", "/file"))
        self.assertEqual(EchoHandler.seen[-1][3], data)
        result = fetch("--data-binary", "@-", self.echo_url("/stdin"), stdin=data[:100_000])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, data[:100_000])
        self.assertEqual(EchoHandler.seen[-1][0:2], ("POST", "/stdin"))

    def test_header_fields_reach_the_server_and_an_empty_one_drops_a_default(self):
        result = fetch("-H", "X-Trace: abc 123", "-H", "Accept: text/plain", "-H", "User-Agent:", self.echo_url("/headers"))
        self.assertEqual(result.returncode, 0, result.stderr)
        _, _, headers, _ = EchoHandler.seen[-1]
        self.assertEqual(headers["X-Trace"], "abc 123")
        self.assertEqual(headers.get_all("Accept"), ["text/plain"])
        self.assertIsNone(headers["User-Agent"])
        self.assertEqual(headers["Host"], f"127.0.0.1:{self.echo.server_address[1]}")
        result = fetch("-v", "-H", "X-Trace: abc", self.echo_url("/verbose"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b"fetch: > GET /verbose HTTP/1.1", result.stderr)
        self.assertIn(b"fetch: > X-Trace: abc", result.stderr)
        self.assertIn(b"fetch: < HTTP/1.1 200 OK", result.stderr)

    def test_location_follows_redirects_and_a_loop_exits_47(self):
        result = fetch("-i", self.echo_url("/moved"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, rb"^HTTP/1\.1 302 Found\r\n(.+\r\n)*Location: /landed\r\n")
        result = fetch("-L", "-d", "x", self.echo_url("/moved"))
        self.assertEqual(result.returncode, 0, result.stderr)
        # 302 after POST: GET without the body (RFC 9110), as curl -L does.
        self.assertEqual([(m, p, b) for m, p, _, b in EchoHandler.seen[-2:]], [("POST", "/moved", b"x"), ("GET", "/landed", b"")])
        result = fetch("-L", self.echo_url("/loop"))
        self.assertEqual(result.returncode, 47, result.stderr)

    def test_compressed_asks_for_gzip_and_writes_it_inflated(self):
        result = fetch("--compressed", self.echo_url("/gzip"))
        self.assertEqual((result.returncode, result.stdout), (0, GZIP_TEXT), result.stderr)
        self.assertIn("gzip", EchoHandler.seen[-1][2]["Accept-Encoding"])
        result = fetch(self.echo_url("/gzip"))
        self.assertEqual((result.returncode, result.stdout), (0, GZIP_TEXT), result.stderr)
        self.assertIsNone(EchoHandler.seen[-1][2]["Accept-Encoding"])
        result = fetch("--compressed", self.echo_url("/bad-gzip"))
        self.assertEqual(result.returncode, 61, result.stderr)

    def test_fail_on_404_exits_22_and_writes_no_body(self):
        result = fetch("-f", self.files.url("missing.txt"))
        self.assertEqual(result.returncode, 22, result.stderr)
        self.assertEqual(result.stdout, b"")
        self.assertIn(b"fetch: (22)", result.stderr)
        # Without -f, a 404 is a transfer like another.
        result = fetch(self.files.url("missing.txt"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(b"404", result.stdout)

    def test_a_refused_port_exits_7(self):
        result = fetch(f"http://127.0.0.1:{free_port()}/")
        self.assertEqual(result.returncode, 7, result.stderr)
        self.assertIn(b"ECONNREFUSED", result.stderr)
        self.assertEqual(fetch("-s", f"http://127.0.0.1:{free_port()}/").stderr, b"")

    def test_a_name_that_does_not_resolve_exits_6(self):
        # A label of 64 bytes (over DNS's 63) is refused by getaddrinfo
        # itself (EAI_NONAME), with no query sent anywhere.
        result = fetch("--connect-timeout", "5", "http://" + "a" * 64 + ".invalid/", timeout=15)
        self.assertEqual(result.returncode, 6, result.stderr)
        self.assertIn(b"EAI_", result.stderr)

    def test_max_time_against_a_server_that_never_answers_exits_28(self):
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)   # the kernel completes the handshake; nobody answers
        self.addCleanup(silent.close)
        started = time.monotonic()
        result = fetch("-m", "0.5", f"http://127.0.0.1:{silent.getsockname()[1]}/", timeout=10)
        waited = time.monotonic() - started
        self.assertEqual(result.returncode, 28, result.stderr)
        self.assertGreaterEqual(waited, 0.5)
        self.assertLess(waited, 3)

    def test_a_close_before_the_head_exits_52_and_a_bad_head_exits_8(self):
        for reply, code in ((b"", 52), (b"NOT HTTP AT ALL\r\n\r\n", 8)):
            server = RawServer(reply)
            self.addCleanup(server.close)
            result = fetch(f"http://127.0.0.1:{server.port}/", timeout=10)
            self.assertEqual(result.returncode, code, result.stderr)

    def test_a_body_cut_short_exits_18(self):
        server = RawServer(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")
        self.addCleanup(server.close)
        result = fetch(f"http://127.0.0.1:{server.port}/", timeout=10)
        self.assertEqual(result.returncode, 18, result.stderr)
        self.assertEqual(result.stdout, b"only this")

    def test_an_unsupported_scheme_exits_1(self):
        result = fetch("ftp://127.0.0.1/file")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn(b'the scheme "ftp"', result.stderr)
        self.assertEqual(fetch("--no-such-flag", self.files.url("small.txt")).returncode, 1)

    def test_parallel_4_with_20_urls_from_stdin(self):
        urls = [self.files.url(f"file{i}.bin") for i in range(20)]
        result = fetch("--parallel", 4, stdin=("\n".join(urls) + "\n").encode())
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.decode().splitlines()
        self.assertEqual(sorted(lines), sorted(f"200 {i * 1000 + 1} {url}" for i, url in enumerate(urls)))

    def test_parallel_keeps_at_most_n_in_flight(self):
        urls = [self.echo_url(f"/slow/{i}") for i in range(12)]
        started = time.monotonic()
        result = fetch("--parallel", 4, *urls)
        elapsed = time.monotonic() - started
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(len(result.stdout.splitlines()), 12)
        self.assertLessEqual(EchoHandler.most_in_flight, 4)
        self.assertGreaterEqual(EchoHandler.most_in_flight, 3)
        self.assertLess(elapsed, 12 * 0.1)

    def test_parallel_exits_with_the_first_failure_in_the_input(self):
        urls = [self.files.url("small.txt"), f"http://127.0.0.1:{free_port()}/", "ftp://127.0.0.1/x", self.files.url("missing")]
        result = fetch("--parallel", 2, "-f", stdin="\n".join(urls).encode())
        self.assertEqual(result.returncode, 7, result.stderr)
        lines = set(result.stdout.decode().splitlines())
        self.assertEqual(lines, {
            f"200 {len(self.small)} {urls[0]}",
            f"ERROR ECONNREFUSED {urls[1]}",
            f"ERROR invalidRequest {urls[2]}",
        } | {line for line in lines if line.startswith("404 ") and line.endswith(urls[3])})
        self.assertEqual(len(lines), 4)

    def test_https_verifies_with_cacert_and_insecure_skips_it(self):
        folder = tls_certificates()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.path.join(folder, "server.pem"), os.path.join(folder, "server.key"))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EchoHandler)
        server.daemon_threads = True
        server.socket = context.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        url = f"https://127.0.0.1:{server.server_address[1]}/tls"
        result = fetch("--cacert", os.path.join(folder, "ca.pem"), "-d", "secret", url)
        self.assertEqual((result.returncode, result.stdout), (0, b"secret"), result.stderr)
        result = fetch("-d", "secret", url)
        self.assertEqual(result.returncode, 60, result.stderr)
        self.assertIn(b"unknownCA", result.stderr)
        result = fetch("-k", "-d", "secret", url)
        self.assertEqual((result.returncode, result.stdout), (0, b"secret"), result.stderr)

    def test_against_rxuv_http_server(self):
        server = Example("http-server", "--port", 0, "--threads", 1, "--root", self.root)
        self.addCleanup(server.stop)
        port = server.listening_port()
        result = fetch("-i", f"http://127.0.0.1:{port}/plaintext")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, rb"^HTTP/1\.1 200 OK\r\n(.+\r\n)+\r\nhello$")
        result = fetch(f"http://127.0.0.1:{port}/static/large.bin", f"http://127.0.0.1:{port}/static/small.txt")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, self.large + self.small)
        result = fetch("--data-binary", "@-", f"http://127.0.0.1:{port}/echo", stdin=b"ping\n")
        self.assertEqual((result.returncode, result.stdout), (0, b"ping\n"), result.stderr)


if __name__ == "__main__":
    unittest.main()
