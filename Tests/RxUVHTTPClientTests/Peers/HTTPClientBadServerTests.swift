import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// Servers that misbehave, each a typed error, nothing leaked (the leak
/// gates of every test), and the client still serving the next request.
final class HTTPClientBadServerTests: BridgeTestCase {
    /// What a GET, then a second GET on the same client, come to.
    private func outcomes(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(headTimeout: .milliseconds(200), requestTimeout: .seconds(5)),
        _ answers: @escaping @Sendable (Int) -> RawAnswer?
    ) throws -> [String] {
        try withRawServer(configuration, serve: answering(answers)) { client, port in
            var outcomes: [String] = []
            for _ in 0..<2 {
                do {
                    let response = try await client.execute(local(port, "/"))
                    outcomes.append("\(response.status.code) \(try await response.text())")
                } catch let error as HTTPClientError {
                    outcomes.append("\(error.code)")
                } catch let error as HTTPParseError {
                    outcomes.append("parse: \(error.reason)")
                } catch let error as UVError {
                    outcomes.append("uv: \(error.code)")
                }
            }
            return outcomes
        }
    }

    /// Each case: what the server sends for its first request (then
    /// answers well), and what the client makes of it.
    func testBadResponses_TypedErrors_ThenServedAgain() throws {
        let cases: [(RawAnswer, String)] = [
            // A head that never ends.
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n", "headTimeout"),
            // A body shorter than its length, then the close.
            (RawAnswer("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", thenClose: true), "connectionClosed"),
            // Bytes that are no HTTP.
            ("SSH-2.0-OpenSSH_9.2\r\n\r\n", "parse: malformed status line"),
            // A bare CR in a field.
            ("HTTP/1.1 200 OK\r\nX: a\rb\r\nContent-Length: 0\r\n\r\n", "parse: bare CR"),
            // Two lengths.
            ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "parse: conflicting Content-Length values"),
            // A switch of protocols nobody asked for.
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n", "unexpectedUpgrade"),
        ]
        for (bad, expected) in cases {
            let result = try outcomes { $0 == 0 ? bad : ok("fine") }
            XCTAssertEqual(result.count, 2)
            XCTAssertTrue(result[0].hasPrefix(expected), "\(bad.bytes.debugDescription): \(result[0])")
            XCTAssertEqual(result[1], "200 fine", bad.bytes.debugDescription)
            assertNoLeaks(bad.bytes.debugDescription)
        }
    }

    /// A body longer than its length: the response is read as its length
    /// says; what follows is no response to anything, so the connection
    /// is closed and the next request goes on a new one.
    func testBodyLongerThanItsLength_ConnectionNotReused() throws {
        let result = try outcomes { $0 == 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA" : ok("fine") }
        XCTAssertEqual(result, ["200 ok", "200 fine"])
    }

    /// The server closes before answering, on a new connection: no retry
    /// (the connection was not reused), `.connectionClosed`.
    func testClosedBeforeAnswer_OnANewConnection() throws {
        let result = try outcomes { $0 == 0 ? nil : ok("fine") }
        XCTAssertEqual(result, ["connectionClosed", "200 fine"])
    }

    /// A body that the close ends (no length, no chunks) arrives whole at
    /// the close; the connection is not reused.
    func testBodyUntilClose() throws {
        let result = try outcomes { $0 == 0 ? RawAnswer("HTTP/1.1 200 OK\r\n\r\nto the end", thenClose: true) : ok("fine") }
        XCTAssertEqual(result, ["200 to the end", "200 fine"])
    }

    /// An interim 1xx before the answer is skipped.
    func testInterimResponses_Skipped() throws {
        let result = try outcomes { $0 == 0 ? RawAnswer("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + ok("after").bytes) : ok("fine") }
        XCTAssertEqual(result, ["200 after", "200 fine"])
    }
}
