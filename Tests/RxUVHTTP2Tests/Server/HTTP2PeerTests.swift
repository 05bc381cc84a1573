import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTestSupport
import XCTest

/// The edge cases and the attacks, from a scripted HTTP/2 client
/// (hyper-h2, `Peers/h2-peer.py`): many streams, flow control held until
/// the handler reads, resets, priorities, malformed frames, the floods of
/// recent advisories, limits, the drain and the idle timeout.
final class HTTP2PeerTests: BridgeTestCase {
    /// Runs `scenario` against a server of the shared routes; returns what
    /// the peer saw.
    private func peer(
        _ scenario: String, http: HTTPServerOptions = HTTPServerOptions(), http2: HTTP2Options = HTTP2Options(), disposed: Flag = Flag(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any] {
        let directory = try TemporaryDirectory("rxuv-http2-peer")
        defer { directory.remove() }
        let server = Box<Server?>(nil)
        let router = HTTP2ServerTests.router(files: directory.path, loop: loop, disposed: disposed, server: server)
        let seen = try withHTTP2Server(http, http2: http2, handler: router.handler) { [loop = loop!] running in
            server.value = running
            let seen = try await loop.h2Peer(scenario, port: running.address.port, file: file, line: line)
            // The router's route holds the box: the server must not stay
            // in it.
            server.value = nil
            return UncheckedSendable(seen)
        }
        return seen.value
    }

    /// Trailers both ways: the request's (a HEADERS frame after its DATA)
    /// reach the handler once the body has ended; the response's follow its
    /// DATA and end the stream.
    func testTrailers_BothWays() throws {
        let seen = try peer("trailers")
        XCTAssertEqual(seen["status"] as? String, "200")
        XCTAssertEqual(seen["body"] as? String, "abc")
        XCTAssertEqual(seen["trailers"] as? [String: String], ["x-echo-sum": "3"])
    }

    /// 50 streams at once on one connection, each answered with its own
    /// body.
    func testConcurrentStreams_EachAnsweredWithItsOwnBody() throws {
        let seen = try peer("concurrent")
        XCTAssertEqual(seen["answered"] as? Int, 50)
        XCTAssertEqual(seen["bodies"] as? Int, 50)
        XCTAssertEqual(seen["statuses"] as? [String], ["200"])
    }

    /// A handler that reads its 200,000-byte body only after 300 ms: the
    /// client can send no more than the stream's window (65,535) until
    /// then, the first WINDOW_UPDATE comes after the handler subscribed,
    /// and the whole body arrives.
    func testFlowControl_WindowOpensOnlyAsTheHandlerReads() throws {
        let seen = try peer("window")
        XCTAssertEqual(seen["status"] as? String, "200")
        XCTAssertEqual(seen["body"] as? String, "200000")
        let sent = try XCTUnwrap(seen["sentBeforeUpdate"] as? Int, "\(seen)")
        XCTAssertLessThanOrEqual(sent, 65_535)
        let after = try XCTUnwrap(seen["firstUpdateAfter"] as? Double, "\(seen)")
        XCTAssertGreaterThanOrEqual(after, 0.25, "\(seen)")
    }

    /// A stream the client resets (CANCEL) has its handler's `Single`
    /// disposed; the connection serves the next stream.
    func testClientReset_DisposesTheHandlersWork_AndServesOn() throws {
        let disposed = Flag()
        let seen = try peer("reset", disposed: disposed)
        XCTAssertEqual(seen["hello"] as? String, "200")
        XCTAssertEqual(seen["slowAnswered"] as? Bool, false)
        XCTAssertTrue(disposed.isSet)
    }

    /// PRIORITY frames, for idle streams and in HEADERS, are taken and
    /// ignored (RFC 9113 §5.3.2).
    func testPriorityFrames_AreIgnoredSafely() throws {
        let seen = try peer("priority")
        XCTAssertEqual(seen["status"] as? String, "200")
        XCTAssertEqual(seen["body"] as? String, "hello")
    }

    /// The attacks and malformed input, table-driven: each ends the
    /// connection with a GOAWAY of the RFC's code, and the server answers
    /// a new client right after.
    func testFloodsAndMalformedFrames_EndTheConnectionWithGOAWAY() throws {
        let cases: [(scenario: String, code: HTTP2ErrorCode)] = [
            ("malformed", .protocolError),
            ("rapid-reset", .enhanceYourCalm),
            ("too-many-acks", .enhanceYourCalm),
            ("ping-flood", .enhanceYourCalm),
            ("settings-flood", .enhanceYourCalm),
            ("continuation-flood", .enhanceYourCalm),
        ]
        let reports = CapturedReports(on: loop)
        for entry in cases {
            let seen = try peer(entry.scenario)
            XCTAssertEqual(seen["goaway"] as? Int, Int(entry.code.rawValue), "\(entry.scenario): \(seen)")
            XCTAssertEqual(seen["closed"] as? Bool, true, entry.scenario)
            let after = try peer("priority")
            XCTAssertEqual(after["status"] as? String, "200", "served after \(entry.scenario)")
        }
        // Each attack is reported once (malformed input is the peer's
        // error, not the server's: not reported).
        XCTAssertEqual(reports.names.filter { $0.hasPrefix("HTTP/2: ") }.count, 5, "\(reports.names)")
    }

    /// A paced body (`HTTPResponseBody.values`) for a client that reads
    /// and gives no window back: the server sends the stream's window
    /// (65,535 bytes) and the producer stops one queue's worth (64 KiB)
    /// and a piece beyond it, not at the body's 64 MiB.
    func testPacedBody_ToAClientThatDoesNotOpenItsWindow_IsHeldAtTheStreamsPace() throws {
        let produced = Shared(0)
        let directory = try TemporaryDirectory("rxuv-http2-pace")
        defer { directory.remove() }
        var router = HTTP2ServerTests.router(files: directory.path, loop: loop)
        router.get("/endless") { _ in
            let piece = ByteBuffer(Array(repeating: UInt8(ascii: "e"), count: 16_384))
            let pieces = AsyncStream<ByteBuffer>(unfolding: {
                var total = 0
                produced.mutate {
                    $0 += piece.count
                    total = $0
                }
                return total <= 64 << 20 ? piece : nil
            })
            return .just(HTTPServerResponse(body: .values(pieces)))
        }
        let routes = router
        let seen = try withHTTP2Server(handler: routes.handler) { [loop = loop!] server in
            UncheckedSendable(try await loop.h2Peer("slow-reader", port: server.address.port))
        }.value
        XCTAssertEqual(seen["status"] as? String, "200")
        let received = try XCTUnwrap(seen["received"] as? Int)
        XCTAssertEqual(received, 65_535, "the stream's window, all of it and no more")
        XCTAssertLessThanOrEqual(produced.value, 65_535 + 65_536 + 2 * 16_384, "the producer ran ahead of the stream's pace")
    }

    /// A head past `HTTPLimits.maxHeadLength` is answered `431`, and the
    /// connection serves on.
    func testHeadOverTheLimit_Answered431() throws {
        let seen = try peer("big-head", http: HTTPServerOptions(limits: HTTPLimits(maxHeadLength: 4096)))
        XCTAssertEqual(seen["status"] as? String, "431")
        XCTAssertEqual(seen["next"] as? String, "200")
    }

    /// A body over `HTTPLimits.maxBodyLength`, declared or sent, is
    /// answered `413`.
    func testBodyOverTheLimit_Answered413() throws {
        let seen = try peer("too-large-body", http: HTTPServerOptions(limits: HTTPLimits(maxBodyLength: 100_000)))
        XCTAssertEqual(seen["declared"] as? String, "413")
        XCTAssertEqual(seen["streamed"] as? String, "413")
    }

    /// A 500 KB body the handler does not read is dropped, its window
    /// given back: under the default bound (1 MiB) it is taken whole (no
    /// reset, which curl 7 would take for an error); over a 100 KB bound
    /// the request is asked to stop once the answer is out (RST_STREAM
    /// NO_ERROR).
    func testUnreadBody_DroppedUpToTheBound_ThenTheRequestIsAskedToStop() throws {
        let small = try peer("unread")
        XCTAssertEqual(small["status"] as? String, "200", "\(small)")
        XCTAssertEqual(small["sentAll"] as? Bool, true, "\(small)")
        XCTAssertTrue(small["reset"] is NSNull, "\(small)")
        let big = try peer("unread", http2: HTTP2Options(maxDiscardedBody: 100_000))
        XCTAssertEqual(big["status"] as? String, "200", "\(big)")
        XCTAssertEqual(big["reset"] as? Int, 0, "\(big)")
        XCTAssertEqual(big["sentAll"] as? Bool, false, "\(big)")
    }

    /// With 4 concurrent streams allowed, the 5th and 6th sent at once are
    /// refused (REFUSED_STREAM, safe to retry); the first 4 are answered.
    func testStreamsPastTheLimit_AreRefused() throws {
        let seen = try peer("too-many-streams", http2: HTTP2Options(maxConcurrentStreams: 4))
        XCTAssertEqual(seen["answered"] as? Int, 4, "\(seen)")
        XCTAssertEqual(seen["refused"] as? Int, 2, "\(seen)")
    }

    /// The server's drain sends GOAWAY (NO_ERROR) naming the stream in
    /// hand, answers it, then closes: seen by nghttp (hyper-h2 drops the
    /// frames that follow a GOAWAY, so it cannot see the answer).
    func testDrain_SendsGOAWAY_AnswersTheStreamInHand_AndCloses() throws {
        let directory = try TemporaryDirectory("rxuv-http2-drain")
        defer { directory.remove() }
        let server = Box<Server?>(nil)
        let router = HTTP2ServerTests.router(files: directory.path, loop: loop, server: server)
        let output = try withHTTP2Server(handler: router.handler) { [loop = loop!] running in
            server.value = running
            let output = try await loop.run("nghttp", ["-v", "http://127.0.0.1:\(running.address.port)/drain"])
            server.value = nil
            return output
        }
        XCTAssertTrue(output.contains("recv GOAWAY frame"), output)
        // nghttp opens its request after its priority anchors' ids: the
        // GOAWAY names it, not 0.
        XCTAssertNotNil(output.range(of: #"last_stream_id=[1-9][0-9]*, error_code=NO_ERROR\(0x00\)"#, options: .regularExpression), output)
        XCTAssertTrue(output.contains(":status: 200"), output)
        XCTAssertTrue(output.contains("draining"), output)
    }

    /// The head timeout, table-driven: a header block begun and not
    /// finished (slowloris), and a connection that sends its preface and
    /// no stream, each end with a GOAWAY (NO_ERROR) and a close.
    func testHeadTimeout_SlowHeaderBlockOrNoStream_SendsGOAWAY_AndCloses() throws {
        for scenario in ["slow-head", "silent"] {
            let seen = try peer(scenario, http: HTTPServerOptions(headTimeout: .milliseconds(300)))
            XCTAssertEqual(seen["goaway"] as? Int, 0, "\(scenario): \(seen)")
            XCTAssertEqual(seen["closed"] as? Bool, true, scenario)
            let after = try XCTUnwrap(seen["after"] as? Double, scenario)
            XCTAssertGreaterThanOrEqual(after, 0.25, scenario)
            XCTAssertLessThan(after, 2.0, scenario)
        }
    }

    /// A connection with no stream open for the idle timeout is told
    /// GOAWAY (NO_ERROR) and closed.
    func testIdleTimeout_SendsGOAWAY_AndCloses() throws {
        let seen = try peer("idle", http: HTTPServerOptions(idleTimeout: .milliseconds(300)))
        XCTAssertEqual(seen["status"] as? String, "200")
        XCTAssertEqual(seen["goaway"] as? Int, 0)
        XCTAssertEqual(seen["closed"] as? Bool, true)
        let after = try XCTUnwrap(seen["after"] as? Double)
        XCTAssertLessThan(after, 2.0)
    }
}
