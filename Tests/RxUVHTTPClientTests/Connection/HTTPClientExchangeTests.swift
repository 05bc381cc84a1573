import HTTPTypes
import RxUVTestSupport
import XCTest

@testable import RxUVHTTPClient

/// How an exchange frames a request's empty body: the methods that carry
/// no body send none (no `Content-Length`), the others `Content-Length: 0`.
final class HTTPClientExchangeTests: BridgeTestCase {
    func testEmptyBody_FramedByMethod() {
        let rows: [(HTTPRequest.Method, Bool)] = [
            (.get, true), (.head, true), (.delete, true), (.options, true), (.trace, true), (.connect, true),
            (.post, false), (.put, false), (.patch, false), (HTTPRequest.Method("PROPFIND")!, false),
        ]
        for (method, sendsNone) in rows {
            XCTAssertEqual(HTTPClientExchange.sendsNoBodyWhenEmpty(method), sendsNone, method.rawValue)
        }
    }
}
