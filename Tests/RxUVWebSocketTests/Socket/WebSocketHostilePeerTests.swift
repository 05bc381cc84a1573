import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import RxUVWebSocket
import XCTest

/// Hostile and broken peers against RxUV's server, from a raw Python
/// socket: each gets the Close RFC 6455 (or RFC 7692) names, or the
/// handshake's refusal, and the connection closes, while the server goes
/// on serving others.
final class WebSocketHostilePeerTests: BridgeTestCase {
    private static var router: HTTPRouter {
        var router = HTTPRouter()
        router.webSocket("/echo") { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        router.webSocket("/origin", acceptsOrigin: { $0 == "https://good.example" }) { socket, _ in socket.messages.ignoreElements().asCompletable() }
        // Pings every 50 ms, waits 100 ms for each pong.
        router.webSocket("/keepalive", options: WebSocketOptions(pingInterval: .milliseconds(50), pongTimeout: .milliseconds(100))) { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        // permessage-deflate, messages of at most 64 KiB once inflated.
        router.webSocket("/deflate", options: WebSocketOptions(maxMessageLength: 65_536, compression: WebSocketCompression())) { socket, _ in
            socket.messages.concatMap { socket.send($0).asObservable() }.asCompletable()
        }
        // Closes at once and waits 200 ms for the peer's Close.
        router.webSocket("/closer", options: WebSocketOptions(closeTimeout: .milliseconds(200))) { _, _ in .empty() }
        return router
    }

    /// A raw client: the handshake by hand, then crafted frames; prints,
    /// per case, the server's first frame (a Close's code) and whether the
    /// server then closed the connection.
    private static let script = #"""
        import base64, os, socket, struct, sys, time, zlib
        port = int(sys.argv[1])

        def connect(path="/echo", extra=b""):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            key = base64.b64encode(os.urandom(16))
            s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n" + extra + b"\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = s.recv(1)
                if not chunk:
                    break
                head += chunk
            return s, head

        def masked(first, payload, length=None, mask=b"\x01\x02\x03\x04"):
            n = len(payload) if length is None else length
            if n < 126:
                header = bytes([first, 0x80 | n])
            elif n < 65536:
                header = bytes([first, 0x80 | 126]) + struct.pack("!H", n)
            else:
                header = bytes([first, 0x80 | 127]) + struct.pack("!Q", n)
            return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

        def frames(s):
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    return data, False
                if not chunk:
                    return data, True
                data += chunk

        def parse(data):
            out = []
            while len(data) >= 2:
                opcode, n = data[0] & 0x0F, data[1] & 0x7F
                at = 2
                if n == 126:
                    n, at = struct.unpack("!H", data[2:4])[0], 4
                elif n == 127:
                    n, at = struct.unpack("!Q", data[2:10])[0], 10
                out.append((opcode, data[at:at + n]))
                data = data[at + n:]
            return out

        def deflated(data):
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            out = c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)
            assert out.endswith(b"\x00\x00\xff\xff")
            return out[:-4]

        def case(name, payload, path="/echo", extra=b""):
            s, head = connect(path, extra)
            if extra:
                assert b"permessage-deflate" in head, head
            s.sendall(payload)
            data, closed = frames(s)
            parsed = parse(data)
            code = struct.unpack("!H", parsed[-1][1][:2])[0] if parsed and parsed[-1][0] == 8 else None
            print(name, code, "closed" if closed else "open")

        case("unmasked", b"\x81\x05hello")
        case("bad-utf8", masked(0x81, b"ok\xff"))
        case("bad-utf8-fragments", masked(0x01, "é".encode()[:1]) + masked(0x80, b"\x41"))
        case("length-2^63", masked(0x82, b"", length=0) [:2].replace(b"\x80", b"\xff") + struct.pack("!Q", 1 << 63) + b"\x01\x02\x03\x04")
        case("fragmented-ping", masked(0x09, b"p"))
        case("long-ping", masked(0x89, b"p" * 126))
        case("reserved-bit", masked(0xC1, b"x"))
        case("reserved-opcode", masked(0x83, b"x"))
        case("too-big", masked(0x82, b"", length=2 * 1024 * 1024)[:14])
        case("close-1005", masked(0x88, struct.pack("!H", 1005)))
        case("close-1-byte", masked(0x88, b"\x03"))
        case("continuation-first", masked(0x80, b"x"))

        # permessage-deflate's hostile messages (RFC 7692).
        offer = b"Sec-WebSocket-Extensions: permessage-deflate\r\n"
        case("deflate-bomb", masked(0xC2, deflated(bytes(64 * 1024 * 1024))), "/deflate", offer)
        case("deflate-bomb-fragments", b"".join(masked(0x42 if i == 0 else 0x00, part) for i, part in
             enumerate([deflated(bytes(1024 * 1024))[j:j + 100] for j in range(0, 1100, 100)])), "/deflate", offer)
        case("deflate-corrupt", masked(0xC1, b"\xff\xff\xff\xff"), "/deflate", offer)
        case("deflate-rsv1-ping", masked(0xC9, b"p"), "/deflate", offer)
        case("deflate-rsv1-continuation", masked(0x41, deflated(b"ab")) + masked(0xC0, b"c"), "/deflate", offer)
        case("deflate-bad-utf8", masked(0xC1, deflated(b"ok\xff")), "/deflate", offer)

        # A flood of pings is answered pong for pong, then the Close.
        s, _ = connect()
        s.sendall(b"".join(masked(0x89, struct.pack("!I", i)) for i in range(5000)) + masked(0x88, struct.pack("!H", 1000)))
        data, closed = frames(s)
        parsed = parse(data)
        pongs = [p for o, p in parsed if o == 0xA]
        print("ping-flood", len(pongs), pongs[-1] == struct.pack("!I", 4999), parsed[-1][0], "closed" if closed else "open")

        # A peer that never answers the server's Close: closed after the timeout.
        s, _ = connect("/closer")
        started = time.monotonic()
        data, closed = frames(s)
        print("no-close-answer", parse(data)[0][0], "closed" if closed else "open", time.monotonic() - started < 2)

        # A peer that answers no keep-alive ping: closed with 1011.
        s, _ = connect("/keepalive")
        started = time.monotonic()
        data, closed = frames(s)
        parsed = parse(data)
        print("no-pong", sorted(set(o for o, _ in parsed)), struct.unpack("!H", parsed[-1][1][:2])[0], "closed" if closed else "open",
              time.monotonic() - started < 2)

        # Refused handshakes.
        for name, path, extra in [("version-12", "/echo", None), ("origin-bad", "/origin", b"Origin: https://evil.example\r\n"),
                                  ("origin-good", "/origin", b"Origin: https://good.example\r\n")]:
            if extra is None:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 12\r\n\r\n")
                head = s.recv(4096)
            else:
                s, head = connect(path, extra)
            lines = head.decode().split("\r\n")
            print(name, lines[0].split(" ")[1], "Sec-WebSocket-Version: 13" in lines)
        s, _ = connect()
        s.sendall(b"GET /echo HTTP/1.1\r\nHost: x\r\nSec-WebSocket-Key: x\r\n\r\n")
        s.close()
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n")
        print("bad-key", s.recv(4096).decode().split(" ")[1])

        # The server still serves: an echo after all of that.
        s, _ = connect()
        s.sendall(masked(0x81, b"still here") + masked(0x88, struct.pack("!H", 1000)))
        data, closed = frames(s)
        print("after", [p.decode() if o == 1 else struct.unpack("!H", p[:2])[0] for o, p in parse(data)], "closed" if closed else "open")
        """#

    func testHostilePeers_EachClosedWithTheRFCsCode_OthersServed() throws {
        let output = try loop.run { [loop = loop!] in
            try await serving(Self.router, on: loop) { server in try await loop.python(Self.script, ["\(server.address.port)"]) }
        }
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init),
            [
                "unmasked 1002 closed", "bad-utf8 1007 closed", "bad-utf8-fragments 1007 closed", "length-2^63 1002 closed",
                "fragmented-ping 1002 closed", "long-ping 1002 closed", "reserved-bit 1002 closed", "reserved-opcode 1002 closed",
                "too-big 1009 closed", "close-1005 1002 closed", "close-1-byte 1002 closed", "continuation-first 1002 closed",
                "deflate-bomb 1009 closed", "deflate-bomb-fragments 1009 closed", "deflate-corrupt 1007 closed",
                "deflate-rsv1-ping 1002 closed", "deflate-rsv1-continuation 1002 closed", "deflate-bad-utf8 1007 closed",
                "ping-flood 5000 True 8 closed", "no-close-answer 8 closed True", "no-pong [8, 9] 1011 closed True",
                "version-12 426 True", "origin-bad 403 False", "origin-good 101 False", "bad-key 400",
                "after ['still here', 1000] closed",
            ], output)
    }
}
