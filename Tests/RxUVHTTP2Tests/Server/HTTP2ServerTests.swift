import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTestSupport
import XCTest

/// The HTTP/2 server with real clients: curl (`--http2-prior-knowledge`)
/// over every kind of answer the HTTP/1.1 server gives, and h2load's load.
final class HTTP2ServerTests: BridgeTestCase {
    /// The routes most tests share, the same `HTTPRouter` an HTTP/1.1
    /// server would take.
    static func router(files: String, loop: Loop, disposed: Flag = Flag(), server: Box<Server?> = Box(nil)) -> HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .just(.text("hello")) }
        router.get("/version") { request in .just(.text("\(request.majorVersion).\(request.minorVersion)")) }
        router.get("/users/{id}") { request in .just(.text("user \(request.parameters["id"] ?? "?")")) }
        router.post("/echo") { request in
            request.body.collect(upTo: 1 << 20).map { body in
                HTTPServerResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"], body: .bytes(body))
            }
        }
        router.post("/ignore") { _ in .just(.text("ignored")) }
        // The body back, with trailers that say what the request's were.
        router.post("/trailers") { request in
            request.body.collect(upTo: 1 << 20).map { body in
                let sum = request.body.trailerFields?[HTTPField.Name("x-sum")!] ?? "none"
                return HTTPServerResponse(body: .stream(.just(body), trailers: { [HTTPField.Name("x-echo-sum")!: sum] }))
            }
        }
        router.get("/stream") { _ in
            .just(HTTPServerResponse(body: .stream(Observable.from(["one ", "two ", "three"].map { ByteBuffer(string: $0) }))))
        }
        router.get("/paced") { _ in
            let pieces = AsyncStream<ByteBuffer> { continuation in
                for index in 0..<8 { continuation.yield(ByteBuffer(Array(repeating: UInt8(65 + index), count: 50_000))) }
                continuation.finish()
            }
            return .just(HTTPServerResponse(body: .values(pieces, length: 400_000)))
        }
        router.get("/file") { _ in .just(HTTPServerResponse(body: .file(path: files + "/big", range: 1000..<301_000))) }
        router.get("/open-file") { request in
            request.loop.rx.openFile(path: files + "/big").map { HTTPServerResponse(body: .file($0, range: 0..<Int64($0.status.size))) }
        }
        router.get("/async") { (_: HTTPServerRequest) async throws -> HTTPServerResponse in
            try await Task.sleep(for: .milliseconds(10))
            return .text("async")
        }
        router.get("/forbidden") { _ in .error(HTTPError(.forbidden, message: "not yours")) }
        router.get("/fail") { _ in .error(UVError(code: .invalidArgument, operation: "a handler that fails")) }
        router.get("/never") { _ in Single.create { _ in Disposables.create { disposed.set() } } }
        router.get("/late") { _ in Single.just(HTTPServerResponse.text("late")).delay(.milliseconds(300), scheduler: loop) }
        router.post("/late-read") { request in
            Single<Int>.timer(.milliseconds(300), scheduler: loop)
                .flatMap { _ in request.body.collect(upTo: 1 << 20) }
                .map { .text("\($0.count)") }
        }
        router.get("/drain") { _ in
            if let server = server.value { _ = server.drain(deadline: .seconds(2)).subscribe() }
            return Single.just(HTTPServerResponse.text("draining")).delay(.milliseconds(200), scheduler: loop)
        }
        return router
    }

    /// A 400,000-byte file of a known pattern, in a temporary folder.
    func makeFiles() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("rxuv-http2")
        let bytes = (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        FileManager.default.createFile(atPath: directory.path + "/big", contents: Data(bytes))
        return directory
    }

    /// Each kind of answer, as curl sees it over HTTP/2: status, HTTP
    /// version and body (or its length), table-driven.
    func testCurl_EveryKindOfAnswer_ComesBackOverHTTP2() throws {
        let files = try makeFiles()
        defer { files.remove() }
        let big = try Data(contentsOf: URL(fileURLWithPath: files.path + "/big"))
        let upload = files.path + "/upload"
        let uploaded = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        FileManager.default.createFile(atPath: upload, contents: uploaded)
        let paced = Data((0..<8).flatMap { index in Array(repeating: UInt8(65 + index), count: 50_000) })
        let cases: [(path: String, extra: [String], status: String, body: Data)] = [
            ("/hello", [], "200 2", Data("hello".utf8)),
            ("/version", [], "200 2", Data("2.0".utf8)),
            ("/users/42", [], "200 2", Data("user 42".utf8)),
            ("/echo", ["--data-binary", "@" + upload], "200 2", uploaded),
            ("/stream", [], "200 2", Data("one two three".utf8)),
            ("/paced", [], "200 2", paced),
            ("/file", [], "200 2", big[1000..<301_000]),
            ("/open-file", [], "200 2", big),
            ("/async", [], "200 2", Data("async".utf8)),
            ("/forbidden", [], "403 2", Data("not yours\n".utf8)),
            ("/fail", [], "500 2", Data("Internal Server Error\n".utf8)),
            ("/nowhere", [], "404 2", Data("Not Found\n".utf8)),
            ("/hello", ["-I"], "200 2", Data()),
        ]
        let root = files.path
        let reports = CapturedReports(on: loop)
        let outcomes = try withHTTP2Server(handler: Self.router(files: root, loop: loop).handler) { [loop = loop!] server in
            var outcomes: [(String, Data)] = []
            for (index, entry) in cases.enumerated() {
                let output = root + "/out\(index)"
                let code = try await loop.run(
                    "curl",
                    ["-sS", "--http2-prior-knowledge", "-o", output, "-w", "%{http_code} %{http_version}"] + entry.extra
                        + ["http://127.0.0.1:\(server.address.port)\(entry.path)"])
                let body = entry.extra == ["-I"] ? Data() : (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
                outcomes.append((code, body))
            }
            return outcomes
        }
        for (entry, outcome) in zip(cases, outcomes) {
            XCTAssertEqual(outcome.0, entry.status, entry.path)
            XCTAssertEqual(outcome.1, entry.body, "\(entry.path): \(outcome.1.count) bytes, expected \(entry.body.count)")
        }
        XCTAssertEqual(reports.names, ["EINVAL"], "the failing handler's error is reported once")
    }

    /// h2load: 4 connections, 10 streams each at once, 4,000 requests over
    /// three routes; every one succeeds.
    func testH2load_ManyStreamsOnFewConnections_AllSucceed() throws {
        let files = try makeFiles()
        defer { files.remove() }
        let output = try withHTTP2Server(handler: Self.router(files: files.path, loop: loop).handler) { [loop = loop!] server in
            let base = "http://127.0.0.1:\(server.address.port)"
            return try await loop.run("h2load", ["-c", "4", "-m", "10", "-n", "4000", base + "/hello", base + "/users/7", base + "/async"])
        }
        XCTAssertTrue(output.contains("4000 succeeded, 0 failed, 0 errored, 0 timeout"), output)
        XCTAssertTrue(output.contains("status codes: 4000 2xx"), output)
    }

    /// HTTP/1.1 and HTTP/2 with prior knowledge on one cleartext port, the
    /// version told by each connection's first bytes, table-driven: curl
    /// over HTTP/1.1 (a body too), curl and nghttp over h2c, and a client
    /// that sends its first bytes one at a time (the sniffer waits for
    /// enough of them) and one that sends nothing (closed at the head
    /// timeout).
    func testOnePort_HTTP1AndH2c_ToldByTheFirstBytes() throws {
        var routes = HTTPRouter()
        routes.get("/version") { request in .just(.text("HTTP/\(request.majorVersion).\(request.minorVersion)")) }
        routes.post("/echo") { request in request.body.collect(upTo: 1 << 20).map { HTTPServerResponse(body: .bytes($0)) } }
        let router = routes
        let outputs = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serveHTTP(
                host: "127.0.0.1", port: 0, versions: [.http1, .http2], http: HTTPServerOptions(headTimeout: .milliseconds(300)),
                handler: router.handler
            ).value
            let url = "http://127.0.0.1:\(server.address.port)"
            var outputs = [
                try await loop.run("curl", ["-sS", "--http1.1", url + "/version"]),
                try await loop.run("curl", ["-sS", "--http1.1", "--data-binary", "hello", url + "/echo"]),
                try await loop.run("curl", ["-sS", "--http2-prior-knowledge", url + "/version"]),
                try await loop.run("curl", ["-sS", "--http2-prior-knowledge", "--data-binary", "hello", url + "/echo"]),
                try await loop.run("nghttp", [url + "/version"]),
            ]
            // One byte at a time, then a half-close: "GET /version..."
            // parts from the preface at its first byte; HTTP/2's preface,
            // SETTINGS and a HEADERS for GET /version (HPACK: :method GET,
            // :scheme http, :path as a literal, :authority) is told at its
            // 24th. Each answer's body is found in what comes back.
            let http1 = Array("GET /version HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let head: [UInt8] = [0x82, 0x86, 0x44, 0x08] + Array("/version".utf8) + [0x41, 0x01, UInt8(ascii: "x")]
            let http2 =
                Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 0x4, 0, 0, 0, 0, 0]
                + [0, 0, UInt8(head.count), 0x1, 0x5, 0, 0, 0, 1] + head
            for request in [http1, http2] {
                let client = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
                for byte in request { try await client.write(ByteBuffer([byte])).value }
                try await client.shutdown().value
                let answer = try await client.rx.data.reduce(ByteBuffer()) { $0 + $1 }.timeout(.seconds(5), scheduler: loop).asSingle().value
                outputs.append(["HTTP/1.1", "HTTP/2.0"].first { answer.string.contains($0 + "\n") || answer.string.hasSuffix($0) } ?? answer.string)
                client.close()
            }
            // Nothing: closed at the head timeout.
            let silent = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            let started = Loop.monotonicNanoseconds
            let heard = try await silent.rx.data.reduce(0) { $0 + $1.count }.timeout(.seconds(5), scheduler: loop).asSingle().value
            let waited = Double(Loop.monotonicNanoseconds - started) / 1e9
            silent.close()
            outputs.append("silent: \(heard) bytes, \(waited >= 0.25 && waited < 2 ? "closed at the timeout" : "closed after \(waited) s")")
            try await server.drain(deadline: .seconds(2)).value
            return outputs
        }
        XCTAssertEqual(outputs, ["HTTP/1.1", "hello", "HTTP/2.0", "hello", "HTTP/2.0", "HTTP/1.1", "HTTP/2.0", "silent: 0 bytes, closed at the timeout"])
    }
}
