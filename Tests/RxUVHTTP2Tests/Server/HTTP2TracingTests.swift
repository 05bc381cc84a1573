import InMemoryTracing
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTestSupport
import Tracing
import XCTest

/// A traced server over HTTP/2: a span per stream, named after its route,
/// HTTP's version `2`, the status noted, ended with the stream; a stream
/// the client resets ends its span cut short.
final class HTTP2TracingTests: BridgeTestCase {
    func testEachStream_HasItsServerSpan_EndedWithTheStream() throws {
        let tracer = InMemoryTracer()
        var http = HTTPServerOptions()
        http.tracer = tracer
        let directory = try TemporaryDirectory("rxuv-http2-trace")
        defer { directory.remove() }
        let router = HTTP2ServerTests.router(files: directory.path, loop: loop)
        let seen = try withHTTP2Server(http, handler: router.handler) { [loop = loop!] server in
            let url = "http://127.0.0.1:\(server.address.port)"
            // One curl a URL: curl 7.88 fails a second URL on a kept
            // HTTP/2 prior-knowledge connection (nginx's too).
            _ = try await loop.run("curl", ["-sS", "--http2-prior-knowledge", url + "/users/7"])
            _ = try await loop.run("curl", ["-sS", "--http2-prior-knowledge", url + "/forbidden"])
            return UncheckedSendable(try await loop.h2Peer("reset", port: server.address.port))
        }.value
        XCTAssertEqual(seen["hello"] as? String, "200")
        let spans = tracer.finishedSpans
        XCTAssertEqual(spans.count, 4, "\(spans.map(\.operationName))")
        let user = try XCTUnwrap(spans.first { $0.operationName == "GET /users/{id}" })
        XCTAssertEqual(user.kind, .server)
        XCTAssertEqual(user.attributes["network.protocol.version"]?.toSpanAttribute(), "2")
        XCTAssertEqual(user.attributes["url.path"]?.toSpanAttribute(), "/users/7")
        XCTAssertEqual(user.attributes["http.response.status_code"]?.toSpanAttribute(), 200)
        let forbidden = try XCTUnwrap(spans.first { $0.operationName == "GET /forbidden" })
        XCTAssertEqual(forbidden.attributes["http.response.status_code"]?.toSpanAttribute(), 403)
        XCTAssertEqual(forbidden.errors.count, 1, "the handler's HTTPError is recorded")
        let reset = try XCTUnwrap(spans.first { $0.operationName == "GET /never" })
        XCTAssertEqual(reset.status?.code, .error, "a stream reset before its answer is cut short")
        XCTAssertNotNil(spans.first { $0.operationName == "GET /hello" })
    }
}
