# A scripted HTTP/2 client (hyper-h2) for RxUVHTTP2's edge cases: the
# scenario in argv[2] against 127.0.0.1:argv[1]; prints one JSON object of
# what it saw. Frames h2 will not build (a malformed frame, a CONTINUATION
# flood) are written raw. Every wait is bounded (10 s in all).
import json
import socket
import struct
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings

PORT = int(sys.argv[1])
SCENARIO = sys.argv[2]
DEADLINE = time.monotonic() + 10


def connect():
    sock = socket.create_connection(("127.0.0.1", PORT))
    sock.settimeout(10)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    return sock, conn


def request(conn, path, method="GET", body=None, extra=()):
    stream = conn.get_next_available_stream_id()
    headers = [(":method", method), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", path)] + list(extra)
    conn.send_headers(stream, headers, end_stream=body is None)
    if body is not None:
        conn.send_data(stream, body, end_stream=True)
    return stream


class Run:
    """Reads events until `done(self)` or the connection ends; keeps what
    the scenarios ask about."""

    def __init__(self, sock, conn):
        self.sock, self.conn = sock, conn
        self.status, self.body, self.ended, self.resets = {}, {}, set(), {}
        self.goaway = None
        self.closed = False
        self.window_updates = []
        self.settings = False
        self.acks = 0

    def pump(self, done, extra=None):
        while not done(self) and not self.closed and time.monotonic() < DEADLINE:
            pending = self.conn.data_to_send()
            if pending:
                self.sock.sendall(pending)
            try:
                data = self.sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                self.closed = True
                break
            if not data:
                self.closed = True
                break
            try:
                events = self.conn.receive_data(data)
            except h2.exceptions.ProtocolError:
                events = []
            for event in events:
                self.on(event)
                if extra:
                    extra(self, event)
            pending = self.conn.data_to_send()
            if pending:
                try:
                    self.sock.sendall(pending)
                except (BrokenPipeError, ConnectionResetError):
                    self.closed = True

    def on(self, event):
        if isinstance(event, h2.events.ResponseReceived):
            self.status[event.stream_id] = dict(event.headers)[":status"]
        elif isinstance(event, h2.events.DataReceived):
            self.body[event.stream_id] = self.body.get(event.stream_id, b"") + event.data
            if event.flow_controlled_length:
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            self.ended.add(event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            self.resets[event.stream_id] = int(event.error_code)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = int(event.error_code)
        elif isinstance(event, h2.events.PingAckReceived):
            self.acks += 1
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            self.settings = True
        elif isinstance(event, h2.events.WindowUpdated):
            self.window_updates.append((event.stream_id, time.monotonic()))

    def drain_until_closed(self):
        self.pump(lambda run: False)


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def concurrent():
    sock, conn = connect()
    run = Run(sock, conn)
    streams = [request(conn, "/users/%d" % i) for i in range(50)]
    run.pump(lambda r: all(s in r.ended for s in streams))
    return {"statuses": sorted(set(run.status.values())), "answered": len(run.ended),
            "bodies": sum(1 for i, s in enumerate(streams) if run.body.get(s) == ("user %d" % i).encode())}


def window():
    # The handler reads its body only after 300 ms: until then the stream's
    # window stays shut, and the client cannot send more than it.
    sock, conn = connect()
    run = Run(sock, conn)
    run.pump(lambda r: r.settings)
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/late-read")])
    total, sent = 200_000, 0
    started = time.monotonic()
    sent_before_update = None
    while stream not in run.ended and not run.closed and time.monotonic() < DEADLINE:
        room = min(conn.local_flow_control_window(stream), total - sent, conn.max_outbound_frame_size)
        if room > 0:
            conn.send_data(stream, b"x" * room, end_stream=sent + room == total)
            sent += room
            continue
        before = len([u for u in run.window_updates if u[0] == stream])
        run.pump(lambda r: len([u for u in r.window_updates if u[0] == stream]) > before or stream in r.ended)
        if sent_before_update is None and any(u[0] == stream for u in run.window_updates):
            sent_before_update = sent
    first = next((t for s, t in run.window_updates if s == stream), None)
    return {"status": run.status.get(stream), "body": run.body.get(stream, b"").decode(), "sentBeforeUpdate": sent_before_update,
            "firstUpdateAfter": None if first is None else round(first - started, 3)}


def reset():
    sock, conn = connect()
    run = Run(sock, conn)
    slow = request(conn, "/never")
    sock.sendall(conn.data_to_send())
    time.sleep(0.2)
    conn.reset_stream(slow, error_code=8)
    hello = request(conn, "/hello")
    run.pump(lambda r: hello in r.ended)
    return {"hello": run.status.get(hello), "slowAnswered": slow in run.status}


def priority():
    sock, conn = connect()
    run = Run(sock, conn)
    for stream in (101, 103, 105):
        conn.prioritize(stream, weight=200, depends_on=0, exclusive=False)
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "GET"), (":scheme", "http"), (":authority", "x"), (":path", "/hello")], end_stream=True,
                      priority_weight=32, priority_depends_on=0)
    run.pump(lambda r: stream in r.ended)
    return {"status": run.status.get(stream), "body": run.body.get(stream, b"").decode()}


def malformed():
    sock, conn = connect()
    run = Run(sock, conn)
    # DATA on stream 0 is a connection error (RFC 9113 §6.1).
    sock.sendall(frame(0x0, 0x0, 0, b"oops"))
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def rapid_reset():
    sock, conn = connect()
    run = Run(sock, conn)
    try:
        for batch in range(30):
            for _ in range(100):
                stream = request(conn, "/never")
                conn.reset_stream(stream, error_code=8)
            sock.sendall(conn.data_to_send())
    except (BrokenPipeError, ConnectionResetError):
        pass
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def ping_flood():
    # PINGs at a pace whose acknowledgements the client reads: the
    # server's own budget ends it.
    sock, conn = connect()
    run = Run(sock, conn)
    try:
        for batch in range(50):
            for i in range(100):
                conn.ping(struct.pack(">Q", batch * 100 + i))
            sock.sendall(conn.data_to_send())
            sent = (batch + 1) * 100
            run.pump(lambda r: r.acks >= sent or r.goaway is not None)
            if run.goaway is not None or run.closed:
                break
    except (BrokenPipeError, ConnectionResetError):
        pass
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def too_many_acks():
    # 5,000 PINGs at once from a client that reads nothing meanwhile:
    # nghttp2's bound on unsent acknowledgements ends it.
    sock, conn = connect()
    run = Run(sock, conn)
    try:
        for i in range(5000):
            conn.ping(struct.pack(">Q", i))
        sock.sendall(conn.data_to_send())
    except (BrokenPipeError, ConnectionResetError):
        pass
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def settings_flood():
    sock, conn = connect()
    run = Run(sock, conn)
    try:
        sock.sendall(b"".join(frame(0x4, 0x0, 0) for _ in range(5000)))
    except (BrokenPipeError, ConnectionResetError):
        pass
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def continuation_flood():
    sock, conn = connect()
    run = Run(sock, conn)
    encoder = conn.encoder
    block = encoder.encode([(":method", "GET"), (":scheme", "http"), (":authority", "x"), (":path", "/hello")])
    # HEADERS without END_HEADERS, then CONTINUATIONs that never end it.
    try:
        sock.sendall(frame(0x1, 0x1, 1, block))
        filler = encoder.encode([("x-filler", "y" * 10)])
        sock.sendall(b"".join(frame(0x9, 0x0, 1, filler) for _ in range(1000)))
    except (BrokenPipeError, ConnectionResetError):
        pass
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed}


def big_head():
    sock, conn = connect()
    run = Run(sock, conn)
    stream = request(conn, "/hello", extra=[("x-big-%d" % i, "v" * 500) for i in range(20)])
    after = request(conn, "/hello")
    run.pump(lambda r: stream in r.ended and after in r.ended)
    return {"status": run.status.get(stream), "next": run.status.get(after)}


def too_many_streams():
    # Sent before the server's SETTINGS arrive, so h2 does not hold them back.
    sock, conn = connect()
    run = Run(sock, conn)
    streams = [request(conn, "/late") for _ in range(6)]
    run.pump(lambda r: all(s in r.ended or s in r.resets for s in streams))
    return {"answered": sum(1 for s in streams if run.status.get(s) == "200"),
            "refused": sum(1 for s in streams if run.resets.get(s) == 7)}


def idle():
    sock, conn = connect()
    run = Run(sock, conn)
    stream = request(conn, "/hello")
    run.pump(lambda r: stream in r.ended)
    started = time.monotonic()
    run.drain_until_closed()
    return {"status": run.status.get(stream), "goaway": run.goaway, "closed": run.closed,
            "after": round(time.monotonic() - started, 2)}


def slow_head():
    # A header block begun and never finished (slowloris).
    # The SETTINGS are exchanged first: nothing may follow the block's
    # HEADERS but its CONTINUATION, so the client then sends nothing.
    sock, conn = connect()
    run = Run(sock, conn)
    run.pump(lambda r: r.settings)
    sock.sendall(conn.data_to_send())
    block = conn.encoder.encode([(":method", "GET"), (":scheme", "http"), (":authority", "x"), (":path", "/hello")])
    sock.sendall(frame(0x1, 0x1, 1, block))
    started = time.monotonic()
    while time.monotonic() < DEADLINE:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            run.closed = True
            break
        if not data:
            run.closed = True
            break
        for event in conn.receive_data(data):
            run.on(event)
    return {"goaway": run.goaway, "closed": run.closed, "after": round(time.monotonic() - started, 2)}


def silent():
    # The preface and nothing more.
    sock, conn = connect()
    run = Run(sock, conn)
    started = time.monotonic()
    run.drain_until_closed()
    return {"goaway": run.goaway, "closed": run.closed, "after": round(time.monotonic() - started, 2)}


def unread_body(total):
    # POST to /ignore, whose handler answers without reading: the body is
    # dropped; past the server's bound the request is asked to stop.
    sock, conn = connect()
    run = Run(sock, conn)
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/ignore"),
                               ("content-length", str(total))])
    sent = 0
    while stream not in run.resets and not run.closed and time.monotonic() < DEADLINE and sent < total:
        room = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size, total - sent)
        if room > 0:
            conn.send_data(stream, b"q" * room, end_stream=sent + room == total)
            sent += room
        else:
            run.pump(lambda r: r.conn.local_flow_control_window(stream) > 0 or stream in r.resets)
    run.pump(lambda r: (stream in r.ended and (sent == total or stream in r.resets)) or stream in r.resets)
    return {"status": run.status.get(stream), "reset": run.resets.get(stream), "sentAll": sent == total}


def slow_reader():
    # GET /endless and read for a second without giving any window back:
    # the server can send no more than the stream's window.
    sock, conn = connect()
    stream = request(conn, "/endless")
    sock.sendall(conn.data_to_send())
    sock.settimeout(0.2)
    received, status, started = 0, None, time.monotonic()
    while time.monotonic() - started < 1.0:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers)[":status"]
            elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream:
                received += len(event.data)
        # SETTINGS and PING acknowledgements only: no WINDOW_UPDATE.
        pending = conn.data_to_send()
        if pending:
            sock.sendall(pending)
    return {"status": status, "received": received}


def too_large_body():
    sock, conn = connect()
    run = Run(sock, conn)
    declared = conn.get_next_available_stream_id()
    conn.send_headers(declared, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/echo"),
                                 ("content-length", "999999999")])
    run.pump(lambda r: declared in r.ended or declared in r.resets)
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/echo")])
    sent = 0
    while stream not in run.ended and stream not in run.resets and not run.closed and time.monotonic() < DEADLINE and sent < 300_000:
        room = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size, 300_000 - sent)
        if room > 0:
            try:
                conn.send_data(stream, b"y" * room)
            except h2.exceptions.StreamClosedError:
                break
            sent += room
        else:
            run.pump(lambda r: r.conn.local_flow_control_window(stream) > 0 or stream in r.ended or stream in r.resets)
    run.pump(lambda r: stream in r.ended or stream in r.resets)
    return {"declared": run.status.get(declared), "streamed": run.status.get(stream)}


def trailers():
    # A request with trailers after its body; the answer's trailers say
    # what the server read of them.
    sock, conn = connect()
    run = Run(sock, conn)
    trailers = {}

    def on_trailers(r, event):
        if isinstance(event, h2.events.TrailersReceived):
            trailers.update(dict(event.headers))
    stream = conn.get_next_available_stream_id()
    conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", "/trailers")])
    conn.send_data(stream, b"abc")
    conn.send_headers(stream, [("x-sum", "3")], end_stream=True)
    run.pump(lambda r: stream in r.ended, on_trailers)
    return {"status": run.status.get(stream), "body": run.body.get(stream, b"").decode(), "trailers": trailers}


SCENARIOS = {
    "concurrent": concurrent, "window": window, "reset": reset, "priority": priority, "malformed": malformed,
    "rapid-reset": rapid_reset, "ping-flood": ping_flood, "too-many-acks": too_many_acks, "settings-flood": settings_flood,
    "continuation-flood": continuation_flood, "big-head": big_head, "too-many-streams": too_many_streams,
    "idle": idle, "slow-reader": slow_reader, "unread": lambda: unread_body(500_000), "slow-head": slow_head, "silent": silent, "too-large-body": too_large_body,
    "trailers": trailers,
}

print(json.dumps(SCENARIOS[SCENARIO](), sort_keys=True))
