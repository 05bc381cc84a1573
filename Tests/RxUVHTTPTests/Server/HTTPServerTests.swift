import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport
import Synchronization
import XCTest

/// The server face with real clients: Python's `http.client`, curl, and raw
/// sockets for what clients do not do on their own (pipelining).
final class HTTPServerTests: BridgeTestCase {
    /// The routes most tests share: a greeting, a parameter, an echo of
    /// the body, a streamed body, an `async` handler and a failing one.
    static var router: HTTPRouter {
        var router = HTTPRouter()
        router.get("/hello") { _ in .just(.text("hello")) }
        router.get("/users/{id}") { request in .just(.text("user \(request.parameters["id"] ?? "?")")) }
        router.post("/echo") { request in
            request.body.collect(upTo: 1 << 20).map { body in
                HTTPServerResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"], body: .bytes(body))
            }
        }
        router.get("/stream") { _ in
            .just(HTTPServerResponse(body: .stream(Observable.from(["one ", "two ", "three"]).map { ByteBuffer(string: $0) })))
        }
        router.get("/async") { request async throws -> HTTPServerResponse in
            try await Task.sleep(for: .milliseconds(5))
            return .text("async on loop: \(request.loop.isOnLoopThread)")
        }
        router.get("/fail") { _ in .error(UVError(code: .invalidArgument, operation: "handler")) }
        return router
    }

    /// One keep-alive connection of Python's `http.client` makes every kind
    /// of request; each answer has the status, fields and body it should.
    func testPythonClient_KeepAlive_AnswersEveryRoute() throws {
        let reports = CapturedReports(on: loop)
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
            def ask(method, path, body=None, headers={}, chunked=False):
                c.request(method, path, body=body, headers=headers, encode_chunked=chunked)
                r = c.getresponse()
                data = r.read()
                print(method, path, r.status, r.getheader("Content-Length"), r.getheader("Transfer-Encoding"), r.getheader("Allow"), data.decode().strip())
                assert r.getheader("Date", "").endswith(" GMT"), r.getheaders()
            ask("GET", "/hello")
            ask("GET", "/users/42")
            ask("GET", "/users/a%20b")
            ask("POST", "/echo", b"x" * 70000)
            ask("POST", "/echo", iter([b"abc", b"def"]), {"Transfer-Encoding": "chunked"}, chunked=True)
            ask("GET", "/stream")
            ask("GET", "/async")
            ask("HEAD", "/hello")
            ask("GET", "/missing")
            ask("DELETE", "/hello")
            ask("GET", "/fail")
            ask("GET", "/hello")
            ask("POST", "/echo", b"y" * 4096)
            ask("POST", "/echo", b"z" * 4097)
            """
        let output = try withHTTPServer(handler: Self.router.handler) { [loop = loop!] server in
            try await loop.python(script, ["\(server.address.port)"])
        }
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 14, output)
        XCTAssertEqual(lines[0], "GET /hello 200 5 None None hello")
        XCTAssertEqual(lines[1], "GET /users/42 200 7 None None user 42")
        XCTAssertEqual(lines[2], "GET /users/a%20b 200 8 None None user a b")
        XCTAssertEqual(lines[3], "POST /echo 200 70000 None None " + String(repeating: "x", count: 70000))
        XCTAssertEqual(lines[4], "POST /echo 200 6 None None abcdef")
        XCTAssertEqual(lines[5], "GET /stream 200 None chunked None one two three")
        XCTAssertEqual(lines[6], "GET /async 200 19 None None async on loop: true")
        XCTAssertEqual(lines[7], "HEAD /hello 200 5 None None ")
        XCTAssertEqual(lines[8], "GET /missing 404 10 None None Not Found")
        XCTAssertEqual(lines[9], "DELETE /hello 405 19 None GET Method Not Allowed")
        XCTAssertEqual(lines[10], "GET /fail 500 22 None None Internal Server Error")
        XCTAssertEqual(lines[11], "GET /hello 200 5 None None hello")
        // The largest body written in its head's buffer, and the smallest
        // written beside it.
        XCTAssertEqual(lines[12], "POST /echo 200 4096 None None " + String(repeating: "y", count: 4096))
        XCTAssertEqual(lines[13], "POST /echo 200 4097 None None " + String(repeating: "z", count: 4097))
        XCTAssertEqual(reports.names, ["EINVAL"])
    }

    /// A router of more literal paths than it compares in turn looks them
    /// up by hash, with the same answers: the route, its query ignored;
    /// 405 with `Allow` for a path of another method; 404 for none.
    func testRouter_ManyLiteralPaths_SameAnswers() throws {
        var router = HTTPRouter()
        for index in 0..<12 {
            router.get("/r\(index)") { _ in .just(.text("route \(index)")) }
        }
        router.post("/r3") { _ in .just(.text("posted")) }
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
            for method, path in [("GET", "/r0"), ("GET", "/r7"), ("GET", "/r11?x=1"), ("POST", "/r3"), ("DELETE", "/r5"), ("GET", "/r12")]:
                c.request(method, path)
                r = c.getresponse()
                print(method, path, r.status, r.getheader("Allow"), r.read().decode().strip())
            """
        let output = try withHTTPServer(handler: router.handler) { [loop = loop!] server in
            try await loop.python(script, ["\(server.address.port)"])
        }
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init),
            [
                "GET /r0 200 None route 0", "GET /r7 200 None route 7", "GET /r11?x=1 200 None route 11", "POST /r3 200 None posted",
                "DELETE /r5 405 GET Method Not Allowed", "GET /r12 404 None Not Found",
            ])
    }

    /// Patterns match the path's bytes: repeated and trailing slashes
    /// between segments do not count, `*` takes the rest (escapes decoded),
    /// a malformed escape in a parameter is 400.
    func testRouter_PatternsOnBytes_SlashesRestAndEscapes() throws {
        var router = HTTPRouter()
        router.get("/users/{id}/posts") { request in .just(.text("posts of \(request.parameters["id"] ?? "?")")) }
        router.get("/files/*") { request in .just(.text("file [\(request.parameters["*"] ?? "?")]")) }
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
            for path in ["/users/7/posts", "//users//7//posts/", "/users/%zz/posts", "/users/7", "/files/a/b%20c", "/files", "/files/%e2%82%ac", "/files/%ff"]:
                c.request("GET", path)
                r = c.getresponse()
                print(path, r.status, r.read().decode().strip())
            """
        let output = try withHTTPServer(handler: router.handler) { [loop = loop!] server in
            try await loop.python(script, ["\(server.address.port)"])
        }
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init),
            [
                "/users/7/posts 200 posts of 7", "//users//7//posts/ 200 posts of 7", "/users/%zz/posts 400 malformed percent escape",
                "/users/7 404 Not Found", "/files/a/b%20c 200 file [a/b c]", "/files 200 file []", "/files/%e2%82%ac 200 file [\u{20AC}]",
                "/files/%ff 400 malformed percent escape",
            ])
    }

    /// `onResponse` hears of every response as its head is written, on the
    /// loop thread, with the request's method, the status and the time
    /// since the head was decoded: handlers' answers, a handler's failure,
    /// a route that is not there and a request that is refused.
    func testOnResponse_RecordsEveryResponse() throws {
        let records = Mutex<[HTTPResponseRecord]>([])
        let offLoop = Mutex(0)
        var http = HTTPServerOptions()
        http.onResponse = { [loop = loop!] record in
            if !loop.isOnLoopThread { offLoop.withLock { $0 += 1 } }
            records.withLock { $0.append(record) }
        }
        let requests = [
            "GET /hello HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "HEAD /async HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /fail HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "DELETE /missing HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET / HTTP/1.1\\r\\nHost : x\\r\\n\\r\\n",
        ].joined()
        let reports = CapturedReports(on: loop)
        let output = try withHTTPServer(http, handler: Self.router.handler) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(requests)\""])
        }
        XCTAssertEqual(output.statusCodes, [200, 200, 500, 404, 400])
        let recorded = records.withLock { $0 }
        XCTAssertEqual(recorded.map(\.method), [.get, .head, .get, .delete, .get])
        XCTAssertEqual(recorded.map(\.status.code), [200, 200, 500, 404, 400])
        // The async handler sleeps 5 ms; the refusal has no request to time.
        XCTAssertGreaterThanOrEqual(recorded[1].duration, .milliseconds(5))
        XCTAssertGreaterThanOrEqual(recorded[1].nanoseconds, 5_000_000, "the same time in nanoseconds")
        XCTAssertTrue(recorded.allSatisfy { $0.duration >= .zero })
        XCTAssertEqual(recorded[4].duration, .zero)
        XCTAssertEqual(offLoop.withLock { $0 }, 0)
        XCTAssertEqual(reports.names, ["EINVAL"])
    }

    /// Ten requests in one send: answered in order, on one connection, the
    /// last (`Connection: close`) closing it.
    func testPipelining_TenRequestsInOneSend_AnsweredInOrder() throws {
        let requests = (0..<10).map { "GET /users/\($0) HTTP/1.1\\r\\nHost: x\\r\\n\($0 == 9 ? "Connection: close\\r\\n" : "")\\r\\n" }.joined()
        let output = try withHTTPServer(handler: Self.router.handler) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(requests)\"", "keep"])
        }
        XCTAssertEqual(output.statusCodes, Array(repeating: 200, count: 10))
        let bodies = output.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix(while: { $0 != "H" }) }
        XCTAssertEqual(bodies, (0..<10).map { "user \($0)"[...] })
        XCTAssertTrue(output.contains("Connection: close"), output)
    }

    /// Pipelined requests behind a slow one wait: the answers keep the
    /// requests' order although the second handler is ready first.
    func testPipelining_SlowFirstAnswer_KeepsOrder() throws {
        let handler: HTTPHandler = { [loop = loop!] request in
            let delay = request.path == "/slow" ? 100 : 0
            return Single.just(HTTPServerResponse.text(String(request.path))).delay(.milliseconds(delay), scheduler: loop)
        }
        let requests = ["/slow", "/fast", "/slow", "/fast"].map { "GET \($0) HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" }.joined()
        let output = try withHTTPServer(handler: handler) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(requests)\""])
        }
        XCTAssertEqual(output.statusCodes, [200, 200, 200, 200])
        let bodies = output.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.prefix(5) }
        XCTAssertEqual(bodies, ["/slow", "/fast", "/slow", "/fast"])
    }

    /// curl uploads with `Expect: 100-continue` (it waits for the `100`
    /// before the body) and chunked; both come back whole.
    func testCurl_ExpectContinueAndChunkedUpload_EchoTheBody() throws {
        let directory = try TemporaryDirectory("rxuv-http-curl")
        defer { directory.remove() }
        let upload = directory.path + "/upload"
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let output = try withHTTPServer(handler: Self.router.handler) { [loop = loop!] server in
            try await loop.rx.writeFile(path: upload, bytes: ByteBuffer(content)).value
            let url = "http://127.0.0.1:\(server.address.port)/echo"
            let expecting = try await loop.run(
                "curl", ["-sS", "--expect100-timeout", "30", "-H", "Expect: 100-continue", "--data-binary", "@" + upload, "-o", upload + ".1", "-w", "%{http_code}", url])
            let chunked = try await loop.run("curl", ["-sS", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload, "-o", upload + ".2", "-w", "%{http_code}", url])
            let first = try await loop.rx.readFile(path: upload + ".1").value
            let second = try await loop.rx.readFile(path: upload + ".2").value
            return [expecting, chunked, first == ByteBuffer(content) ? "same" : "different", second == ByteBuffer(content) ? "same" : "different"]
        }
        XCTAssertEqual(output, ["200", "200", "same", "same"])
    }

    /// A handler that answers without reading a body the client holds back
    /// for `100 Continue`: the answer closes the connection (the body that
    /// might follow cannot be taken for a request).
    func testExpectContinue_AnsweredWithoutReading_ClosesTheConnection() throws {
        let request = "POST /hello HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 5\\r\\nExpect: 100-continue\\r\\n\\r\\n"
        let output = try withHTTPServer(handler: { _ in .just(.text("no thanks")) }) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(request)\"", "keep"])
        }
        XCTAssertEqual(output.statusCodes, [200])
        XCTAssertFalse(output.contains("100 Continue"), output)
        XCTAssertTrue(output.contains("Connection: close"), output)
        XCTAssertTrue(output.hasSuffix("no thanks"), output)
    }

    /// `HEAD`, 204 and 304 carry no body; `HEAD` keeps the length a `GET`
    /// would have.
    /// A response kept and answered many times is written the same each
    /// time; one changed after it was made is written as changed; the
    /// server's name goes on every response that has no `Server` of its own.
    func testKeptAndChangedResponses_WrittenAsTheyAreNow() throws {
        let kept = HTTPServerResponse.text("kept")
        let handler: HTTPHandler = { request in
            switch request.path {
            case "/changed":
                var changed = kept
                changed.head.headerFields[HTTPField.Name("X-Changed")!] = "yes"
                changed.head.status = .accepted
                return .just(changed)
            case "/named":
                var named = kept
                named.head.headerFields[.server] = "its-own"
                return .just(named)
            default:
                return .just(kept)
            }
        }
        let requests = [
            "GET /kept HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /changed HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /kept HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /named HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n",
        ].joined()
        let output = try withHTTPServer(HTTPServerOptions(serverName: "rxuv-test"), handler: handler) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(requests)\"", "keep"])
        }
        XCTAssertEqual(output.statusCodes, [200, 202, 200, 200])
        let responses = output.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0) }
        XCTAssertEqual(responses.count, 4, output)
        for (index, response) in responses.enumerated() {
            XCTAssertTrue(response.contains("Content-Type: text/plain; charset=utf-8\r\n"), response)
            XCTAssertTrue(response.hasSuffix("\r\n\r\nkept"), response)
            XCTAssertEqual(response.components(separatedBy: "Server: ").count, 2, response)
            XCTAssertTrue(response.contains(index == 3 ? "Server: its-own\r\n" : "Server: rxuv-test\r\n"), response)
            XCTAssertEqual(response.contains("X-Changed: yes\r\n"), index == 1, response)
        }
    }

    func testNoBodyAnswers_HeadNoContentNotModified() throws {
        let handler: HTTPHandler = { request in
            switch request.path {
            case "/204": .just(HTTPServerResponse(status: .noContent, body: .string("ignored")))
            case "/304": .just(HTTPServerResponse(status: .notModified, body: .string("ignored")))
            default: .just(.text("twelve bytes"))
            }
        }
        let requests = [
            "HEAD /x HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /204 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
            "GET /304 HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n",
        ].joined()
        let output = try withHTTPServer(handler: handler) { [loop = loop!] server in
            try await loop.python(rawHTTPClient, ["\(server.address.port)", "b\"\(requests)\"", "keep"])
        }
        XCTAssertEqual(output.statusCodes, [200, 204, 304])
        XCTAssertFalse(output.contains("twelve") || output.contains("ignored"), output)
        XCTAssertTrue(output.contains("Content-Length: 12\r\n"), output)
    }

    /// Bodies from a file, by path (read on the thread pool) and open
    /// (`sendfile`): whole, a range, and one whose file is shorter than the
    /// range (the connection closes, the answer cut short).
    func testFileBody_WholeAndRange() throws {
        for open in [false, true] {
            let reports = CapturedReports(on: loop)
            let directory = try TemporaryDirectory("rxuv-http-file")
            defer { directory.remove() }
            let path = directory.path + "/file"
            let content = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
            let body: @Sendable (HTTPServerRequest, Range<Int64>) -> Single<HTTPResponseBody> = { request, range in
                open ? request.loop.rx.openFile(path: path).map { .file($0, range: range) } : .just(.file(path: path, range: range))
            }
            let handler: HTTPHandler = { request in
                switch request.path {
                case "/whole": body(request, 0..<300_000).map { HTTPServerResponse(body: $0) }
                case "/range": body(request, 1000..<201_000).map { HTTPServerResponse(status: .partialContent, body: $0) }
                default: body(request, 299_000..<301_000).map { HTTPServerResponse(body: $0) }
                }
            }
            let script = """
                import http.client, sys, hashlib
                c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
                for path in ["/whole", "/range"]:
                    c.request("GET", path)
                    r = c.getresponse()
                    print(path, r.status, hashlib.sha256(r.read()).hexdigest())
                c.request("GET", "/short")
                r = c.getresponse()
                try:
                    r.read()
                    print("/short whole")
                except http.client.IncompleteRead as e:
                    print("/short cut", len(e.partial))
                """
            let output = try withHTTPServer(handler: handler) { [loop = loop!] server in
                try await loop.rx.writeFile(path: path, bytes: ByteBuffer(content)).value
                return try await loop.python(script, ["\(server.address.port)"])
            }
            let whole = try sha256(content)
            let range = try sha256(Array(content[1000..<201_000]))
            XCTAssertEqual(output, "/whole 200 \(whole)\n/range 206 \(range)\n/short cut 1000\n", open ? "open file" : "by path")
            XCTAssertEqual(reports.names, ["EOF"], open ? "open file" : "by path")
        }
    }

    /// The same server on a Unix-domain socket.
    func testUnixSocket_ServesHTTP() throws {
        let directory = try TemporaryDirectory("rxuv-http-unix")
        defer { directory.remove() }
        let path = directory.path + "/http.sock"
        let script = """
            import http.client, socket, sys
            class UnixConnection(http.client.HTTPConnection):
                def connect(self):
                    self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    self.sock.connect(sys.argv[1])
            c = UnixConnection("localhost", timeout=10)
            c.request("GET", "/users/7")
            r = c.getresponse()
            print(r.status, r.read().decode())
            """
        let output = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serveHTTP(unixPath: path, handler: Self.router.handler).value
            let output = try await loop.python(script, [path])
            try await server.drain(deadline: .seconds(2)).value
            return output
        }
        XCTAssertEqual(output, "200 user 7\n")
    }

    /// The SHA-256 of `bytes`, from Python's hashlib (the tests' one
    /// reference).
    private func sha256(_ bytes: [UInt8]) throws -> String {
        try loop.run { [loop = loop!] in
            try await loop.python("import sys, hashlib; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest(), end='')", [], input: ByteBuffer(bytes))
        }
    }
}
