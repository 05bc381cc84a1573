#!/usr/bin/env python3
"""WebSocket broadcast and idle memory: rxuv-ws-echo's /room (every text
message to every open /room socket through one PublishSubject) with N
sockets open, against N plain kept-alive HTTP connections to the same
server.

    Benchmarks/Scripts/wsbroadcast.py                  # release build, then 10,000 sockets
    Benchmarks/Scripts/wsbroadcast.py --skip-build --count 1000

Measures, from /proc, the server's RSS growth per connection (N plain
connections, each after one GET /plain; then N WebSockets, each after its
handshake) and, once N sockets are open, one message sent on one of them:
the time until every socket has received it (the clients, on this
machine, read with select) and the server's CPU for it. Connections come
from 127.0.0.1 to one port (the kernel picks the source ports); `ulimit -n`
is raised in this process and the server's.
"""

import argparse
import os
import resource
import select
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from netbench import PACKAGE, bin_path, log, status_kib  # noqa: E402

HANDSHAKE = (b"GET /room HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def settle(pid):
    """The server's RSS once it stops moving (KiB)."""
    last = -1
    for _ in range(50):
        now = status_kib(pid, "VmRSS")
        if now == last:
            return now
        last = now
        time.sleep(0.1)
    return last


def open_all(port, count, request, answer_prefix):
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(request)
        sockets.append(s)
    for s in sockets:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                raise RuntimeError("the server closed a connection")
            data += chunk
        if not data.startswith(answer_prefix):
            raise RuntimeError(f"unexpected answer {data[:40]!r}")
        if answer_prefix == b"HTTP/1.1 200":
            # Read the small body too, so the connection is idle.
            while not data.endswith(b"ok"):
                data += s.recv(4096)
    return sockets


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--skip-build", action="store_true")
    settings = parser.parse_args()
    if not 1 <= settings.count <= 50_000:
        parser.error("--count in [1, 50000]")
    if not settings.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", PACKAGE, "--product", "rxuv-ws-echo"], check=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, settings.count + 1024)
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    if wanted < settings.count + 64:
        # As many as the hard limit allows, said so rather than failed.
        settings.count = max(1, wanted - 64)
        log(f"wsbroadcast: the descriptor limit ({hard}) allows {settings.count} connections; measuring those")
    program = os.path.join(bin_path(), "rxuv-ws-echo")

    def fresh_server():
        server = subprocess.Popen([program], stdout=subprocess.PIPE, text=True)
        return server, int(server.stdout.readline().split()[1])

    # Plain kept-alive connections, in a server of their own.
    server, port = fresh_server()
    try:
        base_plain = settle(server.pid)
        plain = open_all(port, settings.count, b"GET /plain HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"HTTP/1.1 200")
        with_plain = settle(server.pid)
        for s in plain:
            s.close()
    finally:
        server.terminate()
        server.wait()

    server, port = fresh_server()
    try:
        base = settle(server.pid)
        sockets = open_all(port, settings.count, HANDSHAKE, b"HTTP/1.1 101")
        with_ws = settle(server.pid)
        # One masked text message from the first socket, to everyone.
        payload = b"broadcast"
        mask = b"\x01\x02\x03\x04"
        frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        expected = bytes([0x81, len(payload)]) + payload
        ticks = cpu_ticks(server.pid)
        started = time.monotonic()
        sockets[0].sendall(frame)
        waiting = {s.fileno(): (s, b"") for s in sockets}
        poller = select.epoll()
        for s in sockets:
            poller.register(s.fileno(), select.EPOLLIN)
        while waiting and time.monotonic() - started < 60:
            for fd, _ in poller.poll(1):
                s, got = waiting.get(fd, (None, b""))
                if s is None:
                    continue
                got += s.recv(4096)
                if len(got) >= len(expected):
                    if got[:len(expected)] != expected:
                        raise RuntimeError(f"a different message: {got[:20]!r}")
                    del waiting[fd]
                    poller.unregister(fd)
                else:
                    waiting[fd] = (s, got)
        elapsed = time.monotonic() - started
        cpu = (cpu_ticks(server.pid) - ticks) / os.sysconf("SC_CLK_TCK")
        if waiting:
            raise RuntimeError(f"{len(waiting)} sockets did not get the message within 60 s")
        per_plain = (with_plain - base_plain) * 1024 / settings.count
        per_ws = (with_ws - base) * 1024 / settings.count
        print(f"\nWebSocket idle memory and broadcast, rxuv-ws-echo, {settings.count} connections on 127.0.0.1 (a fresh server each)")
        print(f"RSS growth per connection: plain kept-alive HTTP {per_plain:,.0f} B (+{with_plain - base_plain} KiB over {base_plain} KiB); "
              f"WebSocket {per_ws:,.0f} B (+{with_ws - base} KiB over {base} KiB): {per_ws - per_plain:+,.0f} B above a plain connection")
        print(f"broadcast of one 9-byte message to {settings.count} sockets: every socket had it after {elapsed * 1000:,.0f} ms "
              f"(the clients' reading included); server CPU {cpu * 1000:,.0f} ms ({cpu * 1e6 / settings.count:,.1f} µs a socket)")
        for s in sockets:
            s.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, subprocess.CalledProcessError) as error:
        log(f"wsbroadcast: {error}")
        sys.exit(1)
