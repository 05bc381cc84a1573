# A scripted HTTP/2 server (hyper-h2, cleartext with prior knowledge) for
# the client's edge cases: listens on 127.0.0.1 on a port the OS picks,
# prints it, then answers each request as its path says (below). Each
# connection runs in its own thread; the process ends when killed, or
# after 60 s. With `--max-streams N`, its SETTINGS allow N streams at once.
import socket
import sys
import threading
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings

MAX_STREAMS = int(sys.argv[sys.argv.index("--max-streams") + 1]) if "--max-streams" in sys.argv else None

# Paths that misbehave once per process, then answer.
once = {"/goaway": False, "/refuse": False}
lock = threading.Lock()


def first_time(path):
    with lock:
        if path in once and not once[path]:
            once[path] = True
            return True
        return False


def serve(sock):
    config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8", validate_outbound_headers=False)
    conn = h2.connection.H2Connection(config)
    if MAX_STREAMS is not None:
        conn.local_settings = h2.settings.Settings(client=False, initial_values={h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: MAX_STREAMS})
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    sock.settimeout(20)
    bodies = {}
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.DataReceived):
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    bodies[event.stream_id] = bodies.get(event.stream_id, b"") + event.data
                elif isinstance(event, h2.events.RequestReceived):
                    headers = dict(event.headers)
                    if event.stream_ended:
                        if not answer(sock, conn, event.stream_id, headers, b""):
                            return
                    else:
                        bodies.setdefault(event.stream_id, b"")
                        bodies[("head", event.stream_id)] = headers
                elif isinstance(event, h2.events.StreamEnded):
                    headers = bodies.pop(("head", event.stream_id), None)
                    if headers is not None:
                        if not answer(sock, conn, event.stream_id, headers, bodies.pop(event.stream_id, b"")):
                            return
            pending = conn.data_to_send()
            if pending:
                sock.sendall(pending)
    except (ConnectionResetError, BrokenPipeError, socket.timeout, h2.exceptions.ProtocolError):
        return
    finally:
        sock.close()


def respond(conn, stream, body, status="200", extra=()):
    conn.send_headers(stream, [(":status", status), ("content-length", str(len(body)))] + list(extra))
    conn.send_data(stream, body, end_stream=True)


def answer(sock, conn, stream, headers, body):
    """Answers one request; False when the connection is to end."""
    path = headers.get(":path", "/")
    if path == "/ok":
        respond(conn, stream, b"ok")
    elif path == "/echo":
        respond(conn, stream, body)
    elif path == "/goaway":
        if first_time(path):
            # Takes none of the streams: every request on this connection
            # may be sent again on another.
            conn.close_connection(error_code=h2.errors.ErrorCodes.NO_ERROR, last_stream_id=0)
            sock.sendall(conn.data_to_send())
            time.sleep(0.05)
            return False
        respond(conn, stream, b"after goaway")
    elif path == "/refuse":
        if first_time(path):
            conn.reset_stream(stream, error_code=h2.errors.ErrorCodes.REFUSED_STREAM)
        else:
            respond(conn, stream, b"after refuse " + body)
    elif path == "/big-head":
        respond(conn, stream, b"big", extra=[("x-filler-%d" % i, "f" * 1000) for i in range(64)])
    elif path == "/no-status":
        conn.send_headers(stream, [("content-length", "2")])
        conn.send_data(stream, b"no", end_stream=True)
    elif path == "/short":
        conn.send_headers(stream, [(":status", "200"), ("content-length", "10")])
        conn.send_data(stream, b"four", end_stream=True)
    elif path == "/reset-mid-body":
        conn.send_headers(stream, [(":status", "200"), ("content-length", "100")])
        conn.send_data(stream, b"part")
        conn.reset_stream(stream, error_code=h2.errors.ErrorCodes.INTERNAL_ERROR)
    elif path == "/garbage":
        sock.sendall(conn.data_to_send() + b"\x00\x00\x04\xff\xff\xff\xff\xff\xffgarbage that is no frame" * 4)
        time.sleep(0.2)
        return False
    elif path == "/silent":
        pass
    elif path == "/trailers":
        conn.send_headers(stream, [(":status", "200")])
        conn.send_data(stream, b"with trailers")
        conn.send_headers(stream, [("x-checksum", "abc")], end_stream=True)
    elif path == "/interim":
        conn.send_headers(stream, [(":status", "103"), ("link", "</style.css>; rel=preload")])
        respond(conn, stream, b"final")
    else:
        respond(conn, stream, b"not found", status="404")
    return True


def main():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    listener.settimeout(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            sock, _ = listener.accept()
        except socket.timeout:
            continue
        except OSError:
            return
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


main()
