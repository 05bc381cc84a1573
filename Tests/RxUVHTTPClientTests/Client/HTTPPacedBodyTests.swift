import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import Synchronization
import XCTest

/// Bodies that an `AsyncSequence` produces, pulled at the pace of the
/// connection: an upload held to a slow server's pace, and a proxy that
/// streams both ways (a client's response body as a server's response, a
/// server's request body as a client's request).
final class HTTPPacedBodyTests: BridgeTestCase {
    /// 32 MiB produced as fast as asked, to a handler that reads 64 KiB a
    /// millisecond: the producer never gets far ahead of the reader (the
    /// socket buffers and a watermark), and every byte arrives.
    func testUpload_HeldToTheServersPace() throws {
        let total = 32 << 20
        let piece = ByteBuffer([UInt8](repeating: 0x63, count: 64 * 1024))
        let produced = Atomic<Int>(0)
        let consumed = Atomic<Int>(0)
        let lead = Atomic<Int>(0)
        let handler: HTTPHandler = httpHandler { request async throws -> HTTPServerResponse in
            var count = 0
            for try await piece in request.body.values(highWatermark: 128 * 1024, lowWatermark: 32 * 1024) {
                count += piece.count
                consumed.store(count, ordering: .relaxed)
                try await Task.sleep(for: .milliseconds(1))
            }
            return .text("\(count)")
        }
        let answer = try withClient(http: HTTPServerOptions(limits: HTTPLimits(maxBodyLength: 64 << 20)), handler: handler) { client, port in
            let pieces = AsyncStream<ByteBuffer> { continuation in
                // Produced one at a time, as the consumer asks.
                continuation.onTermination = { _ in }
                for _ in 0..<(total / piece.count) { continuation.yield(piece) }
                continuation.finish()
            }
            let counted = pieces.map { piece in
                let now = produced.add(piece.count, ordering: .relaxed).newValue
                let ahead = now - consumed.load(ordering: .relaxed)
                if ahead > lead.load(ordering: .relaxed) { lead.store(ahead, ordering: .relaxed) }
                return piece
            }
            return try await client.execute(local(port, "/upload", .post), body: .values(counted, length: total)).text()
        }
        XCTAssertEqual(answer, "\(total)")
        let ahead = lead.load(ordering: .relaxed)
        XCTAssertLessThan(ahead, 16 << 20, "the producer ran \(ahead) bytes ahead of the reader")
    }

    /// A proxy: a route that sends each request on to an upstream server
    /// with the client, the request's body as the upstream request's and
    /// the upstream response's body as its own, both paced. A download of
    /// 3 MiB and an upload of 3 MiB arrive byte for byte.
    func testProxy_StreamsBothWays() throws {
        var generator = SeededGenerator(seed: 5151)
        let data = ByteBuffer((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var upstream = HTTPRouter()
        upstream.get("/data") { _ in .just(HTTPServerResponse(body: .bytes(data))) }
        upstream.post("/sum") { request async throws -> HTTPServerResponse in
            var sum = 0
            var count = 0
            for try await piece in request.body.values {
                for byte in piece { sum = (sum &+ Int(byte)) % 1_000_003 }
                count += piece.count
            }
            return .text("\(count) \(sum)")
        }
        let expectedSum = data.reduce(0) { ($0 &+ Int($1)) % 1_000_003 }
        let upstreamHandler = upstream.handler
        let results = try loop.run { [loop = loop!] in
            let large = HTTPServerOptions(limits: HTTPLimits(maxBodyLength: 64 << 20))
            let origin = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, http: large, handler: upstreamHandler).value
            let upstreamClient = HTTPClient(loop: loop)
            let originPort = origin.address.port
            let proxy = try await loop.rx.serveHTTP(host: "127.0.0.1", port: 0, http: large) { request in
                Single.create { () async throws -> HTTPServerResponse in
                    let forwarded = HTTPRequest(
                        method: request.head.method, scheme: "http", authority: "127.0.0.1:\(originPort)", path: request.head.path)
                    let response = try await upstreamClient.execute(
                        forwarded, body: .values(request.body.values, length: request.body.declaredLength))
                    return HTTPServerResponse(
                        status: response.status, body: .values(response.body.values, length: response.body.declaredLength))
                }
            }.value
            let client = HTTPClient(loop: loop)
            let port = proxy.address.port
            let download = try await client.execute(local(port, "/data")).body.collect(upTo: 16 << 20).value
            let sum = try await client.execute(local(port, "/sum", .post), body: .bytes(data)).text()
            try await client.shutdown().value
            try await proxy.drain(deadline: .seconds(2)).value
            try await upstreamClient.shutdown().value
            try await origin.drain(deadline: .seconds(2)).value
            return (download == data, sum)
        }
        XCTAssertTrue(results.0, "the download arrived byte for byte")
        XCTAssertEqual(results.1, "\(data.count) \(expectedSum)")
    }
}
