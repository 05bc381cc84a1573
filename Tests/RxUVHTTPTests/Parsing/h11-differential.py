#!/usr/bin/env python3
"""The corpus of the HTTP/1.1 differential: requests, valid and malformed, each
with h11's verdict. Prints one JSON object per line:

  {"name": ..., "data": base64, "h11": "accept", "method": ..., "target": ...,
   "host": ..., "headers": [[lower-case name, value], ...], "body": base64}
  {"name": ..., "data": base64, "h11": "reject", "status": 400}
  {"name": ..., "data": base64, "h11": "incomplete"}

Only the first request of each case counts. The random mutations are seeded,
so every run checks the same corpus."""

import base64
import json
import random
import sys

import h11

BASES = {
    "get": b"GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: rxuv-test\r\nAccept: */*\r\n\r\n",
    "post-length": b"POST /submit HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world",
    "post-chunked": b"POST /upload HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
    "chunked-trailers": b"POST /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Checksum: 42\r\n\r\n",
    "http10": b"GET / HTTP/1.0\r\nUser-Agent: old\r\n\r\n",
    "http10-keepalive": b"GET /a HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n",
    "options": b"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
    "absolute": b"GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "empty-value": b"GET / HTTP/1.1\r\nHost: h\r\nX-Empty:\r\nX-Spaces:   padded   \r\n\r\n",
    "obs-text": b"GET / HTTP/1.1\r\nHost: h\r\nX-Latin: caf\xe9\r\n\r\n",
    "expect": b"PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc",
    "bare-lf": b"GET / HTTP/1.1\nHost: h\nX: y\n\n",
}

MUTATIONS = {
    "space-before-colon": lambda r: r.replace(b"Host:", b"Host :", 1),
    "obs-fold": lambda r: r.replace(b"\r\n\r\n", b"\r\nX-Folded: a\r\n b\r\n\r\n", 1),
    "bare-cr-in-value": lambda r: r.replace(b"Host: ", b"Host: a\rb", 1),
    "nul-in-value": lambda r: r.replace(b"Host: ", b"Host: a\x00", 1),
    "duplicate-cl-same": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", 1),
    "duplicate-cl-differ": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n", 1),
    "cl-list": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0, 0\r\n\r\n", 1),
    "cl-and-te": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 1),
    "te-gzip": lambda r: r.replace(b"\r\n\r\n", b"\r\nTransfer-Encoding: gzip\r\n\r\n", 1),
    "te-gzip-chunked": lambda r: r.replace(b"\r\n\r\n", b"\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 1),
    "cl-plus": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: +0\r\n\r\n", 1),
    "cl-negative": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: -1\r\n\r\n", 1),
    "cl-hex": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0x10\r\n\r\n", 1),
    "cl-huge": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 99999999999999999999999\r\n\r\n", 1),
    "no-host": lambda r: r.replace(b"Host: ", b"X-Host: ", 1),
    "two-hosts": lambda r: r.replace(b"\r\n\r\n", b"\r\nHost: other\r\n\r\n", 1),
    "http2-version": lambda r: r.replace(b"HTTP/1.1", b"HTTP/2.0", 1).replace(b"HTTP/1.0", b"HTTP/2.0", 1),
    "http12-version": lambda r: r.replace(b"HTTP/1.1", b"HTTP/1.2", 1),
    "lowercase-version": lambda r: r.replace(b"HTTP/1.", b"http/1.", 1),
    "double-space": lambda r: r.replace(b" ", b"  ", 1),
    "trailing-space": lambda r: r.replace(b" HTTP/1.1\r\n", b" HTTP/1.1 \r\n", 1),
    "tab-separator": lambda r: r.replace(b" ", b"\t", 1),
    "leading-crlf": lambda r: b"\r\n" + r,
    "control-in-target": lambda r: r.replace(b" /", b" /\x7f", 1),
    "space-in-name": lambda r: r.replace(b"\r\n\r\n", b"\r\nBad Name: x\r\n\r\n", 1),
    "empty-name": lambda r: r.replace(b"\r\n\r\n", b"\r\n: x\r\n\r\n", 1),
    "no-colon": lambda r: r.replace(b"\r\n\r\n", b"\r\nNoColon\r\n\r\n", 1),
    "lf-only": lambda r: r.replace(b"\r\n", b"\n"),
    "chunk-size-huge": lambda r: r.replace(b"\r\n5\r\n", b"\r\n10000000000000000\r\n", 1),
    "chunk-size-2^63": lambda r: r.replace(b"\r\n5\r\n", b"\r\n8000000000000000\r\n", 1),
    "chunk-size-bad": lambda r: r.replace(b"\r\n5\r\n", b"\r\nzz\r\n", 1),
    "chunk-size-space": lambda r: r.replace(b"\r\n5\r\n", b"\r\n 5\r\n", 1),
    "chunk-no-crlf": lambda r: r.replace(b"hello\r\n", b"helloXY", 1),
    "chunk-ext-bad": lambda r: r.replace(b"6;ext=1", b"6;ext=\x01", 1),
    "te-http10": lambda r: r.replace(b"HTTP/1.1", b"HTTP/1.0", 1),
    "connection-close": lambda r: r.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1),
}


def h11_verdict(data):
    connection = h11.Connection(h11.SERVER)
    connection.receive_data(data)
    connection.receive_data(b"")
    result = None
    body = b""
    try:
        while True:
            event = connection.next_event()
            if isinstance(event, h11.Request):
                raw = event.headers.raw_items()
                host = [value for name, value in raw if name.lower() == b"host"]
                result = {"h11": "accept", "method": event.method.decode(), "target": event.target.decode("latin-1"),
                          "host": host[0].decode("latin-1") if host else None,
                          "headers": [[name.decode().lower(), value.decode("latin-1")] for name, value in raw
                                      if name.lower() != b"host"]}
            elif isinstance(event, h11.Data):
                body += bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                result["body"] = base64.b64encode(body).decode()
                return result
            elif event is h11.NEED_DATA or isinstance(event, h11.ConnectionClosed):
                return {"h11": "incomplete"}
            else:
                return {"h11": "incomplete"}
    except h11.RemoteProtocolError as error:
        return {"h11": "reject", "status": error.error_status_hint}


def cases():
    for name, base in BASES.items():
        yield name, base
        for mutation, mutate in MUTATIONS.items():
            mutated = mutate(base)
            if mutated != base:
                yield f"{name}/{mutation}", mutated
    generator = random.Random(9112)
    bases = list(BASES.items())
    for index in range(3000):
        name, base = generator.choice(bases)
        data = bytearray(base)
        for _ in range(generator.randint(1, 3)):
            position = generator.randrange(len(data))
            choice = generator.random()
            if choice < 0.4:
                data[position] = generator.choice(b"\r\n \t:\x00\x7f\x80;,0123456789abcdefXYZ")
            elif choice < 0.7:
                del data[position]
            else:
                data.insert(position, generator.choice(b"\r\n \t:\x00;,0a"))
        yield f"{name}/random-{index}", bytes(data)


def main():
    out = sys.stdout
    for name, data in cases():
        verdict = h11_verdict(data)
        verdict["name"] = name
        verdict["data"] = base64.b64encode(data).decode()
        out.write(json.dumps(verdict) + "\n")


if __name__ == "__main__":
    main()
