"""http-server --http2 as a process: its routes over cleartext HTTP/2 (h2c,
prior knowledge) driven by curl, h2load and hyper-h2 over 127.0.0.1."""

import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import h2.config
import h2.connection
import h2.events
from prometheus_client.parser import text_string_to_metric_families

from support import BIN_PATH, Example, browser_verdict, connect, peak_rss_growth, tls_certificates

# A page that fetches six resources at once and says which protocol carried
# the page and them, and their sizes.
H2_PAGE = b"""<!doctype html><html><body><div id="verdict">running</div><script>
(async () => {
  const verdict = document.getElementById("verdict");
  try {
    const paths = ["/plaintext", "/json", "/static/data.bin", "/json?2", "/plaintext?2", "/healthz"];
    const bodies = await Promise.all(paths.map(async (path) => (await fetch(path)).arrayBuffer()));
    const page = performance.getEntriesByType("navigation")[0].nextHopProtocol;
    const resources = [...new Set(performance.getEntriesByType("resource").map((entry) => entry.nextHopProtocol))];
    verdict.textContent = `ok ${page} ${resources.join(",")} ${bodies.map((body) => body.byteLength).join(" ")}`;
  } catch (error) {
    verdict.textContent = `error ${error}`;
  }
})();
</script></body></html>
"""


def h2_client(port):
    """A connected hyper-h2 client: its socket and connection, preface sent."""
    s = connect(port, timeout=30)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    s.sendall(conn.data_to_send())
    return s, conn


class HTTPServerHTTP2Tests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="rxuv-http2-root-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.content = bytes((i * 31 + 7) % 256 for i in range(300_000))
        with open(os.path.join(self.root, "data.bin"), "wb") as f:
            f.write(self.content)

    def start(self, *args):
        server = Example("http-server", "--http2", "--port", 0, "--threads", 2, "--root", self.root, *args)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def curl(self, port, path, *extra):
        """curl over h2c: (status, HTTP version, body)."""
        out = subprocess.run(
            ["curl", "-sS", "--http2-prior-knowledge", "-o", "-", "-w", "\n%{http_code} %{http_version}", *extra,
             "http://127.0.0.1:%d%s" % (port, path)],
            capture_output=True, timeout=30, check=True).stdout
        body, _, tail = out.rpartition(b"\n")
        status, version = tail.decode().split()
        return int(status), version, body

    def test_routes_answer_over_h2c(self):
        server, port = self.start()
        self.assertEqual(self.curl(port, "/plaintext"), (200, "2", b"hello"))
        # HTTP/1.1 on the same port: the first bytes tell.
        out = subprocess.run(["curl", "-sS", "--http1.1", "-w", " %{http_version}", "http://127.0.0.1:%d/plaintext" % port],
                             capture_output=True, timeout=30, text=True, check=True).stdout
        self.assertEqual(out, "hello 1.1")
        status, version, body = self.curl(port, "/json")
        self.assertEqual((status, version, len(body), body[:12]), (200, "2", 1024, b'{"message":"'))
        self.assertEqual(self.curl(port, "/echo", "--data-binary", "abc"), (200, "2", b"abc"))
        big = os.path.join(self.root, "big-upload")
        with open(big, "wb") as f:
            f.write(b"z" * ((1 << 20) + 1))
        # Past the 1 MiB a server drops of a refused body, the request is
        # asked to stop (RST_STREAM NO_ERROR), which curl 7 reports as an
        # error of its own: nghttp shows the answer and the reset.
        out = subprocess.run(["nghttp", "-v", "-d", big, "http://127.0.0.1:%d/echo" % port], capture_output=True, timeout=30, text=True).stdout
        self.assertIn(":status: 413", out)
        self.assertRegex(out, r"recv RST_STREAM frame <length=4, flags=0x00, stream_id=\d+>\s+\(error_code=NO_ERROR")
        status, version, body = self.curl(port, "/static/data.bin")
        self.assertEqual((status, version), (200, "2"))
        self.assertEqual(hashlib.sha256(body).hexdigest(), hashlib.sha256(self.content).hexdigest())
        status, _, body = self.curl(port, "/static/data.bin", "-H", "Range: bytes=1000-1999")
        self.assertEqual((status, body), (206, self.content[1000:2000]))
        self.assertEqual(self.curl(port, "/healthz"), (200, "2", b"ok\n"))
        self.assertEqual(self.curl(port, "/nothing")[0], 404)
        self.assertEqual(self.curl(port, "/plaintext", "-X", "PUT")[0], 405)
        status, _, body = self.curl(port, "/metrics")
        families = {family.name: family for family in text_string_to_metric_families(body.decode())}
        requests = {(s.labels["method"], s.labels["status"]): s.value for s in families["http_requests"].samples if s.name == "http_requests_total"}
        self.assertEqual(requests[("GET", "200")], 5)
        self.assertEqual(requests[("GET", "404")], 1)

    def test_h2load_many_streams_on_many_connections_all_succeed(self):
        server, port = self.start()
        base = "http://127.0.0.1:%d" % port
        out = subprocess.run(["h2load", "-c", "16", "-m", "10", "-n", "8000", base + "/plaintext", base + "/json", base + "/static/data.bin"],
                             capture_output=True, timeout=120, text=True).stdout
        self.assertIn("8000 succeeded, 0 failed, 0 errored, 0 timeout", out)
        self.assertIn("status codes: 8000 2xx", out)

    def test_a_large_upload_is_read_with_bounded_memory(self):
        """128 MiB to /upload (read as an AsyncSequence) on one stream: the
        server's memory stays within 32 MiB of where it began, as the
        stream's window opens only as the handler reads."""
        server, port = self.start()
        total, piece = 128 << 20, b"u" * 16384
        s, conn = h2_client(port)

        def upload():
            stream = conn.get_next_available_stream_id()
            conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/upload")])
            sent, body, ended = 0, b"", False
            deadline = time.monotonic() + 60
            while not ended and time.monotonic() < deadline:
                room = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size, total - sent)
                while room > 0:
                    conn.send_data(stream, piece[:room], end_stream=sent + room == total)
                    sent += room
                    room = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size, total - sent)
                s.sendall(conn.data_to_send())
                data = s.recv(65536)
                if not data:
                    break
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.DataReceived):
                        body += event.data
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        ended = True
                s.sendall(conn.data_to_send())
            return body

        try:
            body, baseline, peak = peak_rss_growth(server, upload)
        finally:
            s.close()
        self.assertEqual(body, b"%d\n" % total)
        self.assertLess(peak - baseline, 32 * 1024, "peak RSS grew %d KiB" % (peak - baseline))

    def test_chromium_loads_a_page_and_its_resources_over_h2(self):
        """Headless Chromium over HTTPS (ALPN h2; the test server
        certificate trusted on its command line by its key's SPKI): the page
        and six resources fetched at once all come over HTTP/2, whole."""
        with open(os.path.join(self.root, "h2.html"), "wb") as f:
            f.write(H2_PAGE)
        certificates = tls_certificates()
        server, port = self.start("--tls-cert", os.path.join(certificates, "server.pem"),
                                  "--tls-key", os.path.join(certificates, "server.key"))
        spki = subprocess.run(
            "openssl x509 -pubkey -noout -in %s | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
            % os.path.join(certificates, "server.pem"), shell=True, capture_output=True, text=True, check=True).stdout.strip()
        verdict = browser_verdict("https://127.0.0.1:%d/static/h2.html" % port, flags=["--ignore-certificate-errors-spki-list=" + spki])
        self.assertEqual(verdict, "ok h2 h2 5 1024 300000 1024 5 3")

    def test_https_speaks_h2_or_http1_as_alpn_asks(self):
        certificates = tls_certificates()
        server, port = self.start("--tls-cert", os.path.join(certificates, "server.pem"),
                                  "--tls-key", os.path.join(certificates, "server.key"))
        for flag, version in (("--http2", "2"), ("--http1.1", "1.1")):
            out = subprocess.run(["curl", "-sS", flag, "--cacert", os.path.join(certificates, "ca.pem"), "-w", " %{http_version}",
                                  "https://127.0.0.1:%d/plaintext" % port], capture_output=True, timeout=30, text=True, check=True).stdout
            self.assertEqual(out, "hello " + version)

    def test_fetch_speaks_h2_through_alpn_and_with_prior_knowledge(self):
        """fetch (RxUV's client) against http-server: HTTP/2 through ALPN
        over https, and twenty URLs --parallel 8 on one connection;
        --http1.1 keeps HTTP/1.1; h2c with --http2-prior-knowledge."""
        certificates = tls_certificates()
        ca = os.path.join(certificates, "ca.pem")
        server, port = self.start("--tls-cert", os.path.join(certificates, "server.pem"),
                                  "--tls-key", os.path.join(certificates, "server.key"))
        fetch = os.path.join(BIN_PATH, "fetch")
        url = "https://127.0.0.1:%d/plaintext" % port
        for flags, status_line in (((), b"HTTP/2 200 \r\n"), (("--http1.1",), b"HTTP/1.1 200 OK\r\n")):
            out = subprocess.run([fetch, "-i", "--cacert", ca, *flags, url], capture_output=True, timeout=30, check=True).stdout
            self.assertTrue(out.startswith(status_line), out[:40])
            self.assertTrue(out.endswith(b"\r\n\r\nhello"), out[-20:])
        urls = "".join("%s?%d\n" % (url, i) for i in range(20)).encode()
        out = subprocess.run([fetch, "--parallel", "8", "--cacert", ca], input=urls, capture_output=True, timeout=60, check=True).stdout
        lines = out.decode().splitlines()
        self.assertEqual(len(lines), 20, lines)
        self.assertTrue(all(line.startswith("200 5 ") for line in lines), lines[:3])
        server.send_signal(signal.SIGTERM)
        code, _ = server.wait(timeout=10)
        self.assertEqual(code, 0)
        # One connection for -i, one for --http1.1, one for the twenty.
        server.printed(r"^http-server: stopped; served 3 connections$")
        cleartext, cleartext_port = self.start()
        out = subprocess.run([fetch, "-i", "--http2-prior-knowledge", "http://127.0.0.1:%d/json" % cleartext_port],
                             capture_output=True, timeout=30, check=True).stdout
        self.assertTrue(out.startswith(b"HTTP/2 200 \r\n"), out[:40])
        self.assertIn(b'{"message":"', out)

    def test_sigterm_says_goaway_then_exits(self):
        server, port = self.start()
        s, conn = h2_client(port)
        stream = conn.get_next_available_stream_id()
        conn.send_headers(stream, [(":method", "GET"), (":scheme", "http"), (":authority", "x"), (":path", "/plaintext")], end_stream=True)
        s.sendall(conn.data_to_send())
        seen = []
        while h2.events.StreamEnded not in seen:
            seen += [type(event) for event in conn.receive_data(s.recv(65536))]
            s.sendall(conn.data_to_send())
        server.send_signal(signal.SIGTERM)
        goaway = None
        while goaway is None:
            data = s.recv(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ConnectionTerminated):
                    goaway = event.error_code
        self.assertEqual(goaway, 0)
        code, _ = server.wait(timeout=10)
        self.assertEqual(code, 0)
        server.printed(r"^http-server: stopped; served 1 connection$")
        s.close()


if __name__ == "__main__":
    unittest.main()
