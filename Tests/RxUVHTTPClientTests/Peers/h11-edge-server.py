"""An HTTP/1.1 server on h11 that answers with the edge cases a client
must read right: a chunked body with trailers, a body the close ends, a
1xx before the answer, 100 Continue for a body, and an idle kept-alive
connection closed by the server; and compressed bodies (gzip, deflate, a
corrupt one, a bomb) for a client that accepts them. Listens on 127.0.0.1, port 0; prints the
port, then serves until killed. One thread per connection."""
import gzip
import socket
import sys
import threading
import zlib

import h11


def handle(sock):
    conn = h11.Connection(h11.SERVER)
    answered = 0
    while True:
        request = None
        body = b""
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                if conn.they_are_waiting_for_100_continue:
                    sock.sendall(conn.send(h11.InformationalResponse(status_code=100, headers=[])))
                try:
                    # An idle kept-alive connection is closed after 100 ms.
                    sock.settimeout(0.1 if request is None and answered else 10)
                    data = sock.recv(65536)
                except socket.timeout:
                    sock.close()
                    return
                conn.receive_data(data)
                if not data and request is None:
                    sock.close()
                    return
                continue
            if isinstance(event, h11.Request):
                request = event
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                sock.close()
                return
        answered += 1
        target = request.target.decode()
        send = lambda event: sock.sendall(conn.send(event))
        if target == "/chunked-trailers":
            send(h11.Response(status_code=200, headers=[("Transfer-Encoding", "chunked"), ("Trailer", "X-Checksum")]))
            for piece in (b"one ", b"two ", b"three"):
                send(h11.Data(data=piece))
            send(h11.EndOfMessage(headers=[("X-Checksum", "abc")]))
        elif target == "/close-delimited":
            send(h11.Response(status_code=200, headers=[("Connection", "close")]))
            send(h11.Data(data=b"until the close " * 1000))
            send(h11.EndOfMessage())
            sock.close()
            return
        elif target in COMPRESSED:
            accepted = dict((n.lower(), v) for n, v in request.headers).get(b"accept-encoding", b"")
            coding, body = COMPRESSED[target]
            headers = [("Content-Length", str(len(body)))]
            if coding.encode() in accepted:
                headers.append(("Content-Encoding", coding))
            else:
                headers = [("Content-Length", str(len(PLAIN)))]
                body = PLAIN
            send(h11.Response(status_code=200, headers=headers))
            send(h11.Data(data=body))
            send(h11.EndOfMessage())
        elif target == "/early-hints":
            send(h11.InformationalResponse(status_code=103, headers=[("Link", "</a.css>; rel=preload")]))
            send(h11.Response(status_code=200, headers=[("Content-Length", "5")]))
            send(h11.Data(data=b"hints"))
            send(h11.EndOfMessage())
        else:
            # The body as received (after 100 Continue when asked), with the
            # request's framing.
            framing = "chunked" if request.headers and any(n == b"transfer-encoding" for n, _ in request.headers) else "length"
            reply = f"{request.method.decode()} {target} {framing} {len(body)} ".encode() + body[:64]
            send(h11.Response(status_code=200, headers=[("Content-Length", str(len(reply)))]))
            send(h11.Data(data=reply))
            send(h11.EndOfMessage())
        if conn.our_state is h11.MUST_CLOSE:
            sock.close()
            return
        conn.start_next_cycle()
        request = None


PLAIN = b"compressed text " * 5000
COMPRESSED = {
    "/gzip": ("gzip", gzip.compress(PLAIN)),
    "/deflate": ("deflate", zlib.compress(PLAIN)),
    "/corrupt": ("gzip", gzip.compress(PLAIN)[:40] + b"garbage" + gzip.compress(PLAIN)[47:]),
    "/bomb": ("gzip", gzip.compress(bytes(64 << 20))),
}
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)
while True:
    client, _ = listener.accept()
    threading.Thread(target=handle, args=(client,), daemon=True).start()
