import HTTPTypes
import InMemoryTracing
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import Tracing
import XCTest

/// Requests traced with swift-distributed-tracing's in-memory tracer: a
/// server span per request, a client span per exchange, the context carried
/// in the request's fields from one to the next.
final class HTTPTracingTests: BridgeTestCase {
    private struct Refused: Error {}

    /// A request to server A, whose handler calls server B through the
    /// client: one trace of three spans, A's server span the root, the
    /// client's span its child, B's server span the client's child.
    func testARequestThroughAServerThatCallsOut_IsOneTraceOfThreeSpans() throws {
        let tracer = InMemoryTracer()
        var http = HTTPServerOptions()
        http.tracer = tracer
        var traced = HTTPClientConfiguration()
        traced.tracer = tracer
        var plain = HTTPClientConfiguration()
        plain.tracer = nil
        let (text, ports) = try loop.run { [loop = loop!, http, traced, plain] in
            var second = HTTPRouter()
            second.get("/b/{id}") { request in .just(.text("b \(request.parameters["id"] ?? "?") \(request.span == nil ? "untraced" : "traced")")) }
            let b = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, http: http, handler: second.handler).value
            let client = HTTPClient(loop: loop, configuration: traced)
            var first = HTTPRouter()
            first.get("/a") { (request: HTTPServerRequest) async throws -> HTTPServerResponse in
                XCTAssertNotNil(ServiceContext.current, "the handler's task runs in its span's context")
                let answer = try await client.execute(local(b.address.port, "/b/7")).text()
                return .text("a, then \(answer)")
            }
            let a = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, http: http, handler: first.handler).value
            let caller = HTTPClient(loop: loop, configuration: plain)
            let text = try await caller.execute(local(a.address.port, "/a?x=1", fields: [.userAgent: "tracing-test"])).text()
            try await caller.shutdown().value
            try await client.shutdown().value
            try await a.drain(deadline: .seconds(2)).value
            try await b.drain(deadline: .seconds(2)).value
            return (text, (a.address.port, b.address.port))
        }
        XCTAssertEqual(text, "a, then b 7 traced")
        let spans = tracer.finishedSpans
        XCTAssertEqual(spans.count, 3, "\(spans.map(\.operationName))")
        let serverA = try XCTUnwrap(spans.first { $0.operationName == "GET /a" })
        let client = try XCTUnwrap(spans.first { $0.kind == .client })
        let serverB = try XCTUnwrap(spans.first { $0.operationName == "GET /b/{id}" })
        XCTAssertEqual(serverA.kind, .server)
        XCTAssertEqual(serverB.kind, .server)
        XCTAssertEqual(Set(spans.map(\.traceID)).count, 1, "one trace")
        XCTAssertNil(serverA.parentSpanID, "A's span is the root: the caller sent no context")
        XCTAssertEqual(client.parentSpanID, serverA.spanID)
        XCTAssertEqual(serverB.parentSpanID, client.spanID, "B's span is the client's child, through the request's fields")
        // OpenTelemetry's attributes.
        XCTAssertEqual(serverA.attributes["http.request.method"]?.toSpanAttribute(), "GET")
        XCTAssertEqual(serverA.attributes["url.path"]?.toSpanAttribute(), "/a")
        XCTAssertEqual(serverA.attributes["url.query"]?.toSpanAttribute(), "x=1")
        XCTAssertEqual(serverA.attributes["http.route"]?.toSpanAttribute(), "/a")
        XCTAssertEqual(serverA.attributes["user_agent.original"]?.toSpanAttribute(), "tracing-test")
        XCTAssertEqual(serverA.attributes["client.address"]?.toSpanAttribute(), "127.0.0.1")
        XCTAssertEqual(serverA.attributes["network.protocol.version"]?.toSpanAttribute(), "1.1")
        XCTAssertEqual(serverA.attributes["http.response.status_code"]?.toSpanAttribute(), 200)
        XCTAssertEqual(serverB.attributes["http.route"]?.toSpanAttribute(), "/b/{id}")
        XCTAssertEqual(client.operationName, "GET")
        XCTAssertEqual(client.attributes["url.full"]?.toSpanAttribute(), .string("http://127.0.0.1:\(ports.1)/b/7"))
        XCTAssertEqual(client.attributes["server.port"]?.toSpanAttribute(), .int64(Int64(ports.1)))
        XCTAssertEqual(client.attributes["http.response.status_code"]?.toSpanAttribute(), 200)
        XCTAssertNil(serverA.status)
        XCTAssertNil(client.status)
    }

    /// A handler's failure is the span's error, with the 500; a 404 is the
    /// client's error (the server span's status stays unset, the client
    /// span's is an error); an untraced server gives the handler no span.
    func testFailuresAndStatuses_AndAnUntracedServer() throws {
        let tracer = InMemoryTracer()
        var http = HTTPServerOptions()
        http.tracer = tracer
        var traced = HTTPClientConfiguration()
        traced.tracer = tracer
        let reports = CapturedReports(on: loop)
        var router = HTTPRouter()
        router.get("/fail") { _ in .error(Refused()) }
        router.get("/span") { request in .just(.text(request.span == nil ? "none" : "some")) }
        let statuses = try withClient(traced, http: http, handler: router.handler) { client, port in
            [try await client.execute(local(port, "/fail")).status.code, try await client.execute(local(port, "/missing")).status.code]
        }
        XCTAssertEqual(statuses, [500, 404])
        XCTAssertTrue(reports.errors.first is Refused, "the handler's failure is reported as well")
        let spans = tracer.finishedSpans
        XCTAssertEqual(spans.count, 4)
        let failed = try XCTUnwrap(spans.first { $0.kind == .server && $0.attributes["url.path"]?.toSpanAttribute() == "/fail" })
        XCTAssertEqual(failed.status?.code, .error)
        XCTAssertEqual(failed.errors.count, 1)
        XCTAssertTrue(failed.errors.first?.error is Refused)
        XCTAssertEqual(failed.attributes["http.response.status_code"]?.toSpanAttribute(), 500)
        let missing = try XCTUnwrap(spans.first { $0.kind == .server && $0.attributes["url.path"]?.toSpanAttribute() == "/missing" })
        XCTAssertNil(missing.status, "a 404 is not the server's error")
        XCTAssertEqual(missing.operationName, "GET", "no route matched")
        let clientMissing = try XCTUnwrap(spans.first { $0.kind == .client && $0.attributes["http.response.status_code"]?.toSpanAttribute() == 404 })
        XCTAssertEqual(clientMissing.status?.code, .error)

        var untraced = HTTPServerOptions()
        untraced.tracer = nil
        let answer = try withClient(http: untraced, handler: router.handler) { client, port in
            try await client.execute(local(port, "/span")).text()
        }
        XCTAssertEqual(answer, "none")
        XCTAssertEqual(tracer.finishedSpans.count, 4, "nothing traced without a tracer")
    }

    /// The fields a W3C propagator reads and writes: `traceparent`, and
    /// `tracestate` joined when it came split over several fields.
    func testFieldsCarryTheContext_ExtractedAndInjected() {
        var fields = HTTPFields()
        fields[HTTPField.Name("traceparent")!] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        fields.append(HTTPField(name: HTTPField.Name("tracestate")!, value: "rojo=00f067aa0ba902b7"))
        fields.append(HTTPField(name: HTTPField.Name("tracestate")!, value: "congo=t61rcWkgMzE"))
        let extractor = HTTPFieldsExtractor()
        XCTAssertEqual(extractor.extract(key: "traceparent", from: fields), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        XCTAssertEqual(extractor.extract(key: "tracestate", from: fields), "rojo=00f067aa0ba902b7, congo=t61rcWkgMzE")
        XCTAssertNil(extractor.extract(key: "baggage", from: fields))
        XCTAssertNil(extractor.extract(key: "not a name", from: fields))
        var out = fields
        HTTPFieldsInjector().inject("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", forKey: "traceparent", into: &out)
        HTTPFieldsInjector().inject("x", forKey: "bad name", into: &out)
        XCTAssertEqual(out[HTTPField.Name("traceparent")!], "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        XCTAssertEqual(out.count, fields.count, "replaced, not added")
    }
}
