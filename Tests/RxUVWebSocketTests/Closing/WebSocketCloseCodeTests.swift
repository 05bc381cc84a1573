import RxUVTestSupport
import RxUVWebSocket
import XCTest

final class WebSocketCloseCodeTests: BridgeTestCase {
    /// Which codes a peer may send, over every code from 0 to 5100 and the
    /// largest: 1000–1003, 1007–1014, 3000–4999, nothing else.
    func testCloseCode_ValidReceivedCodes() {
        let valid: [ClosedRange<UInt16>] = [1000...1003, 1007...1014, 3000...4999]
        for raw in Array(UInt16(0)...5100) + [UInt16.max] {
            let code = WebSocketCloseCode(raw)
            let expected = valid.contains { $0.contains(raw) }
            XCTAssertEqual(code.isValidReceived, expected, "\(raw)")
            XCTAssertEqual(code.isSendable, expected, "\(raw)")
        }
    }

    /// The named codes, their numbers and descriptions.
    func testCloseCode_NamedCodes() {
        let table: [(WebSocketCloseCode, UInt16, String)] = [
            (.normalClosure, 1000, "1000 normalClosure"), (.goingAway, 1001, "1001 goingAway"), (.protocolError, 1002, "1002 protocolError"),
            (.unsupportedData, 1003, "1003 unsupportedData"), (.noStatusReceived, 1005, "1005 noStatusReceived"),
            (.abnormalClosure, 1006, "1006 abnormalClosure"), (.invalidFramePayloadData, 1007, "1007 invalidFramePayloadData"),
            (.policyViolation, 1008, "1008 policyViolation"), (.messageTooBig, 1009, "1009 messageTooBig"),
            (.mandatoryExtension, 1010, "1010 mandatoryExtension"), (.internalError, 1011, "1011 internalError"),
            (.serviceRestart, 1012, "1012 serviceRestart"), (.tryAgainLater, 1013, "1013 tryAgainLater"), (.badGateway, 1014, "1014 badGateway"),
            (.tlsHandshakeFailure, 1015, "1015 tlsHandshakeFailure"), (WebSocketCloseCode(4000), 4000, "4000"),
        ]
        for (code, raw, description) in table {
            XCTAssertEqual(code.rawValue, raw)
            XCTAssertEqual(code, WebSocketCloseCode(rawValue: raw))
            XCTAssertEqual(code.description, description)
        }
        for neverSent in [WebSocketCloseCode.noStatusReceived, .abnormalClosure, .tlsHandshakeFailure] {
            XCTAssertFalse(neverSent.isSendable, "\(neverSent)")
        }
    }

    func testProtocolError_AndClose_Descriptions() {
        XCTAssertEqual(WebSocketProtocolError(closeCode: .protocolError, reason: "why").description, "1002 protocolError: why")
        XCTAssertEqual(WebSocketClose(code: .normalClosure, reason: "bye").description, "1000 normalClosure \"bye\"")
        XCTAssertEqual(WebSocketClose(code: .noStatusReceived).description, "1005 noStatusReceived")
    }
}
