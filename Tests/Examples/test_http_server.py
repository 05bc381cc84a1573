"""http-server as a process, driven by Python's http.client, curl, raw sockets
and the prometheus_client parser over 127.0.0.1."""

import hashlib
import http.client
import os
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest

from prometheus_client.parser import text_string_to_metric_families

from support import Example, connect, cpu_seconds, peak_rss_growth


class HTTPServerTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="rxuv-http-root-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.content = bytes((i * 31 + 7) % 256 for i in range(300_000))
        with open(os.path.join(self.root, "data.bin"), "wb") as f:
            f.write(self.content)
        os.makedirs(os.path.join(self.root, "sub"))
        with open(os.path.join(self.root, "sub", "page.html"), "w") as f:
            f.write("<p>hi</p>")
        with open(os.path.join(self.root, ".secret"), "w") as f:
            f.write("hidden")

    def start(self, *args):
        server = Example("http-server", "--port", 0, "--threads", 2, "--root", self.root, *args)
        self.addCleanup(server.stop)
        return server, server.listening_port()

    def ask(self, port, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            c.close()

    def upload(self, port, path, total, piece):
        """POSTs `total` bytes (`piece` repeated) to `path` on one raw
        connection; returns the answer (its head and body, read whole)."""
        with connect(port, timeout=60) as s:
            s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (path, total))
            for _ in range(total // len(piece)):
                s.sendall(piece)
            reply = b""
            # The head and the body may come apart (through the proxy).
            while b"\r\n\r\n" not in reply or not reply.split(b"\r\n\r\n", 1)[1].endswith(b"\n"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
            return reply

    def raw(self, port, data):
        """Sends `data`, half-closes, and returns everything read until the
        server closes."""
        with connect(port, timeout=10) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            received = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return received
                received += chunk

    def test_routes_answer(self):
        server, port = self.start()
        self.assertEqual(self.ask(port, "GET", "/plaintext")[::2], (200, b"hello"))
        status, headers, body = self.ask(port, "GET", "/json")
        self.assertEqual((status, headers["Content-Type"], len(body)), (200, "application/json", 1024))
        self.assertEqual(body[:12], b'{"message":"')
        self.assertEqual(self.ask(port, "POST", "/echo", b"abc", {"Content-Type": "text/x-test"})[::2], (200, b"abc"))
        self.assertEqual(self.ask(port, "POST", "/echo", b"z" * (1 << 20) + b"!")[0], 413)
        self.assertEqual(self.ask(port, "GET", "/healthz")[::2], (200, b"ok\n"))
        self.assertEqual(self.ask(port, "GET", "/nothing")[0], 404)
        self.assertEqual(self.ask(port, "PUT", "/plaintext")[0], 405)

    def test_static_files_ranges_and_conditionals(self):
        server, port = self.start()
        status, headers, body = self.ask(port, "GET", "/static/data.bin")
        self.assertEqual((status, len(body)), (200, len(self.content)))
        self.assertEqual(hashlib.sha256(body).digest(), hashlib.sha256(self.content).digest())
        self.assertEqual(headers["Accept-Ranges"], "bytes")
        modified = headers["Last-Modified"]
        status, headers, body = self.ask(port, "GET", "/static/sub/page.html")
        self.assertEqual((status, headers["Content-Type"], body), (200, "text/html; charset=utf-8", b"<p>hi</p>"))
        # The type by extension, any case; an unknown or too long one, or none, is bytes.
        for name, media in [("a.TXT", "text/plain; charset=utf-8"), ("b.jpeg", "image/jpeg"), ("c.js", "text/javascript; charset=utf-8"),
                            ("d.Wasm", "application/wasm"), ("e.tar.gz", "application/octet-stream"), ("noext", "application/octet-stream"),
                            ("f.htm", "text/html; charset=utf-8"), ("g.JSON", "application/json"), ("h.html5", "application/octet-stream"),
                            ("dir.css/i", "application/octet-stream"), ("j.svg", "image/svg+xml")]:
            os.makedirs(os.path.dirname(os.path.join(self.root, "types", name)), exist_ok=True)
            with open(os.path.join(self.root, "types", name), "w") as f:
                f.write(name)
            status, headers, body = self.ask(port, "GET", "/static/types/" + name)
            self.assertEqual((status, headers["Content-Type"], body), (200, media, name.encode()), name)
        # A small file is read whole, then cut to the range.
        status, headers, body = self.ask(port, "GET", "/static/sub/page.html", headers={"Range": "bytes=1-3"})
        self.assertEqual((status, headers["Content-Range"], body), (206, "bytes 1-3/9", b"p>h"))
        # Ranges: a middle, an open end, a suffix; past the end: 416.
        for spec, expected in [("bytes=100-199", self.content[100:200]), ("bytes=299990-", self.content[299990:]), ("bytes=-5", self.content[-5:])]:
            status, headers, body = self.ask(port, "GET", "/static/data.bin", headers={"Range": spec})
            self.assertEqual((status, body), (206, expected), spec)
        self.assertEqual(headers["Content-Range"], "bytes 299995-299999/300000")
        status, headers, _ = self.ask(port, "GET", "/static/data.bin", headers={"Range": "bytes=400000-"})
        self.assertEqual((status, headers["Content-Range"]), (416, "bytes */300000"))
        # Several ranges: the whole file.
        self.assertEqual(self.ask(port, "GET", "/static/data.bin", headers={"Range": "bytes=0-1,5-6"})[0], 200)
        # If-Modified-Since: 304 with no body at the file's date, 200 before it.
        status, _, body = self.ask(port, "GET", "/static/data.bin", headers={"If-Modified-Since": modified})
        self.assertEqual((status, body), (304, b""))
        self.assertEqual(self.ask(port, "GET", "/static/data.bin", headers={"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"})[0], 200)
        # curl's range and HEAD.
        ranged = subprocess.run(["curl", "-sS", "-r", "10-19", f"http://127.0.0.1:{port}/static/data.bin"], capture_output=True, check=True, timeout=10)
        self.assertEqual(ranged.stdout, self.content[10:20])
        head = subprocess.run(["curl", "-sS", "-I", f"http://127.0.0.1:{port}/static/data.bin"], capture_output=True, check=True, text=True, timeout=10)
        self.assertIn("Content-Length: 300000", head.stdout)
        # Not served: a parent, a hidden name, a folder, a missing file.
        for path in ["/static/../data.bin", "/static/sub/../../etc/passwd", "/static/.secret", "/static/sub", "/static/missing"]:
            reply = self.raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            self.assertTrue(reply.startswith(b"HTTP/1.1 404 "), (path, reply[:100]))

    def test_a_file_replaced_is_answered_anew_after_a_second(self):
        """The answer made for a whole file is reused only for the open it
        was made for: once the file cache opens the file again (after a
        second), a file replaced meanwhile gets its own length and date."""
        server, port = self.start()
        path = os.path.join(self.root, "changing.txt")
        with open(path, "wb") as f:
            f.write(b"first version")
        os.utime(path, (1_000_000_000, 1_000_000_000))
        for _ in range(3):
            status, headers, body = self.ask(port, "GET", "/static/changing.txt")
            self.assertEqual((status, body), (200, b"first version"))
        self.assertEqual(headers["Last-Modified"], "Sun, 09 Sep 2001 01:46:40 GMT")
        replacement = path + ".new"
        with open(replacement, "wb") as f:
            f.write(b"the second, longer version")
        os.utime(replacement, (1_100_000_000, 1_100_000_000))
        os.rename(replacement, path)
        time.sleep(1.2)
        status, headers, body = self.ask(port, "GET", "/static/changing.txt")
        self.assertEqual((status, body, headers["Content-Length"]), (200, b"the second, longer version", "26"))
        self.assertEqual(headers["Last-Modified"], "Tue, 09 Nov 2004 11:33:20 GMT")

    def test_metrics_parse_as_prometheus_text(self):
        server, port = self.start()
        for _ in range(3):
            self.ask(port, "GET", "/plaintext")
        self.ask(port, "GET", "/nothing")
        status, headers, body = self.ask(port, "GET", "/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/plain; version=0.0.4"))
        families = {family.name: family for family in text_string_to_metric_families(body.decode())}
        requests = {(s.labels["method"], s.labels["status"]): s.value for s in families["http_requests"].samples if s.name == "http_requests_total"}
        self.assertEqual(requests[("GET", "200")], 3)
        self.assertEqual(requests[("GET", "404")], 1)
        self.assertIn("http_request_duration_seconds", families)
        accepted = sum(s.value for s in families["rxuv_server_connections_accepted"].samples)
        self.assertGreaterEqual(accepted, 5)

    def test_no_request_metrics_keeps_the_server_metrics_only(self):
        server, port = self.start("--no-request-metrics")
        for _ in range(3):
            self.assertEqual(self.ask(port, "GET", "/plaintext")[0], 200)
        status, _, body = self.ask(port, "GET", "/metrics")
        self.assertEqual(status, 200)
        families = {family.name: family for family in text_string_to_metric_families(body.decode())}
        self.assertNotIn("http_requests", families)
        self.assertNotIn("http_request_duration_seconds", families)
        accepted = sum(s.value for s in families["rxuv_server_connections_accepted"].samples)
        self.assertGreaterEqual(accepted, 4)

    def test_metrics_show_every_loops_health(self):
        """The group's watchdog records each loop's health every second:
        /metrics has utilization, turns, timer lag, the door's depth and
        open handles by kind for loops 0 and 1, and no stall."""
        server, port = self.start()
        self.assertEqual(self.ask(port, "GET", "/plaintext")[0], 200)
        time.sleep(1.5)
        status, _, body = self.ask(port, "GET", "/metrics")
        self.assertEqual(status, 200)
        families = {family.name: family for family in text_string_to_metric_families(body.decode())}
        utilization = {s.labels["loop"]: s.value for s in families["rxuv_loop_utilization"].samples}
        self.assertEqual(set(utilization), {"0", "1"})
        for value in utilization.values():
            self.assertTrue(0 <= value <= 1, utilization)
        turns = {s.labels["loop"]: s.value for s in families["rxuv_loop_iterations"].samples if s.name == "rxuv_loop_iterations_total"}
        # An idle loop waits in epoll_wait without turning: only the loop
        # that served turned for sure.
        self.assertEqual(set(turns), {"0", "1"})
        self.assertGreater(sum(turns.values()), 0, turns)
        tcp = [s.value for s in families["rxuv_loop_open_handles"].samples if s.labels["kind"] == "tcp"]
        self.assertEqual(len(tcp), 2)
        self.assertIn("rxuv_loop_timer_lag_seconds", families)
        self.assertIn("rxuv_loop_waiting_work", families)
        stalls = [s.value for s in families.get("rxuv_loop_stalls").samples if s.name == "rxuv_loop_stalls_total"] if "rxuv_loop_stalls" in families else []
        self.assertTrue(all(value == 0 for value in stalls), stalls)

    def test_shed_above_answers_503_on_a_busy_loop_but_not_metrics(self):
        """--shed-above 0: every loop is over the bound once its first second
        is measured (it was busy a little), so the routes answer 503 with
        Retry-After, while /metrics and /healthz still answer 200."""
        server, port = self.start("--shed-above", "0", "--threads", "1")
        self.assertEqual(self.ask(port, "GET", "/plaintext")[0], 200)
        time.sleep(1.5)
        status, headers, body = self.ask(port, "GET", "/plaintext")
        self.assertEqual(status, 503)
        self.assertEqual(headers["Retry-After"], "1")
        self.assertEqual(body, b"busy: try again\n")
        self.assertEqual(self.ask(port, "GET", "/healthz")[0], 200)
        self.assertEqual(self.ask(port, "GET", "/metrics")[0], 200)
        server.send_signal(signal.SIGTERM)
        self.assertEqual(server.wait(10)[0], 0, "the health timers close before the loops")

    def test_malformed_request_gets_its_status_and_close(self):
        server, port = self.start()
        reply = self.raw(port, b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n")
        self.assertTrue(reply.startswith(b"HTTP/1.1 400 Bad Request\r\n"), reply)
        self.assertIn(b"Connection: close", reply)
        self.assertEqual(reply.count(b"HTTP/1.1 "), 1)

    def test_a_refused_head_is_read_whole_by_a_client_still_sending(self):
        """A 200 KiB header section gets its 431, and the connection then
        ends with a FIN, not a reset: the server half-closes and drops the
        rest of the client's bytes before it closes (a lingering close), so
        the client that sends everything and then reads sees the whole
        answer. Without it the close with unread bytes is a reset, which can
        erase the 431 before the client reads it."""
        server, port = self.start()
        head = b"GET /plaintext HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-Filler-%d: %s\r\n" % (i, b"a" * 1000) for i in range(200)) + b"\r\n"
        for _ in range(5):
            with connect(port, timeout=10) as s:
                s.sendall(head)
                received = b""
                while True:
                    try:
                        chunk = s.recv(65536)
                    except ConnectionResetError:
                        self.fail(f"reset after {received[:40]!r}")
                    if not chunk:
                        break
                    received += chunk
                self.assertTrue(received.startswith(b"HTTP/1.1 431 "), received[:80])
                self.assertIn(b"Connection: close", received)

    def test_slowloris_is_bounded_by_the_head_timeout(self):
        """500 connections each sending a byte a second: every one is answered
        408 and closed at the head timeout; meanwhile a normal request is
        answered at once, and the server's CPU stays low."""
        server, port = self.start("--head-timeout", "2s")
        sockets = []
        for _ in range(500):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.setblocking(False)
            sockets.append(s)
        cpu_before = cpu_seconds(server.process.pid)
        start = time.monotonic()
        head = b"GET /plaintext HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
        closed = {}
        sent = 0
        answered_meanwhile = None
        while len(closed) < len(sockets) and time.monotonic() - start < 8:
            for index, s in enumerate(sockets):
                if index in closed:
                    continue
                try:
                    s.send(head[sent:sent + 1])
                except OSError:
                    pass
                try:
                    reply = s.recv(4096)
                    closed[index] = (reply.split(b"\r\n")[0], time.monotonic() - start)
                except BlockingIOError:
                    pass
                except OSError:
                    closed[index] = (b"reset", time.monotonic() - start)
            sent += 1
            if answered_meanwhile is None:
                answered_meanwhile = self.ask(port, "GET", "/plaintext")[::2]
            time.sleep(1)
        cpu = cpu_seconds(server.process.pid) - cpu_before
        for s in sockets:
            s.close()
        self.assertEqual(answered_meanwhile, (200, b"hello"))
        self.assertEqual(len(closed), 500)
        self.assertEqual({line for line, _ in closed.values()}, {b"HTTP/1.1 408 Request Timeout"})
        slowest = max(seconds for _, seconds in closed.values())
        self.assertLess(slowest, 4.5)
        print(f"\nslowloris: 500 connections, all 408 within {slowest:.1f} s, server CPU {cpu * 1000:.0f} ms", flush=True)
        self.assertLess(cpu, 1.0)

    def test_one_gib_upload_is_read_with_bounded_memory(self):
        """1 GiB to /upload, which reads the body as an AsyncSequence: the
        whole length arrives, and the server's RSS grows by far less than
        what passed through it."""
        server, port = self.start()
        self.ask(port, "GET", "/plaintext")
        total = 1 << 30
        reply, baseline, peak = peak_rss_growth(server, lambda: self.upload(port, b"/upload", total, b"u" * (1 << 20)))
        self.assertTrue(reply.startswith(b"HTTP/1.1 200 OK\r\n"), reply)
        self.assertTrue(reply.endswith(b"\r\n\r\n%d\n" % total), reply)
        growth = peak - baseline
        print(f"\n1 GiB upload: RSS {baseline} KiB before, peak {peak} KiB (+{growth} KiB)", flush=True)
        self.assertLess(growth, 32 * 1024)

    def test_proxy_streams_both_ways_with_bounded_memory(self):
        """A second http-server with --upstream: /proxy/ reaches the first
        one through RxUV's HTTP client; a file comes back byte for byte, a
        body goes up, 256 MiB go up through it while the proxy's RSS stays
        bounded (both directions are paced), and a dead upstream is a 502."""
        upstream, upstream_port = self.start()
        proxy, port = self.start("--upstream", f"http://127.0.0.1:{upstream_port}")
        self.assertEqual(self.ask(port, "GET", "/proxy/static/data.bin")[::2], (200, self.content))
        self.assertEqual(self.ask(port, "POST", "/proxy/echo", b"through")[::2], (200, b"through"))
        self.assertEqual(self.ask(port, "GET", "/proxy/plaintext")[::2], (200, b"hello"))
        total = 256 << 20
        reply, baseline, peak = peak_rss_growth(proxy, lambda: self.upload(port, b"/proxy/upload", total, b"p" * (1 << 20)))
        self.assertTrue(reply.startswith(b"HTTP/1.1 200 OK\r\n"), reply)
        self.assertTrue(reply.endswith(b"\r\n\r\n%d\n" % total), reply)
        growth = peak - baseline
        print(f"\n256 MiB through the proxy: RSS {baseline} KiB before, peak {peak} KiB (+{growth} KiB)", flush=True)
        self.assertLess(growth, 48 * 1024)
        upstream.stop()
        status, _, body = self.ask(port, "GET", "/proxy/plaintext")
        self.assertEqual(status, 502, body)

    def test_ten_thousand_keep_alive_connections(self):
        """10,000 connections, each making a request, kept open, then each
        making a second one on the same connection: every answer arrives,
        and the server's memory per open connection is measured."""
        wanted = 10_000
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard < wanted + 500:
            self.skipTest(f"the descriptor limit ({hard}) is below {wanted + 500}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted + 500, hard))
        self.addCleanup(resource.setrlimit, resource.RLIMIT_NOFILE, (soft, hard))
        server, port = self.start("--threads", 1)
        baseline = server.rss_kib()
        request = b"GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n"
        expected_tail = b"\r\n\r\nhello"
        selector = selectors.DefaultSelector()
        sockets = []
        try:
            deadline = time.monotonic() + 60
            for _ in range(wanted):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.setblocking(False)
                sockets.append(s)
            for round_number in range(2):
                received = {}
                for s in sockets:
                    s.send(request)
                    received[s] = b""
                    selector.register(s, selectors.EVENT_READ)
                waiting = len(sockets)
                while waiting and time.monotonic() < deadline:
                    for key, _ in selector.select(timeout=1):
                        chunk = key.fileobj.recv(4096)
                        received[key.fileobj] += chunk
                        if received[key.fileobj].endswith(expected_tail) or not chunk:
                            selector.unregister(key.fileobj)
                            waiting -= 1
                answered = sum(1 for data in received.values() if data.startswith(b"HTTP/1.1 200 OK") and data.endswith(expected_tail))
                self.assertEqual(answered, wanted, f"round {round_number + 1}")
            per_connection = (server.rss_kib() - baseline) * 1024 / wanted
            print(f"\n10,000 keep-alive connections: two requests each answered, {per_connection:.0f} bytes of RSS per connection", flush=True)
        finally:
            selector.close()
            for s in sockets:
                s.close()

    def test_sigterm_answers_the_request_in_hand_then_exits(self):
        server, port = self.start()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/plaintext")
        self.assertEqual(c.getresponse().read(), b"hello")
        server.send_signal(signal.SIGTERM)
        code, _ = server.wait(timeout=10)
        self.assertEqual(code, 0)
        server.printed(r"^http-server: stopped; served 1 connection$")
        c.close()

    def test_port_in_use_exits_1(self):
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            server = Example("http-server", "--port", taken.getsockname()[1])
            self.addCleanup(server.stop)
            code, _ = server.wait(timeout=10)
        self.assertEqual(code, 1)
        server.expect_stderr(r"EADDRINUSE")


if __name__ == "__main__":
    unittest.main()
