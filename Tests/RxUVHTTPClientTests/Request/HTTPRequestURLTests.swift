import HTTPTypes
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// `HTTPRequest(method:url:)`: the URL's parts, and the URLs refused.
final class HTTPRequestURLTests: BridgeTestCase {
    func testParts() throws {
        let cases: [(String, String, String, String)] = [
            ("http://example.com", "http", "example.com", "/"),
            ("HTTPS://example.com:8443/a/b?c=d#frag", "https", "example.com:8443", "/a/b?c=d"),
            ("http://127.0.0.1:8080?q=1", "http", "127.0.0.1:8080", "/?q=1"),
            ("http://[::1]:9000/x", "http", "[::1]:9000", "/x"),
            ("http://h/%20a", "http", "h", "/%20a"),
        ]
        for (url, scheme, authority, path) in cases {
            let request = try HTTPRequest(url: url)
            XCTAssertEqual(request.method, .get)
            XCTAssertEqual(request.scheme, scheme, url)
            XCTAssertEqual(request.authority, authority, url)
            XCTAssertEqual(request.path, path, url)
        }
    }

    func testRefused() {
        for url in ["example.com/a", "ftp://example.com/", "http:///a", "http://user:pw@example.com/", "http://h/a b", "http://h/\u{7}", "http://h/é"] {
            XCTAssertThrowsError(try HTTPRequest(url: url), url) { error in
                XCTAssertEqual((error as? HTTPClientError)?.code, .invalidRequest, url)
            }
        }
    }
}
