"""A small RESP2 client for the kv-server tests: sends commands or raw bytes
and reads whole replies back as the exact bytes the server sent, so two
servers' answers can be compared byte for byte."""

import socket
import subprocess
import time

from support import free_port


def encode(*args):
    """A command as a RESP array of bulk strings."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode()
        elif isinstance(arg, int):
            arg = str(arg).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
    return b"".join(out)


class RespConnection:
    def __init__(self, address, timeout=5.0, tls=None):
        """`tls`: an `ssl.SSLContext` to speak TLS with (server name localhost)."""
        if isinstance(address, str):
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(timeout)
            self.sock.connect(address)
        else:
            self.sock = socket.create_connection(("127.0.0.1", address), timeout=timeout)
            self.sock.settimeout(timeout)
        if tls is not None:
            self.sock = tls.wrap_socket(self.sock, server_hostname="localhost")
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def command(self, *args):
        self.send(encode(*args))
        return self.reply()

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise EOFError("connection closed")
        self.buffer += chunk

    def _line(self, start):
        while True:
            end = self.buffer.find(b"\r\n", start)
            if end >= 0:
                return end
            self._fill()

    def _reply_end(self, start):
        end = self._line(start)
        kind, header = self.buffer[start:start + 1], self.buffer[start + 1:end]
        position = end + 2
        if kind in (b"+", b"-", b":"):
            return position
        if kind == b"$":
            size = int(header)
            if size < 0:
                return position
            while len(self.buffer) < position + size + 2:
                self._fill()
            return position + size + 2
        if kind == b"*":
            count = int(header)
            for _ in range(max(count, 0)):
                position = self._reply_end(position)
            return position
        raise AssertionError(f"not a RESP reply: {self.buffer[start:start + 40]!r}")

    def reply(self):
        """The next whole reply, as the bytes the server sent."""
        end = self._reply_end(0)
        raw, self.buffer = self.buffer[:end], self.buffer[end:]
        return raw

    def rest_until_eof(self, timeout=5.0):
        """Everything the server sends until it closes the connection."""
        self.sock.settimeout(timeout)
        data, self.buffer = self.buffer, b""
        while True:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                return data
            data += chunk

    def half_close(self):
        """Ends what this side sends: a TCP FIN, or over TLS close_notify
        (`unwrap`: what the server answers before its own close_notify is
        not read), after which the rest reads as the end."""
        if hasattr(self.sock, "unwrap"):
            try:
                self.sock = self.sock.unwrap()
            except (OSError, ValueError):
                pass
            self.buffer = b""
        else:
            self.sock.shutdown(socket.SHUT_WR)

    def close(self):
        self.sock.close()


def parse(raw):
    """A raw reply as Python values (bytes, int, list, None, or ('error', text))."""
    value, _ = _parse(raw, 0)
    return value


def parse_all(raw):
    """Every reply in `raw`, which must be whole RESP replies and nothing else."""
    replies, position = [], 0
    while position < len(raw):
        reply, position = _parse(raw, position)
        replies.append(reply)
    if position != len(raw):
        raise AssertionError(f"a reply runs past the bytes: {raw[-80:]!r}")
    return replies


def _parse(raw, start):
    end = raw.index(b"\r\n", start)
    kind, header = raw[start:start + 1], raw[start + 1:end]
    if kind == b"+":
        return header, end + 2
    if kind == b"-":
        return ("error", header), end + 2
    if kind == b":":
        return int(header), end + 2
    if kind == b"$":
        size = int(header)
        if size < 0:
            return None, end + 2
        return raw[end + 2:end + 2 + size], end + 4 + size
    items, position = [], end + 2
    for _ in range(int(header)):
        item, position = _parse(raw, position)
        items.append(item)
    return items, position


class RedisServer:
    """Debian's redis-server on a free loopback port, without persistence,
    with one database (as kv-server has)."""

    def __init__(self, tls_folder=None):
        """`tls_folder`: also serve TLS on `tls_port`, with the test
        certificates there (server.pem, server.key, ca.pem), client
        certificates not required."""
        self.port = free_port()
        tls = []
        self.tls_port = None
        if tls_folder is not None:
            self.tls_port = free_port()
            tls = ["--tls-port", str(self.tls_port), "--tls-cert-file", f"{tls_folder}/server.pem",
                   "--tls-key-file", f"{tls_folder}/server.key", "--tls-ca-cert-file", f"{tls_folder}/ca.pem",
                   "--tls-auth-clients", "no"]
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--databases", "1", "--daemonize", "no", "--logfile", "", *tls],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                connection = RespConnection(self.port, timeout=1)
                if connection.command("PING") == b"+PONG\r\n":
                    connection.close()
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
