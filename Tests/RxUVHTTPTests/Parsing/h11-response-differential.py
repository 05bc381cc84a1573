#!/usr/bin/env python3
"""The corpus of the HTTP/1.1 response differential: responses, valid and
malformed, each with h11's verdict as a client that sent one request with the
case's method, then saw the bytes and the end of the input. Prints one JSON
object per line:

  {"name": ..., "method": ..., "data": base64, "h11": "accept",
   "informational": [100, ...], "status": 200, "reason": ...,
   "headers": [[lower-case name, value], ...], "body": base64}
  {"name": ..., "method": ..., "data": base64, "h11": "reject", "error": ...}
  {"name": ..., "method": ..., "data": base64, "h11": "incomplete"}

Only the first final response of each case counts (after its interim 1xx
ones). The random mutations are seeded, so every run checks the same corpus.
A sibling of h11-differential.py, which does the same for requests."""

import base64
import json
import random
import sys

import h11

BASES = {
    "ok-length": ("GET", b"HTTP/1.1 200 OK\r\nServer: test\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world"),
    "ok-chunked": ("GET", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n"),
    "chunked-trailers": ("POST", b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Checksum: 42\r\n\r\n"),
    "until-close": ("GET", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>the close ends it</html>"),
    "http10": ("GET", b"HTTP/1.0 200 OK\r\nServer: old\r\n\r\nold body"),
    "http10-length": ("GET", b"HTTP/1.0 404 Not Found\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\nnot"),
    "head": ("HEAD", b"HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nETag: \"abc\"\r\n\r\n"),
    "head-chunked": ("HEAD", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
    "no-content": ("DELETE", b"HTTP/1.1 204 No Content\r\nX-Request-Id: 7\r\n\r\n"),
    "not-modified": ("GET", b"HTTP/1.1 304 Not Modified\r\nETag: \"abc\"\r\nContent-Length: 99\r\n\r\n"),
    "continue": ("PUT", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"),
    "early-hints": ("GET", b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
    "empty-reason": ("GET", b"HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nok"),
    "no-reason": ("GET", b"HTTP/1.1 500\r\nContent-Length: 2\r\n\r\nno"),
    "empty-value": ("GET", b"HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Spaces:   padded   \r\nContent-Length: 0\r\n\r\n"),
    "obs-text": ("GET", b"HTTP/1.1 200 Caf\xe9\r\nX-Latin: caf\xe9\r\nContent-Length: 0\r\n\r\n"),
    "bare-lf": ("GET", b"HTTP/1.1 200 OK\nX: y\nContent-Length: 1\n\nz"),
    "close": ("GET", b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbye!"),
    "redirect": ("GET", b"HTTP/1.1 301 Moved Permanently\r\nLocation: https://example.com/\r\nContent-Length: 0\r\n\r\n"),
}

MUTATIONS = {
    "space-before-colon": lambda r: r.replace(b"\r\n\r\n", b"\r\nX-Bad : a\r\n\r\n", 1),
    "obs-fold": lambda r: r.replace(b"\r\n\r\n", b"\r\nX-Folded: a\r\n b\r\n\r\n", 1),
    "bare-cr-in-value": lambda r: r.replace(b"\r\n\r\n", b"\r\nX-CR: a\rb\r\n\r\n", 1),
    "nul-in-value": lambda r: r.replace(b"\r\n\r\n", b"\r\nX-Nul: a\x00\r\n\r\n", 1),
    "duplicate-cl-same": lambda r: r.replace(b"Content-Length: ", b"Content-Length: 11\r\nContent-Length: ", 1),
    "cl-twice": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", 1),
    "cl-differ": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n", 1),
    "cl-list": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0, 0\r\n\r\n", 1),
    "cl-list-differ": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 0, 1\r\n\r\n", 1),
    "cl-and-te": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 1),
    "te-gzip": lambda r: r.replace(b"\r\n\r\n", b"\r\nTransfer-Encoding: gzip\r\n\r\n", 1),
    "te-gzip-chunked": lambda r: r.replace(b"\r\n\r\n", b"\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 1),
    "te-chunked-gzip": lambda r: r.replace(b"Transfer-Encoding: chunked", b"Transfer-Encoding: chunked, gzip", 1),
    "cl-plus": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: +0\r\n\r\n", 1),
    "cl-negative": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: -1\r\n\r\n", 1),
    "cl-huge": lambda r: r.replace(b"\r\n\r\n", b"\r\nContent-Length: 99999999999999999999999\r\n\r\n", 1),
    "cl-short": lambda r: r.replace(b"Content-Length: 11", b"Content-Length: 12", 1),
    "cl-long": lambda r: r.replace(b"Content-Length: 11", b"Content-Length: 5", 1),
    "http2-version": lambda r: r.replace(b"HTTP/1.1", b"HTTP/2.0", 1).replace(b"HTTP/1.0", b"HTTP/2.0", 1),
    "http12-version": lambda r: r.replace(b"HTTP/1.1", b"HTTP/1.2", 1),
    "lowercase-version": lambda r: r.replace(b"HTTP/1.", b"http/1.", 1),
    "double-space": lambda r: r.replace(b" ", b"  ", 1),
    "tab-separator": lambda r: r.replace(b" ", b"\t", 1),
    "two-digit-status": lambda r: r[:9] + r[10:],
    "four-digit-status": lambda r: r[:9] + b"2" + r[9:],
    "status-600": lambda r: r[:9] + b"6" + r[10:],
    "status-099": lambda r: r[:9] + b"09" + r[11:],
    "leading-crlf": lambda r: b"\r\n" + r,
    "control-in-reason": lambda r: r.replace(b"\r\n", b"\x01\r\n", 1),
    "space-in-name": lambda r: r.replace(b"\r\n\r\n", b"\r\nBad Name: x\r\n\r\n", 1),
    "empty-name": lambda r: r.replace(b"\r\n\r\n", b"\r\n: x\r\n\r\n", 1),
    "no-colon": lambda r: r.replace(b"\r\n\r\n", b"\r\nNoColon\r\n\r\n", 1),
    "lf-only": lambda r: r.replace(b"\r\n", b"\n"),
    "chunk-size-huge": lambda r: r.replace(b"\r\n5\r\n", b"\r\n10000000000000000\r\n", 1),
    "chunk-size-bad": lambda r: r.replace(b"\r\n5\r\n", b"\r\nzz\r\n", 1),
    "chunk-no-crlf": lambda r: r.replace(b"hello\r\n", b"helloXY", 1),
    "chunk-ext-bad": lambda r: r.replace(b"6;ext=1", b"6;ext=\x01", 1),
    "last-chunk-missing": lambda r: r.replace(b"0\r\n\r\n", b"", 1),
    "te-http10": lambda r: r.replace(b"HTTP/1.1", b"HTTP/1.0", 1),
    "truncated": lambda r: r[:-3],
    "truncated-head": lambda r: r[:r.index(b"\r\n") + 4] if b"\r\n" in r else r,
}


def h11_verdict(method, data):
    connection = h11.Connection(h11.CLIENT)
    connection.send(h11.Request(method=method, target="/", headers=[("Host", "example.com")]))
    connection.send(h11.EndOfMessage())
    connection.receive_data(data)
    connection.receive_data(b"")
    result = None
    informational = []
    body = b""
    try:
        while True:
            event = connection.next_event()
            if isinstance(event, h11.InformationalResponse):
                informational.append(event.status_code)
            elif isinstance(event, h11.Response):
                raw = event.headers.raw_items()
                result = {"h11": "accept", "informational": informational, "status": event.status_code,
                          "reason": event.reason.decode("latin-1"),
                          "headers": [[name.decode().lower(), value.decode("latin-1")] for name, value in raw]}
            elif isinstance(event, h11.Data):
                body += bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                result["body"] = base64.b64encode(body).decode()
                return result
            else:
                return {"h11": "incomplete"}
    except h11.RemoteProtocolError as error:
        return {"h11": "reject", "error": str(error)}


def cases():
    for name, (method, base) in BASES.items():
        yield name, method, base
        for mutation, mutate in MUTATIONS.items():
            mutated = mutate(base)
            if mutated != base:
                yield f"{name}/{mutation}", method, mutated
    generator = random.Random(9112)
    bases = list(BASES.items())
    for index in range(3000):
        name, (method, base) = generator.choice(bases)
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
        yield f"{name}/random-{index}", method, bytes(data)


def main():
    out = sys.stdout
    for name, method, data in cases():
        verdict = h11_verdict(method, data)
        verdict["name"] = name
        verdict["method"] = method
        verdict["data"] = base64.b64encode(data).decode()
        out.write(json.dumps(verdict) + "\n")


if __name__ == "__main__":
    main()
