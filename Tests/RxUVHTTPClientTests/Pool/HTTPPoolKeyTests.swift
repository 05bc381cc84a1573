import HTTPTypes
import RxUVTestSupport
import XCTest

@testable import RxUVHTTPClient

/// Which pool a request goes to: its scheme, its host (lower-cased, an
/// IPv6 address without brackets) and its port (80 or 443 by default),
/// and the authorities that are refused, each with its reason.
final class HTTPPoolKeyTests: BridgeTestCase {
    private func key(_ scheme: String?, _ authority: String?) -> Result<HTTPPoolKey, HTTPClientError> {
        let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/")
        do throws(HTTPClientError) {
            return .success(try HTTPPoolKey(request))
        } catch {
            return .failure(error)
        }
    }

    func testKeys_SchemeHostAndPort() throws {
        let rows: [(String?, String, Bool, String, Int)] = [
            ("http", "example.com", false, "example.com", 80),
            ("https", "example.com", true, "example.com", 443),
            ("HTTPS", "Example.COM:8443", true, "example.com", 8443),
            ("http", "127.0.0.1:1", false, "127.0.0.1", 1),
            ("http", "host:65535", false, "host", 65535),
            ("http", "host:", false, "host", 80),
            ("https", "[::1]", true, "::1", 443),
            ("http", "[FE80::1%25eth0]:8080", false, "fe80::1%25eth0", 8080),
            ("http", "[::1]:", false, "::1", 80),
        ]
        for (scheme, authority, secure, host, port) in rows {
            let made = try key(scheme, authority).get()
            XCTAssertEqual(made.isSecure, secure, authority)
            XCTAssertEqual(made.host, host, authority)
            XCTAssertEqual(made.port, port, authority)
        }
        XCTAssertEqual(try key("http", "Example.com:8080").get().description, "http://example.com:8080")
        XCTAssertEqual(try key("https", "[::1]").get().description, "https://[::1]:443")
    }

    func testRefusals_EachWithItsReason() {
        let rows: [(String?, String?, String)] = [
            ("ftp", "example.com", "the scheme \"ftp\" is not http or https"),
            (nil, "example.com", "the request has no scheme (http or https)"),
            ("http", nil, "the request has no authority (host and port)"),
            ("http", "", "the request has no authority (host and port)"),
            ("http", "user:pass@example.com", "user information in the authority \"user:pass@example.com\" is not sent"),
            ("http", "[::1", "the authority \"[::1\" has no closing bracket"),
            ("http", "[::1]x", "the authority \"[::1]x\" is malformed"),
            ("http", ":80", "the authority \":80\" has no valid host"),
            ("http", "a/b:80", "the authority \"a/b:80\" has no valid host"),
            ("http", "caf\u{E9}:80", "the authority \"caf\u{E9}:80\" has no valid host"),
            ("http", "host:0", "the port in \"host:0\" is not a number from 1 to 65535"),
            ("http", "host:65536", "the port in \"host:65536\" is not a number from 1 to 65535"),
            ("http", "host:+80", "the port in \"host:+80\" is not a number from 1 to 65535"),
            ("http", "host:8o", "the port in \"host:8o\" is not a number from 1 to 65535"),
            ("http", "host:000080", "the port in \"host:000080\" is not a number from 1 to 65535"),
        ]
        for (scheme, authority, reason) in rows {
            switch key(scheme, authority) {
            case .success(let made): XCTFail("\(authority ?? "nil"): made \(made)")
            case .failure(let error):
                XCTAssertEqual(error.code, .invalidRequest, authority ?? "nil")
                XCTAssertEqual(error.detail, reason, authority ?? "nil")
            }
        }
    }
}
