import HTTPTypes
import RxUVHTTP
import XCTest

/// `HTTPServerResponse.status` is `head.status`, read when the head is set,
/// however the head is changed.
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
}
