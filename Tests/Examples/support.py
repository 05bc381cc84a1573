"""Helpers for the example tests: run a built example as a process, talk to it
over loopback with plain sockets, and wait with deadlines (nothing blocks forever)."""

import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time

BIN_PATH = os.environ.get("RXUV_EXAMPLES_BIN", "")
HERE = os.path.dirname(os.path.abspath(__file__))
_certificates = None


def tls_certificates():
    """The folder of the TLS test certificates (scripts/tls-test-certificates.py:
    ca.pem, server.pem/.key for localhost and 127.0.0.1, other.pem/.key,
    client.pem/.key...), made once per run with new keys, removed at exit."""
    global _certificates
    if _certificates is None:
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="rxuv-example-tls-")
        atexit.register(shutil.rmtree, folder, True)
        subprocess.run(["python3", os.path.join(HERE, "..", "..", "scripts", "tls-test-certificates.py"), folder], check=True)
        _certificates = folder
    return _certificates


class Example:
    """A running example: its stdout and stderr lines are collected by threads,
    so the tests can wait for a line with a timeout."""

    def __init__(self, name, *args, env=None, cwd=None, stdin_text=None, open_files=None):
        """`env`: variables added to the inherited environment; `cwd`: the
        working directory; `stdin_text`: written to standard input, which is
        then closed (by default standard input is /dev/null); `open_files`:
        the process's descriptor limit (RLIMIT_NOFILE, soft and hard)."""
        path = os.path.join(BIN_PATH, name)
        if not os.access(path, os.X_OK):
            raise RuntimeError(f"{path} is not built")
        self.name = name
        self.process = subprocess.Popen(
            [path, *map(str, args)],
            cwd=cwd,
            stdin=subprocess.DEVNULL if stdin_text is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            env=None if env is None else {**os.environ, **env},
            preexec_fn=None if open_files is None else (lambda: _limit_open_files(open_files)),
        )
        self.lines = queue.Queue()
        self.stdout = []
        self.stderr = []
        self._readers = [
            threading.Thread(target=self._collect, args=(self.process.stdout, self.stdout, True), daemon=True),
            threading.Thread(target=self._collect, args=(self.process.stderr, self.stderr, False), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        if stdin_text is not None:
            self.process.stdin.write(stdin_text)
            self.process.stdin.close()

    def _collect(self, stream, into, is_stdout):
        for line in stream:
            line = line.rstrip("\n")
            into.append(line)
            if is_stdout:
                self.lines.put(line)
        if is_stdout:
            self.lines.put(None)

    def expect_line(self, pattern, timeout=5.0):
        """Waits for the next stdout line matching `pattern`; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{self.name}: no line matching {pattern!r} within {timeout}s; stdout: {self.stdout}, stderr: {self.stderr}")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"{self.name}: stdout closed before a line matching {pattern!r}; stdout: {self.stdout}, stderr: {self.stderr}")
            match = re.search(pattern, line)
            if match:
                return match

    def expect_stderr(self, pattern, timeout=5.0):
        """Waits for a standard error line (any so far) matching `pattern`;
        returns the match. Gives up early when the process has exited."""
        deadline = time.monotonic() + timeout
        while True:
            exited = self.process.poll() is not None
            if exited:
                for reader in self._readers:
                    reader.join(timeout=2)
            for line in list(self.stderr):
                match = re.search(pattern, line)
                if match:
                    return match
            if exited or time.monotonic() >= deadline:
                raise AssertionError(f"{self.name}: no stderr line matching {pattern!r} within {timeout}s; stdout: {self.stdout}, stderr: {self.stderr}")
            time.sleep(0.01)

    def listening_port(self):
        """The port from the example's `listening on 127.0.0.1:PORT` line."""
        return int(self.expect_line(r"listening on 127\.0\.0\.1:(\d+)$").group(1))

    def printed(self, pattern):
        """The match of `pattern` in a line printed so far (in any order), or
        an AssertionError."""
        for line in list(self.stdout):
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"{self.name}: no line matching {pattern!r}; stdout: {self.stdout}, stderr: {self.stderr}")

    def send_signal(self, signum):
        self.process.send_signal(signum)

    def wait(self, timeout):
        """Waits for the exit; returns (exit code, seconds waited). Kills on timeout."""
        start = time.monotonic()
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"{self.name} did not exit within {timeout}s; stdout: {self.stdout}, stderr: {self.stderr}")
        for reader in self._readers:
            reader.join(timeout=2)
        return code, time.monotonic() - start

    def rss_kib(self):
        return status_kib(self.process.pid)

    def stop(self):
        """Ends the process if a test left it running."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


def status_kib(pid, field="VmRSS"):
    """A KiB figure of process `pid` from /proc/PID/status: VmRSS (resident
    now), VmHWM (the peak)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def _limit_open_files(count):
    import resource
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def cpu_seconds(pid):
    """User and system CPU of process `pid`, all threads, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def connect(port, timeout=5.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.settimeout(timeout)
    return sock


def free_port():
    """A port that nothing listens on: bound by the OS, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class BlackHole:
    """A listening socket on 127.0.0.1 whose backlog is full: new connection
    attempts get no answer at all (their SYNs are dropped), so a client sees a
    timeout, not a refusal. Nothing leaves this machine."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(0)
        self.port = self.listener.getsockname()[1]
        self.fillers = []
        for _ in range(16):
            if self._answers():
                continue
            return
        raise RuntimeError("could not fill the backlog of the black-hole socket")

    def _answers(self):
        filler = socket.socket()
        filler.settimeout(0.2)
        self.fillers.append(filler)
        try:
            filler.connect(("127.0.0.1", self.port))
            return True
        except (socket.timeout, TimeoutError):
            return False

    def close(self):
        for sock in self.fillers:
            sock.close()
        self.listener.close()


class LineClient:
    """A chat client: a socket with a line buffer."""

    def __init__(self, port, timeout=5.0):
        self.sock = connect(port, timeout)
        self.buffer = b""
        self.eof = False

    def send(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def line(self, timeout=5.0):
        """The next line, without its newline; None at EOF."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if self.eof:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no line within {timeout}s; buffered: {self.buffer[:200]!r}")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(65536)
            except (socket.timeout, TimeoutError):
                continue
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                self.eof = True
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def lines_until(self, predicate, timeout=5.0):
        """Lines up to and including the first for which `predicate` holds."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.line(max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"EOF before the expected line; seen: {seen}")
            seen.append(line)
            if predicate(line):
                return seen

    def close(self):
        self.sock.close()


def udp_drops(port):
    """The kernel's drop count for the IPv4 UDP socket bound to 127.0.0.1:port
    (the `drops` column of /proc/net/udp)."""
    local = f"0100007F:{port:04X}"
    with open("/proc/net/udp") as table:
        next(table)
        for line in table:
            fields = line.split()
            if fields[1] == local:
                return int(fields[-1])
    raise AssertionError(f"no UDP socket on 127.0.0.1:{port} in /proc/net/udp")


def browser_verdict(url, timeout=30, flags=()):
    """Opens `url` in headless Chromium and returns the text of its
    `#verdict` once it is no longer `running`, read through the DevTools
    protocol (`Runtime.evaluate`): `--dump-dom` dumps at the load event,
    before a page's WebSocket exchange is over. `flags` go on Chromium's
    command line (a test certificate's SPKI to trust)."""
    import asyncio
    import json
    import shutil
    import tempfile
    import urllib.request

    from websockets.asyncio.client import connect as websocket_connect

    profile = tempfile.mkdtemp(prefix="rxuv-chromium-")
    chrome = subprocess.Popen(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", *flags, url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    try:
        port = None
        while port is None:
            line = chrome.stderr.readline()
            if not line and chrome.poll() is not None:
                raise AssertionError(f"chromium exited ({chrome.returncode}) before its DevTools port")
            found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))

        async def poll():
            while True:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
                    pages = [t for t in json.load(answer) if t.get("type") == "page" and t["url"].startswith(url)]
                if pages:
                    break
                if time.monotonic() > deadline:
                    return "no page"
                await asyncio.sleep(0.1)
            async with websocket_connect(pages[0]["webSocketDebuggerUrl"], max_size=2**24) as devtools:
                ask = 0
                while time.monotonic() < deadline:
                    ask += 1
                    await devtools.send(json.dumps({"id": ask, "method": "Runtime.evaluate", "params": {
                        "expression": "(document.getElementById('verdict') || {}).textContent"}}))
                    while True:
                        reply = json.loads(await devtools.recv())
                        if reply.get("id") == ask:
                            break
                    value = reply.get("result", {}).get("result", {}).get("value")
                    if value and value != "running":
                        return value
                    await asyncio.sleep(0.1)
                return "timeout"
        return asyncio.run(poll())
    finally:
        chrome.kill()
        chrome.wait()
        chrome.stderr.close()
        shutil.rmtree(profile, ignore_errors=True)


def peak_rss_growth(server, work):
    """Runs `work()`, sampling `server`'s RSS every 20 ms; returns what
    `work` returned, the RSS before and its peak, in KiB."""
    baseline = server.rss_kib()
    peak = [baseline]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], server.rss_kib())
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = work()
    finally:
        done.set()
        sampler.join()
    return result, baseline, peak[0]
