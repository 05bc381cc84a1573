import HTTPTypes
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

@testable import RxUVHTTP

/// The request decoder on hand-written requests: what it accepts and how,
/// what it refuses and with which status, whatever the reads' cuts.
final class HTTPRequestDecoderTests: BridgeTestCase {
    private func status(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
        (decodeAll([ByteBuffer(Array(text.utf8))], limits: limits).error as? HTTPParseError)?.status.code
    }

    func testHead_GetWithFields_ParsedAtEveryCut() throws {
        let text = Array("GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nX-Spaces:  padded \r\n\r\n".utf8)
        for cut in 0...text.count {
            let decoded = decodeAll(split(text, at: [cut]))
            XCTAssertNil(decoded.error, "cut \(cut)")
            guard case .head(let head)? = decoded.parts.first, decoded.parts.count == 1 else {
                return XCTFail("cut \(cut): \(decoded.parts)")
            }
            XCTAssertEqual(head.request.method, .get)
            XCTAssertEqual(head.request.path, "/a?b=1")
            XCTAssertEqual(head.request.authority, "example.com")
            XCTAssertEqual(head.request.headerFields[.accept], "*/*")
            XCTAssertEqual(head.request.headerFields[HTTPField.Name("X-Spaces")!], "padded")
            XCTAssertEqual(head.minorVersion, 1)
            XCTAssertEqual(head.body, .none)
            XCTAssertTrue(head.keepAlive)
        }
    }

    /// Methods as sent, case-sensitive (RFC 9110 §9.1): the common ones
    /// and any other token; `Host` in any case becomes the authority, its
    /// value without the whitespace around it, and never a field.
    func testMethodsAndHost_AsSent() throws {
        let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "PURGE", "get", "Post", "M-SEARCH"]
        for method in methods {
            for host in ["Host", "host", "HOST", "hOsT"] {
                let decoded = decodeAll([ByteBuffer(Array("\(method) / HTTP/1.1\r\n\(host): \t example.com:8080 \r\nHostname: x\r\n\r\n".utf8))])
                XCTAssertNil(decoded.error, "\(method), \(host)")
                guard case .head(let head)? = decoded.parts.first else { return XCTFail("\(method), \(host): \(decoded.parts)") }
                XCTAssertEqual(head.request.method.rawValue, method)
                XCTAssertEqual(head.request.authority, "example.com:8080")
                XCTAssertEqual(head.request.headerFields.map(\.name.rawName), ["Hostname"])
            }
        }
    }

    func testBody_LengthAndChunked_ByteAtATime() throws {
        let requests = Array(
            ("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
                + "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-Sum: 9\r\n\r\n"
                + "GET /last HTTP/1.0\r\n\r\n").utf8)
        let decoded = decodeAll(requests.map { ByteBuffer([$0]) })
        XCTAssertNil(decoded.error)
        var bodies: [String] = []
        var current = ""
        var paths: [String] = []
        var trailers: [HTTPFields?] = []
        for part in decoded.parts {
            switch part {
            case .head(let head): paths.append(head.request.path ?? "")
            case .body(let bytes): current += bytes.string
            case .end(let last, let fields):
                bodies.append(current + last.string)
                trailers.append(fields)
                current = ""
            }
        }
        XCTAssertEqual(paths, ["/p", "/c", "/last"])
        XCTAssertEqual(bodies, ["hello", "abcde"])
        XCTAssertEqual(trailers.last??[HTTPField.Name("X-Sum")!], "9")
    }

    func testRefusals_WithTheStatusTheRFCNames() {
        let rows: [(String, Int, String)] = [
            ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400, "whitespace before the colon"),
            ("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", 400, "obsolete line folding"),
            ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400, "bare CR"),
            ("GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", 400, "a tab before the colon"),
            ("GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n", 400, "a control byte in Host"),
            ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "a space in Host"),
            ("G\u{1}T / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "a control byte in the method"),
            ("GET / HTTQ/1.1\r\nHost: h\r\n\r\n", 400, "not HTTP"),
            ("GET / HTTP/1.1\r\n\r\n", 400, "no Host"),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "two Hosts"),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "CL and TE"),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", 400, "two CL"),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\n", 400, "non-numeric CL"),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n", 400, "CL past 2^63"),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "a coding other than chunked"),
            ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "TE in HTTP/1.0"),
            ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505, "HTTP/2.0"),
            ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "two spaces"),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\n", 400, "chunk size 2^63"),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", 400, "chunk size past 2^64"),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400, "chunk longer than its size"),
        ]
        for (text, expected, name) in rows {
            XCTAssertEqual(status(text), expected, name)
        }
    }

    /// A malformed chunk is refused for the same reason however its bytes
    /// arrive (found by fuzzing: a chunk line's verdict depended on how
    /// much of it had arrived).
    func testMalformedChunk_SameRefusalAtEveryCut() {
        let text = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcOption\n\r\n".utf8)
        for cut in 1..<text.count {
            let error = decodeAll(split(text, at: [cut])).error as? HTTPParseError
            XCTAssertEqual(error?.reason, "chunk data longer than its size", "cut at \(cut)")
        }
        let sizeLine = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(String(repeating: "0", count: 40))1;x\n".utf8)
        let reasons = Set((1..<sizeLine.count).map { cut in (decodeAll(split(sizeLine, at: [cut])).error as? HTTPParseError)?.reason ?? "none" })
        XCTAssertEqual(reasons.count, 1, "\(reasons)")
    }

    func testLimits_414_431_413() {
        let limits = HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxHeaderFields: 4, maxBodyLength: 10)
        XCTAssertEqual(status("GET /\(String(repeating: "a", count: 100)) HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits), 414)
        XCTAssertEqual(status("GET /\(String(repeating: "a", count: 100))", limits: limits), 414, "before the line ends")
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "b", count: 300))", limits: limits), 431)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", limits: limits), 431)
        // A whole head over the limit in one read (found by fuzzing: the
        // limit was checked only while the head was incomplete).
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "b", count: 250))\r\n\r\n", limits: limits), 431)
        XCTAssertEqual(status("GET / HTTP/1.1\nHost: h\nX: \(String(repeating: "b", count: 250))\n\n", limits: limits), 431)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "b", count: 16 * 1024))\r\n\r\n"), 431, "a field line over 16 KiB")
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: limits), 413)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", limits: limits), 413)
    }

    func testLeniencies_TheRFCAllows() throws {
        // Empty lines before the request line (RFC 9112 §2.2), bare LF line ends.
        let decoded = decodeAll([ByteBuffer(Array("\r\n\nGET / HTTP/1.1\nHost: h\n\n".utf8))])
        XCTAssertNil(decoded.error)
        guard case .head(let head)? = decoded.parts.first else { return XCTFail("\(decoded.parts)") }
        XCTAssertEqual(head.request.authority, "h")
    }

    func testKeepAliveAndExpect() throws {
        func head(_ text: String) -> HTTPRequestHead? {
            if case .head(let head)? = decodeAll([ByteBuffer(Array(text.utf8))]).parts.first { return head }
            return nil
        }
        XCTAssertEqual(head("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("GET / HTTP/1.0\r\n\r\n")?.keepAlive, false)
        XCTAssertEqual(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.keepAlive, true)
        XCTAssertEqual(head("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue, true)
        XCTAssertEqual(head("GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue, false, "no body, nothing to wait for")
        XCTAssertEqual(head("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nexpect: x=1, 100-Continue\r\n\r\n")?.expectsContinue, true)
        XCTAssertEqual(head("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 100-continued\r\n\r\n")?.expectsContinue, false)
        XCTAssertEqual(head("PUT / HTTP/1.0\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue, false, "HTTP/1.0")
    }

    /// Asking to upgrade (RFC 9110 §7.8): `Upgrade` with `upgrade` listed
    /// in `Connection`, in HTTP/1.1; and whether bytes had followed such a
    /// head when it was decoded (which equality leaves out).
    func testAsksToUpgrade_AndBytesAfterIt() throws {
        let rows: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nupgrade: h2c\r\nConnection: keep-alive,\tUPGRADE\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: upgraded\r\nUpgrade: websocket\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: h\r\nX-Upgrade: websocket\r\nConnection: upgrade\r\n\r\n", false),
        ]
        for (text, asks) in rows {
            guard case .head(let head)? = decodeAll([ByteBuffer(Array(text.utf8))]).parts.first else { return XCTFail(text) }
            XCTAssertEqual(head.asksToUpgrade, asks, text)
            XCTAssertFalse(head.followedByBytes, text)
        }
        let upgrade = rows[0].0
        var decoder = HTTPRequestDecoder()
        var reader = ByteBuffer.Reader(ByteBuffer(Array((upgrade + "x").utf8)))
        guard case .head(let followed)? = try decoder.decode(&reader) else { return XCTFail("no head") }
        XCTAssertTrue(followed.followedByBytes)
        guard case .head(let alone)? = decodeAll([ByteBuffer(Array(upgrade.utf8))]).parts.first else { return XCTFail("no head") }
        XCTAssertEqual(followed, alone, "how the bytes arrived is not part of the head")
        XCTAssertEqual(followed.hashValue, alone.hashValue)
    }

    /// A connection's requests that repeat the last request line or Host
    /// (which the decoder parses once, `HTTPRecentHead`) decode to what
    /// each decodes to alone: 400 requests drawn from lines and Hosts that
    /// differ in a byte, a case, a version, a length (one past what is
    /// kept), with and without Host, in HTTP/1.0 and 1.1.
    func testRepeatedLinesAndHosts_DecodeAsAlone() throws {
        let long = "/" + String(repeating: "x", count: HTTPRecentHead.longestKept)
        let lines = [
            "GET /a HTTP/1.1", "GET /a HTTP/1.0", "GET /ab HTTP/1.1", "GET /b HTTP/1.1", "HEAD /a HTTP/1.1", "get /a HTTP/1.1",
            "PURGE /a?q=1 HTTP/1.1", "GET \(long) HTTP/1.1", "GET \(long.dropLast()) HTTP/1.1",
        ]
        let hosts: [String?] = [
            "Host: h", "Host: h2", "host:   h  ", "HOST: H", "Host: h:8080", "Host: \(String(repeating: "h", count: HTTPRecentHead.longestKept + 1))", nil,
        ]
        var generator = SeededGenerator(seed: 27)
        var requests: [String] = []
        var (line, host) = (lines[0], hosts[0])
        while requests.count < 400 {
            // Each as the last one half of the time.
            if Bool.random(using: &generator) { line = lines.randomElement(using: &generator)! }
            if Bool.random(using: &generator) { host = hosts.randomElement(using: &generator)! }
            // HTTP/1.1 needs Host: such a request would end the connection.
            if host == nil, line.hasSuffix("1.1") { continue }
            let extra = Bool.random(using: &generator) ? "Accept: */*\r\n" : ""
            requests.append(line + "\r\n" + (host.map { $0 + "\r\n" } ?? "") + extra + "\r\n")
        }
        let alone = requests.map { decodeAll([ByteBuffer(Array($0.utf8))]).parts }
        let bytes = Array(requests.joined().utf8)
        // Whole, and in reads cut at random.
        var cuts: [Int] = []
        for _ in 0..<200 { cuts.append(Int.random(in: 1..<bytes.count, using: &generator)) }
        for chunks in [[ByteBuffer(bytes)], split(bytes, at: cuts.sorted())] {
            let together = decodeAll(chunks)
            XCTAssertNil(together.error)
            XCTAssertEqual(together.parts.count, requests.count)
            for (index, parts) in alone.enumerated() where index < together.parts.count {
                guard case .head(let expected)? = parts.first, parts.count == 1 else { return XCTFail("request \(index) alone: \(parts)") }
                guard case .head(let head) = together.parts[index] else { return XCTFail("request \(index): \(together.parts[index])") }
                XCTAssertEqual(head, expected, "request \(index): \(requests[index])")
            }
        }
    }

    /// A connection that sends one head again and again (a poller, a load
    /// test) has each decoded as it would be alone, from the third on by
    /// comparing its bytes with the last (`HTTPRecentHead`): with bodies
    /// of either framing after it, beside heads that differ from it in one
    /// byte, by a field more or by their version, whole, a byte a read and
    /// in reads cut at random.
    func testRepeatedHeads_DecodeAsAlone() throws {
        let requests = [
            "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */+\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nX: 1\r\n\r\n",
            "GET /a HTTP/1.0\r\nHost: h\r\nAccept: */*\r\n\r\n",
            "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc",
            "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyz",
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Sum: 1\r\n\r\n",
        ]
        /// Each request's head, body bytes and trailers, however its body was cut.
        func whole(_ parts: [HTTPRequestPart]) -> [String] {
            var described: [String] = []
            var body: [UInt8] = []
            for part in parts {
                switch part {
                case .head(let head):
                    described.append("\(head)")
                    if head.body == .none { described.append("no body") }
                case .body(let bytes):
                    body += Array(bytes)
                case .end(let last, let trailers):
                    described.append(String(decoding: body + Array(last), as: UTF8.self) + " \(String(describing: trailers))")
                    body = []
                }
            }
            return described
        }
        var generator = SeededGenerator(seed: 9112)
        var sent: [String] = []
        while sent.count < 120 {
            // Runs of one request, one to four long.
            let request = requests.randomElement(using: &generator)!
            sent += Array(repeating: request, count: Int.random(in: 1...4, using: &generator))
        }
        let alone = sent.flatMap { whole(decodeAll([ByteBuffer(Array($0.utf8))]).parts) }
        let bytes = Array(sent.joined().utf8)
        var cuts: [Int] = []
        for _ in 0..<300 { cuts.append(Int.random(in: 1..<bytes.count, using: &generator)) }
        for (name, chunks) in [("whole", [ByteBuffer(bytes)]), ("a byte a read", bytes.map { ByteBuffer([$0]) }), ("cut", split(bytes, at: cuts.sorted()))] {
            let together = decodeAll(chunks)
            XCTAssertNil(together.error, name)
            let parts = whole(together.parts)
            XCTAssertEqual(parts.count, alone.count, name)
            if let index = (0..<min(parts.count, alone.count)).first(where: { parts[$0] != alone[$0] }) {
                XCTFail("\(name): part \(index) is \(parts[index]), alone \(alone[index])")
            }
        }
    }

    /// The last head kept whole is a repeat only when all of it is there
    /// and every byte matches; one over `longestHeadKept` is not kept.
    func testRecentHead_RepeatsOnlyAWholeMatch() throws {
        let text = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
        let decoded = decodeAll([ByteBuffer(Array(text.utf8))])
        guard case .head(let head)? = decoded.parts.first else { return XCTFail("\(decoded.parts)") }
        var recent = HTTPRecentHead()
        func repeated(_ candidate: String) -> HTTPRequestHead? {
            recent.repeatedHead(at: ByteBuffer.Reader(ByteBuffer(Array(candidate.utf8))))
        }
        XCTAssertNil(repeated(text), "nothing kept yet")
        Array(text.utf8).withUnsafeBufferPointer { recent.keep(head, from: $0) }
        XCTAssertEqual(recent.headLength, text.utf8.count)
        XCTAssertEqual(repeated(text), head)
        XCTAssertEqual(repeated(text + "GET /b"), head, "the next request's first bytes after it")
        XCTAssertNil(repeated(String(text.dropLast())), "not all there yet")
        XCTAssertNil(repeated("GET /a HTTP/1.1\r\nHost: H\r\n\r\n"), "a byte differs")
        XCTAssertNil(repeated("GET /a HTTP/1.1\r\nHost: h\r\nX: 1\r\n\r\n"), "a field more")
        let long = "GET /a HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "x", count: HTTPRecentHead.longestHeadKept) + "\r\n\r\n"
        Array(long.utf8).withUnsafeBufferPointer { recent.keep(head, from: $0) }
        XCTAssertEqual(recent.headLength, 0, "too long: the last one is let go too")
        XCTAssertNil(repeated(text))
        XCTAssertNil(repeated(long))
    }

    /// A repeated request line or Host is checked as any other: the
    /// request it comes in is refused as it would be alone.
    func testRepeatedLineOrHost_StillChecked() {
        let first = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
        let cases: [(String, String)] = [
            ("GET /a HTTP/1.1\r\n\r\n", "no Host"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n", "more than one Host"),
            ("GET /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "Content-Length and Transfer-Encoding"),
            ("GET /a  HTTP/1.1\r\nHost: h\r\n\r\n", "malformed request line"),
            ("GET /a HTTP/1.1\r\nHost: h h\r\n\r\n", "malformed Host"),
        ]
        for (second, reason) in cases {
            let decoded = decodeAll([ByteBuffer(Array((first + second).utf8))])
            XCTAssertEqual(decoded.parts.count, 1, reason)
            XCTAssertEqual((decoded.error as? HTTPParseError)?.reason, reason)
            XCTAssertEqual((decoded.error as? HTTPParseError)?.status, .badRequest, reason)
        }
    }
}
