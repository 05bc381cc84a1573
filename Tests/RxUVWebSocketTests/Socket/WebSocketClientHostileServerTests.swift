import HTTPTypes
import RxCore
import RxUV
import RxUVHTTPClient
import RxUVTestSupport
import RxUVWebSocket
import XCTest

/// RxUV's client against scripted servers that break the protocol: each
/// gets the Close (or the handshake error) RFC 6455 names, and nothing
/// is left open.
final class WebSocketClientHostileServerTests: BridgeTestCase {
    /// A raw server: per connection, the handshake answered as `argv[1]`
    /// says (`good`, `cut`: good, then its end of the connection at once,
    /// `bad-accept`, `no-upgrade`, `403`), then the bytes of the case
    /// (`argv[2]`, a Python bytes literal) sent; it prints its port, then
    /// the first byte it read after the handshake (hex) and whether the
    /// frame was masked.
    private static let server = #"""
        import base64, hashlib, socket, sys, threading, time
        mode, payload = sys.argv[1], eval(sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        print(listener.getsockname()[1], flush=True)
        conn, _ = listener.accept()
        head = b""
        while b"\r\n\r\n" not in head:
            head += conn.recv(4096)
        key = [l.split(b": ", 1)[1] for l in head.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key:")][0]
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        if mode == "403":
            conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\nno")
        else:
            upgrade = b"" if mode == "no-upgrade" else b"Upgrade: websocket\r\n"
            if mode == "bad-accept":
                accept = base64.b64encode(b"x" * 20)
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\n" + upgrade + b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n" + payload)
        if mode == "cut":
            conn.shutdown(socket.SHUT_WR)
        conn.settimeout(5)
        seen = b""
        try:
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                seen += chunk
        except socket.timeout:
            pass
        print(seen[:1].hex() or "-", (seen[1] & 0x80 == 0x80) if len(seen) > 1 else "-", flush=True)
        """#

    /// What the client saw (its messages, how `messages` ended, `closed
    /// CODE`, or the handshake's error) and what the server read from it
    /// after the handshake (a masked Close: `88 True`; nothing: `- -`).
    private func run(_ mode: String, _ payload: String, options: WebSocketOptions = WebSocketOptions()) throws -> [String] {
        try loop.run { [loop = loop!] in
            let python = try await PythonPeer.start(Self.server, [mode, payload], on: loop)
            let client = HTTPClient(loop: loop)
            var outcome: [String] = []
            do {
                let port = try await python.firstLine()
                let socket = try await client.rx.webSocket("ws://127.0.0.1:\(port)/", options: options).value
                do {
                    for try await message in socket.messages.values { outcome.append("\(message)") }
                    outcome.append("ended")
                } catch let error as WebSocketProtocolError {
                    outcome.append("failed \(error.closeCode.rawValue)")
                }
                outcome.append("closed \(try await socket.closed.value.code.rawValue)")
            } catch let error as WebSocketHandshakeError {
                outcome.append("handshake \(error.reason)")
            } catch let error as HTTPClientError {
                outcome.append("\(error.code)")
            }
            // The client's shutdown closes a kept-alive connection (a 403's).
            try await client.shutdown().value
            let rest = try await python.rest()
            await python.stop()
            return outcome + [rest.trimmingCharacters(in: .newlines)]
        }
    }

    func testHostileServers_EachRefusedAsTheRFCSays() throws {
        let rows: [(String, String, [String])] = [
            // A masked frame to a client: 1002, the client's Close masked.
            ("good", #"b"\x81\x82\x01\x02\x03\x04ij""#, ["failed 1002", "closed 1002", "88 True"]),
            // Text that is not UTF-8: 1007.
            ("good", #"b"\x81\x02o\xff""#, ["failed 1007", "closed 1007", "88 True"]),
            // A message, then the server's Close 1000: answered with 1000.
            ("good", #"b"\x81\x02hi\x88\x02\x03\xe8""#, ["text(2 bytes)", "ended", "closed 1000", "88 True"]),
            // A 2 MiB frame past the client's 1 MiB limit: 1009 from its header.
            ("good", #"b"\x82\x7f\x00\x00\x00\x00\x00\x20\x00\x00""#, ["failed 1009", "closed 1009", "88 True"]),
            // The connection cut without a Close: 1006, nothing sent.
            ("cut", #"b"\x81\x02hi""#, ["text(2 bytes)", "failed 1006", "closed 1006", "- -"]),
            ("bad-accept", #"b"""#, ["handshake Sec-WebSocket-Accept does not match the key", "- -"]),
            ("no-upgrade", #"b"""#, ["handshake the 101 has no Upgrade: websocket", "- -"]),
            ("403", #"b"""#, ["upgradeRefused", "- -"]),
        ]
        for (mode, payload, expected) in rows {
            XCTAssertEqual(try run(mode, payload), expected, "\(mode) \(payload)")
        }
    }
}
