import RxUVTestSupport
import XCTest

@testable import RxUVWebSocket

/// `Sec-WebSocket-Extensions` members read as permessage-deflate (RFC 7692
/// §7.1): each valid one written back in the header's form, each invalid
/// one refused.
final class WebSocketDeflateParametersTests: BridgeTestCase {
    func testParsing_ValidMembers_WrittenBack() {
        let table: [(member: String, isOffer: Bool, written: String)] = [
            ("permessage-deflate", true, "permessage-deflate"),
            ("Permessage-Deflate", false, "permessage-deflate"),
            ("permessage-deflate; client_max_window_bits", true, "permessage-deflate; client_max_window_bits"),
            ("permessage-deflate;client_max_window_bits=9", true, "permessage-deflate; client_max_window_bits=9"),
            ("permessage-deflate; server_max_window_bits=\"10\"", false, "permessage-deflate; server_max_window_bits=10"),
            (
                "permessage-deflate ; server_no_context_takeover ;\tclient_no_context_takeover; server_max_window_bits=8; client_max_window_bits=15",
                false, "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=8; client_max_window_bits"
            ),
        ]
        for row in table {
            let parsed = WebSocketDeflateParameters(parsing: row.member, isOffer: row.isOffer)
            XCTAssertEqual(parsed?.description, row.written, row.member)
        }
        XCTAssertEqual(
            WebSocketDeflateParameters(parsing: "permessage-deflate; server_no_context_takeover; server_max_window_bits=10", isOffer: false),
            WebSocketDeflateParameters(serverNoContextTakeover: true, serverMaxWindowBits: 10))
    }

    func testParsing_InvalidMembers_Refused() {
        let table: [(member: String, isOffer: Bool)] = [
            ("x-webkit-deflate-frame", true),
            ("permessage-deflate; unknown_parameter", true),
            ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", true),
            ("permessage-deflate; server_no_context_takeover=1", true),
            ("permessage-deflate; client_no_context_takeover=", true),
            ("permessage-deflate; server_max_window_bits", true),
            ("permessage-deflate; server_max_window_bits=7", true),
            ("permessage-deflate; server_max_window_bits=16", true),
            ("permessage-deflate; server_max_window_bits=08", true),
            ("permessage-deflate; server_max_window_bits=1a", true),
            ("permessage-deflate; server_max_window_bits=\"10", true),
            ("permessage-deflate; server_max_window_bits=+9", true),
            ("permessage-deflate; client_max_window_bits=", true),
            ("permessage-deflate; client_max_window_bits", false),
            ("permessage-deflate; ; client_max_window_bits", true),
        ]
        for row in table {
            XCTAssertNil(WebSocketDeflateParameters(parsing: row.member, isOffer: row.isOffer), row.member)
        }
    }
}
