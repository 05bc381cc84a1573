import HTTPTypes
import RxUVTestSupport
import XCTest

@testable import RxUVWebSocket

/// permessage-deflate's negotiation (RFC 7692 §7.1): the server's answer
/// to each kind of offer, the client's offers, and its checks of answers.
final class WebSocketCompressionTests: BridgeTestCase {
    func testServer_AnswersTheFirstOfferItCanAccept() {
        let server = WebSocketCompression()
        let small = WebSocketCompression(maxWindowBits: 9, peerMaxWindowBits: 15, noContextTakeover: true, peerNoContextTakeover: true)
        let table: [(compression: WebSocketCompression, offers: [String], answer: String?)] = [
            (server, [], nil),
            (server, ["x-webkit-deflate-frame"], nil),
            (server, ["permessage-deflate; bogus", "permessage-deflate; server_max_window_bits=99"], nil),
            // Chromium's and Firefox's offer.
            (server, ["permessage-deflate; client_max_window_bits"], "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"),
            // No client_max_window_bits offered: none may be answered.
            (server, ["permessage-deflate"], "permessage-deflate; server_max_window_bits=12"),
            // Asked smaller than this side's window, or larger.
            (
                server, ["permessage-deflate; server_max_window_bits=10; client_max_window_bits=9"],
                "permessage-deflate; server_max_window_bits=10; client_max_window_bits=9"
            ),
            (server, ["permessage-deflate; server_max_window_bits=15"], "permessage-deflate; server_max_window_bits=12"),
            // A window of 8 is answered (the server then sends uncompressed).
            (server, ["permessage-deflate; server_max_window_bits=8"], "permessage-deflate; server_max_window_bits=8"),
            (
                server, ["permessage-deflate; server_no_context_takeover; client_no_context_takeover"],
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=12"
            ),
            // The first malformed offer is skipped for the next.
            (server, ["permessage-deflate; x=1", "permessage-deflate"], "permessage-deflate; server_max_window_bits=12"),
            (
                small, ["permessage-deflate; client_max_window_bits"],
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9"
            ),
            (WebSocketCompression(maxWindowBits: 15, peerMaxWindowBits: 15), ["permessage-deflate; client_max_window_bits"], "permessage-deflate"),
        ]
        for row in table {
            XCTAssertEqual(row.compression.accept(row.offers)?.description, row.answer, "\(row.offers)")
        }
    }

    func testClient_Offers() {
        XCTAssertEqual(
            WebSocketCompression().offers.map(\.description),
            ["permessage-deflate; server_max_window_bits=12; client_max_window_bits=12", "permessage-deflate; client_max_window_bits=12"])
        XCTAssertEqual(
            WebSocketCompression(maxWindowBits: 15, peerMaxWindowBits: 15, noContextTakeover: true, peerNoContextTakeover: true).offers.map(\.description),
            ["permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits"])
        let handshake = WebSocketClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: [], compression: WebSocketCompression())
        XCTAssertEqual(
            handshake.requestFields[.secWebSocketExtensions],
            "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12, permessage-deflate; client_max_window_bits=12")
    }

    func testClient_ChecksTheAnswer() {
        let client = WebSocketCompression()
        let table: [(answer: [String], agreed: String?, refused: String?)] = [
            ([], nil, nil),
            (["permessage-deflate"], "permessage-deflate", nil),
            (
                ["permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9"],
                "permessage-deflate; server_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9", nil
            ),
            (["permessage-deflate; server_max_window_bits=15"], "permessage-deflate; server_max_window_bits=15", nil),
            (["permessage-deflate; client_max_window_bits=13"], nil, "client_max_window_bits=13 is more than the 12 offered"),
            (["permessage-deflate; client_max_window_bits"], nil, "is not a permessage-deflate answer"),
            (["x-webkit-deflate-frame"], nil, "is not a permessage-deflate answer"),
            (["permessage-deflate", "permessage-deflate"], nil, "names 2 extensions"),
        ]
        for row in table {
            do {
                let agreed = try client.agreement(row.answer, status: .switchingProtocols)
                XCTAssertNil(row.refused, "\(row.answer)")
                XCTAssertEqual(agreed?.description, row.agreed, "\(row.answer)")
            } catch {
                XCTAssertTrue(error.reason.contains(row.refused ?? "no refusal"), "\(row.answer): \(error)")
            }
        }
        // An answer when none was offered is refused by the handshake.
        let plain = WebSocketClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: [])
        var response = HTTPResponse(status: .switchingProtocols)
        response.headerFields = [
            .upgrade: "websocket", .connection: "Upgrade", .secWebSocketAccept: WebSocketHandshake.accept(forKey: plain.key),
            .secWebSocketExtensions: "permessage-deflate",
        ]
        XCTAssertThrowsError(try plain.check(response))
        let offered = WebSocketClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==", subprotocols: [], compression: client)
        XCTAssertEqual(try offered.check(response).compression, WebSocketDeflateParameters())
    }
}
