import Foundation
import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTestSupport
import XCTest

/// The client against RxUV's own HTTP server: methods, bodies both ways,
/// the framing of responses without a body, keep-alive reuse.
final class HTTPClientTests: BridgeTestCase {
    /// Routes that show what the server received.
    static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .just(.text("hello")) }
        // The peer's address: the same for two requests on one connection.
        router.get("/peer") { request in .just(.text(request.peer ?? "?")) }
        router.get("/fields") { request in
            let request = request.head
            return .just(.text("host=\(request.authority ?? "-") agent=\(request.headerFields[.userAgent] ?? "-") x=\(request.headerFields[HTTPField.Name("X-Test")!] ?? "-")"))
        }
        router.post("/echo") { request in
            let framing = request.body.declaredLength.map { "length \($0)" } ?? "chunked"
            return request.body.collect(upTo: 64 << 20).map { body in
                HTTPServerResponse(status: .ok, headerFields: [HTTPField.Name("X-Framing")!: framing], body: .bytes(body))
            }
        }
        router.add(.put, "/echo") { request in
            request.body.collect(upTo: 1 << 20).map { HTTPServerResponse(body: .bytes($0)) }
        }
        router.get("/empty") { _ in .just(HTTPServerResponse(status: .noContent)) }
        router.get("/not-modified") { _ in .just(HTTPServerResponse(status: .notModified, headerFields: [.eTag: "\"a\""])) }
        router.get("/chunks") { _ in
            .just(HTTPServerResponse(body: .stream(Observable.from(["one ", "two ", "three"]).map { ByteBuffer(string: $0) })))
        }
        router.get("/large") { _ in
            .just(HTTPServerResponse(body: .bytes(ByteBuffer([UInt8](repeating: 0x61, count: 3 << 20)))))
        }
        return router
    }

    func testGet_ReturnsStatusFieldsAndBody() throws {
        let (status, type, text) = try withClient(handler: Self.router.handler) { client, port in
            let response = try await client.execute(local(port, "/hello"))
            return (response.status, response.headerFields[.contentType], try await response.text())
        }
        XCTAssertEqual(status, .ok)
        XCTAssertEqual(type, "text/plain; charset=utf-8")
        XCTAssertEqual(text, "hello")
    }

    /// `Host` is the request's authority; the default `User-Agent` goes
    /// unless the request has its own (with no fields of its own, or beside
    /// others); the request's fields go as given.
    func testHead_CarriesHostDefaultsAndOwnFields() throws {
        let texts = try withClient(handler: Self.router.handler) { client, port in
            let first = try await client.execute(local(port, "/fields")).text()
            let own = try await client.execute(local(port, "/fields", fields: [.userAgent: "mine", HTTPField.Name("X-Test")!: "1"])).text()
            let merged = try await client.execute(local(port, "/fields", fields: [HTTPField.Name("X-Test")!: "2"])).text()
            return [first, own, "\(port)", merged]
        }
        XCTAssertEqual(texts[0], "host=127.0.0.1:\(texts[2]) agent=RxUV x=-")
        XCTAssertEqual(texts[1], "host=127.0.0.1:\(texts[2]) agent=mine x=1")
        XCTAssertEqual(texts[3], "host=127.0.0.1:\(texts[2]) agent=RxUV x=2")
    }

    /// Sequential requests reuse one kept-alive connection: the server
    /// sees one peer.
    func testSequentialRequests_ReuseOneConnection() throws {
        let peers = try withClient(handler: Self.router.handler) { client, port in
            var peers: [String] = []
            for _ in 0..<5 { peers.append(try await client.execute(local(port, "/peer")).text()) }
            return peers
        }
        XCTAssertEqual(Set(peers).count, 1, "\(peers)")
    }

    /// Each kind of request body arrives whole, framed as it should be.
    func testRequestBodies_BytesStreamChunkedAndFile() throws {
        let directory = try TemporaryDirectory("client-upload")
        let path = directory.path + "/upload"
        let fileBytes = (0..<200_000).map { UInt8($0 % 251) }
        try Data(fileBytes).write(to: URL(fileURLWithPath: path))
        let results = try withClient(handler: Self.router.handler) { [loop = loop!] client, port in
            var results: [(String?, Int, Bool)] = []
            func post(_ body: HTTPClientRequestBody, expect: [UInt8]) async throws {
                let response = try await client.execute(local(port, "/echo", .post), body: body)
                let bytes = try await response.body.collect(upTo: 1 << 24).value
                results.append((response.headerFields[HTTPField.Name("X-Framing")!], bytes.count, Array(bytes) == expect))
            }
            try await post(.string("abc"), expect: Array("abc".utf8))
            let pieces = ["a", "bb", "", "ccc"].map { ByteBuffer(string: $0) }
            try await post(.stream(Observable.from(pieces)), expect: Array("abbccc".utf8))
            try await post(.stream(Observable.from(pieces), length: 6), expect: Array("abbccc".utf8))
            let file = try await loop.rx.openFile(path: path).value
            try await post(.file(file, range: 0..<Int64(fileBytes.count)), expect: fileBytes)
            try await post(.empty, expect: [])
            return results
        }
        XCTAssertEqual(results.map { $0.0 }, ["length 3", "chunked", "length 6", "length 200000", "length 0"])
        XCTAssertEqual(results.map { $0.1 }, [3, 6, 6, 200_000, 0])
        XCTAssertEqual(results.map { $0.2 }, [true, true, true, true, true])
    }

    /// HEAD, 204 and 304 have no body, though their heads may say a
    /// length; a chunked body arrives whole; the connection stays usable
    /// after each.
    func testResponsesWithoutBody_AndChunkedBody() throws {
        let results = try withClient(handler: Self.router.handler) { client, port in
            var results: [String] = []
            for (method, path) in [(HTTPRequest.Method.head, "/hello"), (.get, "/empty"), (.get, "/not-modified"), (.get, "/chunks"), (.get, "/peer")] {
                let response = try await client.execute(local(port, path, method))
                results.append("\(response.status.code) \(response.headerFields[.contentLength] ?? "-") \(response.body.declaredLength.map(String.init) ?? "nil") [\(try await response.text())]")
            }
            results.append(try await client.execute(local(port, "/peer")).text())
            return results
        }
        XCTAssertEqual(results[0], "200 5 0 []")
        XCTAssertEqual(results[1], "204 - 0 []")
        XCTAssertEqual(results[2], "304 - 0 []")
        XCTAssertEqual(results[3], "200 - nil [one two three]")
        // One connection carried all of them.
        XCTAssertEqual(results[4], "200 \(results[5].utf8.count) \(results[5].utf8.count) [\(results[5])]")
    }

    /// The body of a large response arrives whole through `values`.
    func testLargeBody_ThroughValues() throws {
        let count = try withClient(handler: Self.router.handler) { client, port in
            let response = try await client.execute(local(port, "/large"))
            var count = 0
            for try await piece in response.body.values(highWatermark: 64 * 1024, lowWatermark: 16 * 1024) {
                XCTAssertTrue(piece.allSatisfy { $0 == 0x61 })
                count += piece.count
            }
            return count
        }
        XCTAssertEqual(count, 3 << 20)
    }

    /// The `Single` face: the head on the loop thread, the body's bytes
    /// too, and a request made invalid is refused before anything is sent.
    func testRxSend_OnLoopThread_AndInvalidRequestsRefused() throws {
        let (onLoop, errors) = try withClient(handler: Self.router.handler) { [loop = loop!] client, port in
            let onLoop = try await client.rx.send(local(port, "/hello")).flatMap { response in
                response.body.collect(upTo: 100).map { _ in loop.isOnLoopThread }
            }.value
            var errors: [HTTPClientError.Code] = []
            for request in [
                HTTPRequest(method: .get, scheme: "ftp", authority: "127.0.0.1:\(port)", path: "/"),
                HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/"),
                HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:99999", path: "/"),
                HTTPRequest(method: .get, scheme: "http", authority: "user@127.0.0.1:\(port)", path: "/"),
                HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/a b"),
            ] {
                do {
                    _ = try await client.execute(request)
                    XCTFail("sent \(request)")
                } catch let error as HTTPClientError {
                    errors.append(error.code)
                }
            }
            return (onLoop, errors)
        }
        XCTAssertTrue(onLoop)
        XCTAssertEqual(errors, Array(repeating: .invalidRequest, count: 5))
    }

    /// A server that refuses a body mid-upload answers before it closes:
    /// the client, whose writes then fail, delivers the answer (413), not
    /// the write's `EPIPE`, and the next request goes on a new connection.
    func testUploadRefusedMidBody_TheAnswerIsDelivered() throws {
        let results = try withClient(handler: Self.router.handler) { client, port in
            let big = ByteBuffer([UInt8](repeating: 0x7A, count: 8 << 20))
            let refused = try await client.execute(local(port, "/echo", .post), body: .bytes(big))
            return ["\(refused.status.code)", try await client.execute(local(port, "/peer")).status.code.description]
        }
        XCTAssertEqual(results, ["413", "200"])
    }
}
