import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVHTTPClient
import RxUVTestSupport
import Synchronization
import XCTest

/// The client over HTTP/2 against RxUV's own HTTP/2 server: ALPN `h2` over
/// TLS and prior knowledge over cleartext, many requests multiplexed on one
/// connection, bodies of every kind both ways, per-stream flow control,
/// a stream reset alone on cancel, the server's limits, GOAWAY.
final class HTTP2ClientTests: BridgeTestCase {
    /// 2 MiB, eight times a stream's window (the client's
    /// `responseBufferSize`).
    static let largeBytes = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) }
    static let large = ByteBuffer(largeBytes)

    /// Routes that show what the server received.
    static var router: HTTPRouter {
        var router = HTTPRouter()
        // The version and the peer's address: the same for requests on one
        // connection.
        router.get("/peer") { request in .just(.text("\(request.majorVersion) \(request.peer ?? "?")")) }
        router.post("/echo") { request in
            let framing = request.body.declaredLength.map { "length \($0)" } ?? "unknown"
            return request.body.collect(upTo: 64 << 20).map { body in
                HTTPServerResponse(status: .ok, headerFields: [HTTPField.Name("X-Framing")!: framing], body: .bytes(body))
            }
        }
        router.get("/large") { _ in
            .just(HTTPServerResponse(body: .bytes(Self.large)))
        }
        router.get("/empty") { _ in .just(HTTPServerResponse(status: .noContent)) }
        router.get("/trailed") { _ in
            .just(HTTPServerResponse(body: .stream(.from([ByteBuffer(string: "a"), ByteBuffer(string: "b")]), trailers: { [HTTPField.Name("x-checksum")!: "ab"] })))
        }
        router.get("/hello") { _ in .just(.text("hello")) }
        router.get("/never") { _ in .never() }
        router.get("/broken") { request in
            // The body fails after its first piece: the server resets the
            // stream.
            let failure = Observable<ByteBuffer>.error(UVError(code: .ioError, operation: "test")).delaySubscription(.milliseconds(50), scheduler: request.loop)
            let pieces = Observable<ByteBuffer>.concat(.just(ByteBuffer(string: "part")), failure)
            return .just(HTTPServerResponse(body: .stream(pieces)))
        }
        router.get("/slow") { request in
            Single.just(HTTPServerResponse.text("slow")).delay(.milliseconds(100), scheduler: request.loop)
        }
        return router
    }

    /// Forty requests at once over HTTPS: ALPN agrees on `h2`, and one
    /// connection carries them all (the server sees one peer), though the
    /// pool may open eight.
    func testHTTPS_NegotiatesHTTP2_AndMultiplexesOnOneConnection() throws {
        let answers = try withHTTPSClient(handler: Self.router.handler) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        let response = try await client.execute(secure(port, "/peer"))
                        return "\(response.majorVersion) " + (try await response.text())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertEqual(answers.count, 40)
        XCTAssertTrue(answers.allSatisfy { $0.hasPrefix("2 2 ") }, "\(answers.prefix(3))")
        XCTAssertEqual(Set(answers).count, 1, "more than one connection: \(Set(answers))")
    }

    /// `[.http1]` keeps HTTPS on HTTP/1.1 against the same server.
    func testHTTPS_HTTP1Only_StaysOnHTTP1() throws {
        let configuration = HTTPClientConfiguration(tls: TestCertificates.client, httpVersions: [.http1])
        let answer = try withHTTPSClient(configuration, handler: Self.router.handler) { client, port in
            let response = try await client.execute(secure(port, "/peer"))
            return "\(response.majorVersion).\(response.minorVersion) " + (try await response.text()).prefix(1)
        }
        XCTAssertEqual(answer, "1.1 1")
    }

    /// `[.http2]` over `http`: HTTP/2 with prior knowledge (`h2c`).
    func testCleartext_PriorKnowledge() throws {
        let configuration = HTTPClientConfiguration(httpVersions: [.http2])
        let answers = try withH2CClient(configuration, handler: Self.router.handler) { client, port in
            var answers: [String] = []
            for _ in 0..<3 { answers.append(try await client.execute(local(port, "/peer")).text()) }
            return answers
        }
        XCTAssertTrue(answers.allSatisfy { $0.hasPrefix("2 ") }, "\(answers)")
        XCTAssertEqual(Set(answers).count, 1, "\(answers)")
    }

    /// Each kind of request body arrives whole over HTTP/2, with its
    /// `content-length` when it has one.
    func testRequestBodies_EveryKind() throws {
        let directory = try TemporaryDirectory("h2-client-upload")
        let path = directory.path + "/upload"
        let fileBytes = (0..<300_000).map { UInt8($0 % 251) }
        try Data(fileBytes).write(to: URL(fileURLWithPath: path))
        let results = try withHTTPSClient(handler: Self.router.handler) { [loop = loop!] client, port in
            var results: [String] = []
            func post(_ body: HTTPClientRequestBody, expect: [UInt8]) async throws {
                let response = try await client.execute(secure(port, "/echo", .post), body: body)
                let bytes = try await response.body.collect(upTo: 1 << 24).value
                results.append("\(response.headerFields[HTTPField.Name("X-Framing")!] ?? "-") \(bytes.count) \(Array(bytes) == expect)")
            }
            try await post(.string("abc"), expect: Array("abc".utf8))
            let pieces = ["a", "bb", "", "ccc"].map { ByteBuffer(string: $0) }
            try await post(.stream(Observable.from(pieces)), expect: Array("abbccc".utf8))
            try await post(.stream(Observable.from(pieces), length: 6), expect: Array("abbccc".utf8))
            let file = try await loop.rx.openFile(path: path).value
            try await post(.file(file, range: 0..<Int64(fileBytes.count)), expect: fileBytes)
            let big = ByteBuffer([UInt8](repeating: 0x62, count: 200_000))
            let sequence = AsyncStream<ByteBuffer> { continuation in
                for _ in 0..<4 { continuation.yield(big) }
                continuation.finish()
            }
            try await post(.values(sequence, length: 800_000), expect: [UInt8](repeating: 0x62, count: 800_000))
            try await post(.empty, expect: [])
            return results
        }
        XCTAssertEqual(
            results,
            [
                "length 3 3 true", "unknown 6 true", "length 6 6 true", "length 300000 300000 true", "length 800000 800000 true",
                "length 0 0 true",
            ])
    }

    /// A streamed body that sends more than its declared length fails its
    /// request with `bodyLengthMismatch`; the connection goes on.
    func testRequestBody_LengthMismatch_ResetsOnlyItsStream() throws {
        let outcomes = try withHTTPSClient(handler: Self.router.handler) { client, port in
            var outcomes: [String] = []
            do {
                _ = try await client.execute(secure(port, "/echo", .post), body: .stream(.just(ByteBuffer(string: "toolong")), length: 3)).text()
                outcomes.append("answered")
            } catch let error as HTTPClientError {
                outcomes.append("\(error.code)")
            }
            outcomes.append(try await client.execute(secure(port, "/hello")).text())
            return outcomes
        }
        XCTAssertEqual(outcomes, ["bodyLengthMismatch", "hello"])
    }

    /// A 2 MiB response read slowly, while a response nobody reads yet
    /// holds only its own stream's window: a third request on the same
    /// connection is answered meanwhile.
    func testFlowControl_PerStream() throws {
        let results = try withHTTPSClient(handler: Self.router.handler) { client, port in
            let held = try await client.execute(secure(port, "/large"))
            let other = try await client.execute(secure(port, "/hello")).text()
            let expected = Self.largeBytes
            var count = 0
            var mismatches = 0
            for try await piece in held.body.values(highWatermark: 64 * 1024, lowWatermark: 16 * 1024) {
                if count + piece.count > expected.count || Array(piece) != Array(expected[count..<(count + piece.count)]) { mismatches += 1 }
                count += piece.count
            }
            return "\(other) \(count) \(mismatches)"
        }
        XCTAssertEqual(results, "hello \(2 << 20) 0")
    }

    /// A response's trailers reach the caller once its body has ended, over
    /// HTTP/2 and over HTTP/1.1 (a chunked body's last chunk).
    func testResponseTrailers_BothVersions() throws {
        let http2 = try withHTTPSClient(handler: Self.router.handler) { client, port in
            let response = try await client.execute(secure(port, "/trailed"))
            let body = try await response.text()
            return "\(response.majorVersion) \(body) \(response.body.trailerFields?[HTTPField.Name("x-checksum")!] ?? "-")"
        }
        let http1 = try withClient(handler: Self.router.handler) { client, port in
            let response = try await client.execute(local(port, "/trailed"))
            let body = try await response.text()
            return "\(response.majorVersion) \(body) \(response.body.trailerFields?[HTTPField.Name("x-checksum")!] ?? "-")"
        }
        XCTAssertEqual(http2, "2 ab ab")
        XCTAssertEqual(http1, "1 ab ab")
    }

    /// Decompression over HTTP/2: a gzip body inflated; a gzip bomb (100
    /// MiB of zeros) fails its body with `decompression` at the bound and
    /// resets its stream alone: the next request goes on the same
    /// connection.
    func testDecompression_AndABomb_ResetOnlyItsStream() throws {
        let text = String(repeating: "a line of text for gzip\n", count: 2000)
        let gzipped = ByteBuffer(try pythonOutput("import sys, gzip; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))", input: Array(text.utf8)))
        let bomb = ByteBuffer(try pythonOutput("import sys, gzip; sys.stdout.buffer.write(gzip.compress(bytes(100 << 20)))"))
        var router = Self.router
        router.get("/gzip") { _ in .just(HTTPServerResponse(headerFields: [.contentEncoding: "gzip"], body: .bytes(gzipped))) }
        router.get("/bomb") { _ in .just(HTTPServerResponse(headerFields: [.contentEncoding: "gzip"], body: .bytes(bomb))) }
        let configuration = HTTPClientConfiguration(tls: TestCertificates.client, decompression: .enabled(maxDecodedLength: 1 << 20))
        let results = try withHTTPSClient(configuration, handler: router.handler) { client, port in
            var results: [String] = []
            let before = try await client.execute(secure(port, "/peer")).text()
            results.append(try await client.execute(secure(port, "/gzip")).text() == text ? "inflated" : "wrong")
            do {
                _ = try await client.execute(secure(port, "/bomb")).text()
                results.append("whole")
            } catch let error as HTTPClientError {
                results.append("\(error.code)")
            }
            let after = try await client.execute(secure(port, "/peer")).text()
            results.append(before == after ? "same connection" : "\(before) then \(after)")
            return results
        }
        XCTAssertEqual(results, ["inflated", "decompression", "same connection"])
    }

    /// HEAD and 204 have no body; the connection goes on.
    func testResponsesWithoutBody() throws {
        let results = try withHTTPSClient(handler: Self.router.handler) { client, port in
            var results: [String] = []
            for (method, path) in [(HTTPRequest.Method.head, "/hello"), (.get, "/empty"), (.get, "/hello")] {
                let response = try await client.execute(secure(port, path, method))
                results.append("\(response.status.code) \(response.body.declaredLength ?? -1) \(try await response.text())")
            }
            return results
        }
        XCTAssertEqual(results, ["200 0 ", "204 0 ", "200 5 hello"])
    }

    /// A request given up on (its timeout; its body's reader gone) resets
    /// its stream alone: the handler's work is disposed, and the next
    /// request goes on the same connection.
    func testCancel_ResetsOnlyThatStream() throws {
        let disposed = Atomic<Int>(0)
        var router = Self.router
        router.get("/watched") { _ in Single<HTTPServerResponse>.never().do(onDispose: { disposed.add(1, ordering: .relaxed) }) }
        let results = try withHTTPSClient(handler: router.handler) { client, port in
            var results: [String] = []
            let before = try await client.execute(secure(port, "/peer")).text()
            do {
                _ = try await client.execute(secure(port, "/watched"), timeout: .milliseconds(200))
                results.append("answered")
            } catch let error as HTTPClientError {
                results.append("\(error.code)")
            }
            // A large body let go after its first piece.
            let large = try await client.execute(secure(port, "/large"))
            _ = try await large.body.bytes.take(1).toArray().value
            for _ in 0..<50 where disposed.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            results.append("disposed \(disposed.load(ordering: .relaxed))")
            let after = try await client.execute(secure(port, "/peer")).text()
            results.append(before == after ? "same connection" : "\(before) then \(after)")
            return results
        }
        XCTAssertEqual(results, ["requestTimeout", "disposed 1", "same connection"])
    }

    /// A body the server cuts short (its stream reset) fails with
    /// `HTTP2StreamError`; the connection goes on.
    func testServerReset_FailsTheBody() throws {
        let results = try withHTTPSClient(handler: Self.router.handler) { client, port in
            var results: [String] = []
            let response = try await client.execute(secure(port, "/broken"))
            do {
                _ = try await response.text()
                results.append("whole")
            } catch let error as HTTP2StreamError {
                results.append("\(error.code)")
            }
            results.append(try await client.execute(secure(port, "/hello")).text())
            return results
        }
        XCTAssertEqual(results, ["INTERNAL_ERROR (0x2)", "hello"])
    }

    /// The server takes two streams at once: twenty requests all succeed,
    /// no more than two are handled at a time, on one connection.
    func testServersStreamLimit_QueuesTheRest() throws {
        let now = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        var router = Self.router
        router.get("/counted") { request in
            let peer = request.peer ?? "?"
            let loop = request.loop
            return Single.deferred {
                let current = now.add(1, ordering: .relaxed).newValue
                _ = most.max(current, ordering: .relaxed)
                return Single.just(HTTPServerResponse.text(peer)).delay(.milliseconds(30), scheduler: loop)
                    .do(onDispose: { now.subtract(1, ordering: .relaxed) })
            }
        }
        let answers = try withHTTPSClient(http2: HTTP2Options(maxConcurrentStreams: 2), handler: router.handler) { client, port in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await client.execute(secure(port, "/counted")).text() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertEqual(answers.count, 20)
        XCTAssertEqual(Set(answers).count, 1, "\(Set(answers))")
        XCTAssertLessThanOrEqual(most.load(ordering: .relaxed), 2)
    }

    /// The queue's bound holds over HTTP/2 too: with the server taking two
    /// streams at once and five requests allowed to wait, twenty at once
    /// come to seven answers and thirteen `queueFull`.
    func testQueueBound_OverHTTP2() throws {
        var router = Self.router
        router.get("/held") { request in Single.just(HTTPServerResponse.text("held")).delay(.milliseconds(300), scheduler: request.loop) }
        let configuration = HTTPClientConfiguration(maxQueuedRequestsPerHost: 5, tls: TestCertificates.client)
        let outcomes = try withHTTPSClient(configuration, http2: HTTP2Options(maxConcurrentStreams: 2), handler: router.handler) { client, port in
            // The connection is made, and the server's limit known, first.
            _ = try await client.execute(secure(port, "/hello")).text()
            return try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            return try await client.execute(secure(port, "/held")).text()
                        } catch let error as HTTPClientError {
                            return "\(error.code)"
                        }
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
        }
        XCTAssertEqual(outcomes, ["held": 7, "queueFull": 13])
    }

    /// The server says GOAWAY when its idle timeout passes: the client's
    /// next request opens a new connection.
    func testServerGoAway_NextRequestOnANewConnection() throws {
        let http = HTTPServerOptions(idleTimeout: .milliseconds(200))
        let peers = try withHTTPSClient(http: http, handler: Self.router.handler) { client, port in
            let first = try await client.execute(secure(port, "/peer")).text()
            try await Task.sleep(for: .milliseconds(600))
            let second = try await client.execute(secure(port, "/peer")).text()
            return [first, second]
        }
        XCTAssertTrue(peers.allSatisfy { $0.hasPrefix("2 ") }, "\(peers)")
        XCTAssertNotEqual(peers[0], peers[1])
    }

    /// The client shuts down with requests in flight: they finish, then
    /// the connection closes (the leak gates check it).
    func testShutdown_LetsStreamsInFlightFinish() throws {
        let answers = try withHTTPSClient(handler: Self.router.handler) { client, port in
            async let first = client.execute(secure(port, "/slow")).text()
            async let second = client.execute(secure(port, "/slow")).text()
            try await Task.sleep(for: .milliseconds(50))
            let shutdown = Task { try await client.shutdown().value }
            let answers = try await [first, second]
            try await shutdown.value
            return answers
        }
        XCTAssertEqual(answers, ["slow", "slow"])
    }
}
