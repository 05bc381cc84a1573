import HTTPTypes
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// `HTTPServerResponse.status` is `head.status`, read when the head is set,
/// however the head is changed; copies change apart.
final class HTTPServerResponseTests: BridgeTestCase {
    func testStatus_FollowsTheHead() {
        var response = HTTPServerResponse.text("gone", status: .gone)
        XCTAssertEqual(response.status, .gone)
        response.head.status = .notFound
        XCTAssertEqual(response.status, .notFound)
        response.head = HTTPResponse(status: .created)
        XCTAssertEqual(response.status, .created)
        response.head.headerFields[.server] = "test"
        XCTAssertEqual(response.status, .created)
        XCTAssertEqual(HTTPServerResponse(head: HTTPResponse(status: 299)).status.code, 299)
        XCTAssertEqual(HTTPServerResponse().status, .ok)
    }

    /// Copies share one storage until one changes: a change to a copy's head
    /// or body (set whole or in place) is that copy's alone, and what the
    /// head writer uses follows it.
    func testCopies_ChangeApart() {
        let original = HTTPServerResponse.text("one")
        var changed = original
        changed.head.headerFields[HTTPField.Name("X-Changed")!] = "yes"
        changed.head.status = .accepted
        var rebodied = original
        rebodied.body = .string("three")
        XCTAssertEqual(original.status, .ok)
        XCTAssertNil(original.head.headerFields[HTTPField.Name("X-Changed")!])
        XCTAssertEqual(original.body.length, 3)
        XCTAssertEqual(changed.status, .accepted)
        XCTAssertEqual(changed.head.status, .accepted)
        XCTAssertEqual(changed.head.headerFields[HTTPField.Name("X-Changed")!], "yes")
        XCTAssertEqual(changed.head.headerFields[.contentType], "text/plain; charset=utf-8")
        XCTAssertEqual(changed.body.length, 3)
        XCTAssertEqual(rebodied.body.length, 5)
        XCTAssertEqual(rebodied.status, .ok)
    }
}
