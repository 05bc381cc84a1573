import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import XCTest

/// One HTTP connection's logic with no socket: the server connection over
/// the server end of an in-memory pair, the test writing the client's
/// bytes and reading its answers. Each step runs the loop until nothing
/// moves, so what the connection did is the same on every run: the
/// pipeline's order, the backlog holding the stream's reading, the
/// timeouts, the refusals and how the connection ends.
final class HTTPServerConnectionTests: BridgeTestCase {
    /// No timer unless a test asks for one: with none, a run of the loop
    /// ends once the connection has nothing left to do.
    private static let noTimers = HTTPServerOptions(headTimeout: .zero, idleTimeout: .zero)

    /// Answers every request with its path.
    private static let echoPath: HTTPHandler = { request in .just(.text(String(request.path))) }

    private static func get(_ path: String, _ fields: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: x\r\n\(fields)\r\n"
    }

    /// Requests whose answers the test gives: `/held…` paths wait for
    /// `answer(_:)`, in order; the others are answered at once. Loop thread.
    private final class HeldAnswers: Sendable {
        private let waiting = Shared<[String]>([])
        private let answers = PublishSubject<String>()
        let calls = Shared<[String]>([])

        var handler: HTTPHandler {
            { [self] request in
                let path = String(request.path)
                calls.mutate { $0.append(path) }
                guard path.hasPrefix("/held") else { return .just(.text(path)) }
                waiting.mutate { $0.append(path) }
                return answers.filter { $0 == path }.take(1).map { HTTPServerResponse.text("\($0) answered") }.asSingle()
            }
        }

        /// Answers the held request `path`.
        func answer(_ path: String) {
            answers.onNext(path)
        }
    }

    // MARK: Pipelining

    /// Three requests in one write: the handler sees them one at a time,
    /// and the answers go out in their order; the third's `Connection:
    /// close` ends the connection after its answer.
    func testPipelining_RequestsInOneWrite_AnsweredInOrder() {
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: Self.echoPath)
        connection.send(Self.get("/a") + Self.get("/b") + Self.get("/c", "Connection: close\r\n"))
        runLoop()
        XCTAssertEqual(connection.client.string.statusCodes, [200, 200, 200])
        XCTAssertEqual(connection.client.string.responseBodies, ["/a", "/b", "/c"])
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed, "the client reads the end of the stream, not a reset")
        XCTAssertTrue(connection.pair.server.isClosed)
        connection.close()
    }

    /// A request whose answer waits holds the ones behind it: the handler
    /// is not called for them, the connection holds its stream's reading
    /// (so what else the client sends waits in the stream), and nothing is
    /// written. Once answered, the backlog goes through in order and
    /// reading resumes.
    func testBacklog_HeldAnswer_HoldsTheRestAndTheStreamsReading() {
        let held = HeldAnswers()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        connection.send(Self.get("/held-1") + Self.get("/b"))
        runLoop()
        XCTAssertEqual(held.calls.value, ["/held-1"])
        XCTAssertTrue(connection.pair.server.isReadingHeld, "the backlog holds the stream's reading")
        XCTAssertEqual(connection.client.string, "")

        connection.send(Self.get("/c"))
        runLoop()
        XCTAssertEqual(held.calls.value, ["/held-1"])
        XCTAssertEqual(connection.pair.server.unreadByteCount, Self.get("/c").utf8.count, "what arrives behind the backlog waits in the stream")

        loop.execute { held.answer("/held-1") }
        runLoop()
        XCTAssertEqual(held.calls.value, ["/held-1", "/b", "/c"])
        XCTAssertEqual(connection.client.string.responseBodies, ["/held-1 answered", "/b", "/c"])
        XCTAssertFalse(connection.pair.server.isReadingHeld)
        XCTAssertEqual(connection.pair.server.unreadByteCount, 0)
        XCTAssertNil(connection.life, "a keep-alive connection goes on")
        connection.close()
        runLoop()
    }

    /// Held requests are begun one at a time, each once the one before
    /// is answered, and answered in order.
    func testPipelining_EachRequestBegunOnceTheOneBeforeIsAnswered() {
        let held = HeldAnswers()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        connection.send(Self.get("/held-1") + Self.get("/held-2") + Self.get("/held-3"))
        var transcript: [String] = []
        for step in 1...3 {
            runLoop()
            transcript.append("calls \(held.calls.value.joined(separator: " ")), answers \(connection.client.string.responseBodies.joined(separator: " "))")
            loop.execute { held.answer("/held-\(step)") }
        }
        runLoop()
        transcript.append("answers \(connection.client.string.responseBodies.joined(separator: ", "))")
        XCTAssertEqual(
            transcript,
            [
                "calls /held-1, answers ",
                "calls /held-1 /held-2, answers /held-1 answered",
                "calls /held-1 /held-2 /held-3, answers /held-1 answered /held-2 answered",
                "answers /held-1 answered, /held-2 answered, /held-3 answered",
            ])
        connection.close()
        runLoop()
    }

    /// A head that arrives a byte per read is the same request.
    func testHeadInOneByteReads_IsOneRequest() {
        let connection = InMemoryHTTPConnection(on: loop, pair: InMemoryStreamOptions(maxReadSize: 1), http: Self.noTimers, handler: Self.echoPath)
        connection.send(Self.get("/bytes", "X-A: b\r\n"))
        runLoop()
        XCTAssertEqual(connection.client.string.responseBodies, ["/bytes"])
        connection.close()
        runLoop()
    }

    // MARK: Ends

    /// The keep-alive cap: the second of three requests is answered with
    /// `Connection: close`, the third never.
    func testKeepAliveCap_ClosesAfterTheLastAllowedRequest() {
        var http = Self.noTimers
        http.maxRequestsPerConnection = 2
        let connection = InMemoryHTTPConnection(on: loop, http: http, handler: Self.echoPath)
        connection.send(Self.get("/a") + Self.get("/b") + Self.get("/c"))
        runLoop()
        XCTAssertEqual(connection.client.string.responseBodies, ["/a", "/b"])
        XCTAssertEqual(connection.client.string.components(separatedBy: "Connection: close").count, 2)
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed)
        connection.close()
    }

    /// The client's end of input with nothing to answer ends the
    /// connection without a word; with a request in hand, its answer comes
    /// first.
    func testEndOfInput_AfterTheLastAnswer_EndsTheConnection() {
        let held = HeldAnswers()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        connection.send(Self.get("/held-1"))
        _ = connection.pair.client.shutdown().subscribe()
        runLoop()
        XCTAssertNil(connection.life, "the request in hand is still answered")
        loop.execute { held.answer("/held-1") }
        runLoop()
        XCTAssertEqual(connection.client.string.responseBodies, ["/held-1 answered"])
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed)
        connection.close()
    }

    /// The drain while a request is in hand: its answer says `Connection:
    /// close`, then the connection ends; a connection with nothing in
    /// hand ends at once.
    func testDrain_AnswersTheRequestInHandThenEnds() {
        let held = HeldAnswers()
        let busy = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        let idle = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        busy.send(Self.get("/held-1"))
        runLoop()
        loop.execute {
            busy.drain()
            idle.drain()
        }
        runLoop()
        XCTAssertNil(busy.life)
        XCTAssertEqual(idle.life, "completed")
        XCTAssertEqual(idle.client.string, "")
        loop.execute { held.answer("/held-1") }
        runLoop()
        XCTAssertEqual(busy.client.string.responseBodies, ["/held-1 answered"])
        XCTAssertTrue(busy.client.string.contains("Connection: close"), busy.client.string)
        XCTAssertEqual(busy.life, "completed")
        busy.close()
        idle.close()
        runLoop()
    }

    /// The client resets while its request is in hand: the reset waits
    /// behind that request, as everything read after it does, so the
    /// handler's work goes on; its answer's write fails with
    /// `ECONNRESET`, which ends the connection.
    func testClientReset_WhileAnswering_SeenAtTheAnswer() {
        let held = HeldAnswers()
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: held.handler)
        connection.send(Self.get("/held-1"))
        runLoop()
        connection.pair.client.close(.reset)
        runLoop()
        XCTAssertNil(connection.life, "the reset waits behind the request in hand")
        loop.execute { held.answer("/held-1") }
        runLoop()
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.pair.server.isClosed)
        connection.close()
    }

    /// The drain's deadline resets a connection whose handler never
    /// answers: its work is disposed, and the client's read fails with
    /// `ECONNRESET`.
    func testDrainDeadline_Reset_DisposesTheHandlersWork() {
        let disposed = Flag()
        let handler: HTTPHandler = { _ in Single<HTTPServerResponse>.never().do(onDispose: { disposed.set() }) }
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: handler)
        connection.send(Self.get("/never"))
        runLoop()
        XCTAssertFalse(disposed.isSet)
        connection.stop()
        runLoop()
        XCTAssertTrue(disposed.isSet)
        XCTAssertNil(connection.life, "disposed, not ended")
        XCTAssertEqual((connection.client.error as? UVError)?.code, .connectionReset)
        connection.close()
    }

    // MARK: Timeouts

    /// A head not whole within the head timeout is answered `408` and the
    /// connection ends; the client reads the answer, then the end.
    func testHeadTimeout_PartialHead_Answered408ThenEnds() {
        let connection = InMemoryHTTPConnection(on: loop, http: HTTPServerOptions(headTimeout: .milliseconds(50), idleTimeout: .zero), handler: Self.echoPath)
        connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
        runLoop()
        XCTAssertEqual(connection.client.string.statusCodes, [408])
        XCTAssertTrue(connection.client.string.contains("Connection: close"))
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed)
        connection.close()
    }

    /// A connection that sends nothing after its answer is closed at the
    /// idle timeout, without a word.
    func testIdleTimeout_AfterAnAnswer_ClosesWithoutAWord() {
        let connection = InMemoryHTTPConnection(on: loop, http: HTTPServerOptions(headTimeout: .zero, idleTimeout: .milliseconds(50)), handler: Self.echoPath)
        connection.send(Self.get("/a"))
        runLoop()
        XCTAssertEqual(connection.client.string.responseBodies, ["/a"])
        XCTAssertEqual(connection.client.string.statusCodes, [200])
        XCTAssertEqual(connection.life, "completed")
        XCTAssertTrue(connection.client.completed)
        connection.close()
    }

    // MARK: Refusals

    /// Each malformed request is answered with its status and `Connection:
    /// close`, the good request behind it is never answered, and the
    /// connection ends with a close the client reads, not a reset.
    func testRefusals_AnsweredWithTheirStatusThenClosed() {
        let rows: [(name: String, request: String, status: Int)] = [
            ("no Host", "GET / HTTP/1.1\r\n\r\n", 400),
            ("Content-Length with Transfer-Encoding", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("bad Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n", 400),
            ("bare CR", "GET / HTTP/1.1\rHost: x\r\n\r\n", 400),
            ("many fields", "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 101) + "\r\n", 431),
            ("a 200 KiB header section", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 200 * 1024) + "\r\n\r\n", 431),
            ("long target", "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("body too large", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
            ("unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
            ("HTTP/2.0", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ]
        for row in rows {
            do {
                let connection = InMemoryHTTPConnection(on: loop, pair: InMemoryStreamOptions(maxReadSize: 16 * 1024), http: Self.noTimers, handler: Self.echoPath)
                connection.send(row.request + Self.get("/never"))
                runLoop()
                XCTAssertEqual(connection.client.string.statusCodes, [row.status], row.name)
                XCTAssertTrue(connection.client.string.contains("Connection: close"), row.name)
                XCTAssertFalse(connection.client.string.contains("/never"), row.name)
                XCTAssertEqual(connection.life, "completed", row.name)
                XCTAssertTrue(connection.client.completed, "\(row.name): the client reads the end, not a reset")
                connection.close()
                runLoop()
            }
            assertNoLeaks(row.name)
        }
    }

    /// A good request, then a malformed one in the same write: the first
    /// is answered, the second refused, and nothing after it.
    func testRefusal_AfterAGoodRequest_FirstAnsweredThenRefused() {
        let connection = InMemoryHTTPConnection(on: loop, http: Self.noTimers, handler: Self.echoPath)
        connection.send(Self.get("/a") + "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n" + Self.get("/never"))
        runLoop()
        XCTAssertEqual(connection.client.string.statusCodes, [200, 400])
        XCTAssertEqual(connection.life, "completed")
        connection.close()
    }
}
