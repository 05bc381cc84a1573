import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// Trailers over HTTP/1.1: a chunked request's trailer section reaches the
/// handler (`HTTPRequestBody.trailerFields`, once the body has ended), and
/// a streamed response's trailers end its last chunk.
final class HTTPTrailersTests: BridgeTestCase {
    private static let noTimers = HTTPServerOptions(headTimeout: .zero, idleTimeout: .zero)

    /// Echoes the body, with trailers that say what the request's were.
    private static let echo: HTTPHandler = { request in
        request.body.collect(upTo: 1 << 20).map { body in
            let sum = request.body.trailerFields?[HTTPField.Name("X-Sum")!] ?? "none"
            return HTTPServerResponse(body: .stream(.just(body), trailers: { [HTTPField.Name("X-Echo-Sum")!: sum] }))
        }
    }

    func testChunkedRequestTrailers_ReachTheHandler_AndResponseTrailersEndTheLastChunk() {
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: Self.echo)
        connection.send("POST /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 3\r\n\r\n")
        connection.send("POST /t HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nde")
        runLoop()
        let text = connection.client.string
        XCTAssertTrue(text.contains("Transfer-Encoding: chunked\r\n"), text)
        XCTAssertTrue(text.contains("\r\n3\r\nabc\r\n0\r\nX-Echo-Sum: 3\r\n\r\n"), text)
        XCTAssertTrue(text.hasSuffix("\r\n2\r\nde\r\n0\r\nX-Echo-Sum: none\r\n\r\n"), text)
        connection.close()
    }

    /// With a declared length, or to an HTTP/1.0 client, the body is not
    /// chunked and no trailer goes.
    func testTrailers_NotSentWithoutChunks() {
        let handler: HTTPHandler = { request in
            let length: Int? = request.head.path == "/length" ? 2 : nil
            return .just(HTTPServerResponse(body: .stream(.just(ByteBuffer(string: "ok")), length: length, trailers: { [HTTPField.Name("X-T")!: "1"] })))
        }
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: handler)
        connection.send("GET /length HTTP/1.1\r\nHost: x\r\n\r\nGET /old HTTP/1.0\r\n\r\n")
        runLoop()
        let text = connection.client.string
        XCTAssertFalse(text.contains("X-T"), text)
        XCTAssertEqual(text.components(separatedBy: "ok").count, 3, text)
        connection.close()
    }
}
