import Foundation
import HTTPTypes
import RxUVTestSupport
import XCTest

@testable import RxUVWebSocket

/// The handshake's values: SHA-1 and base64 against their standards'
/// vectors, the accept value of RFC 6455's example, keys, and the client's
/// checks of a 101.
final class WebSocketHandshakeTests: BridgeTestCase {
    func testSHA1_StandardVectors() {
        let rows: [(String, String)] = [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
            (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ]
        for (text, hex) in rows {
            XCTAssertEqual(SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined(), hex, text)
        }
    }

    func testBase64_EncodesAndDecodesCanonically() {
        let rows: [(String, String)] = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in rows {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
        }
        for bad in ["Zg=", "Zh==", "Zm9=", "Z===", "Zm9v=", "Zg==Zg==", "Zm 9", "Zm9v\n", "é123"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
    }

    /// RFC 6455 §1.3's example, and keys made and checked.
    func testAcceptAndKeys() {
        XCTAssertEqual(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        var generator = SeededGenerator(seed: 7)
        let key = WebSocketHandshake.makeKey(using: &generator)
        XCTAssertTrue(WebSocketHandshake.isValidKey(key), key)
        XCTAssertNotEqual(WebSocketHandshake.makeKey(), WebSocketHandshake.makeKey())
        for bad in ["", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25jZXg=", "dGhlIHNhbXBsZSBub25jZR=="] {
            XCTAssertFalse(WebSocketHandshake.isValidKey(bad), bad)
        }
    }

    /// The client's checks of the server's 101 (RFC 6455 §4.1).
    func testClientChecksThe101() throws {
        let handshake = WebSocketClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: ["a", "b"])
        XCTAssertEqual(handshake.requestFields[.secWebSocketKey], "dGhlIHNhbXBsZSBub25jZQ==")
        XCTAssertEqual(handshake.requestFields[.secWebSocketVersion], "13")
        XCTAssertEqual(handshake.requestFields[.secWebSocketProtocol], "a, b")
        func response(_ fields: HTTPFields) -> HTTPResponse { HTTPResponse(status: .switchingProtocols, headerFields: fields) }
        let good: HTTPFields = [.upgrade: "WebSocket", .connection: "keep-alive, Upgrade", .secWebSocketAccept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]
        XCTAssertNil(try handshake.check(response(good)).subprotocol)
        var chosen = good
        chosen[.secWebSocketProtocol] = "b"
        XCTAssertEqual(try handshake.check(response(chosen)).subprotocol, "b")
        let rows: [(HTTPFields, String)] = [
            ([.connection: "Upgrade", .secWebSocketAccept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="], "the 101 has no Upgrade: websocket"),
            ([.upgrade: "websocket", .secWebSocketAccept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="], "the 101 has no Connection: Upgrade"),
            ([.upgrade: "websocket", .connection: "Upgrade", .secWebSocketAccept: "x"], "Sec-WebSocket-Accept does not match the key"),
            ([.upgrade: "websocket", .connection: "Upgrade"], "Sec-WebSocket-Accept does not match the key"),
            (
                [.upgrade: "websocket", .connection: "Upgrade", .secWebSocketAccept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", .secWebSocketProtocol: "c"],
                "Sec-WebSocket-Protocol c was not offered"
            ),
            (
                [.upgrade: "websocket", .connection: "Upgrade", .secWebSocketAccept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", .secWebSocketExtensions: "permessage-deflate"],
                "Sec-WebSocket-Extensions in the 101, though none was offered"
            ),
        ]
        for (fields, reason) in rows {
            XCTAssertThrowsError(try handshake.check(response(fields)), reason) { error in
                XCTAssertEqual((error as? WebSocketHandshakeError)?.reason, reason)
            }
        }
    }
}
