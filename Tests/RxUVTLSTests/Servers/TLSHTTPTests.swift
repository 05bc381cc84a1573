import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTLS
import RxUVTestSupport
import XCTest

/// HTTPS: HTTP/1.1 served over TLS through the server's per-connection
/// factory, `serve(…, tls:) { $0.serveHTTP(handler:) }`.
final class TLSHTTPTests: TLSTestCase {
    /// Python's `HTTPSConnection` (verifying the test CA) makes two
    /// requests on one connection; curl makes one more.
    func testHTTPS_PythonAndCurl_KeepAliveOverTLS() throws {
        let context = try serverContext()
        let handler: HTTPHandler = { request in
            request.body.collect(upTo: 1 << 20).map { body in .text("\(request.head.method) \(request.path) \(body.count)") }
        }
        let script = """
            import http.client, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[2])
            c = http.client.HTTPSConnection("localhost", int(sys.argv[1]), context=context, timeout=10)
            c.request("GET", "/a")
            r = c.getresponse()
            print(r.status, r.read().decode())
            c.request("POST", "/b", body=b"z" * 100000)
            r = c.getresponse()
            print(r.status, r.read().decode())
            """
        let ca = file("ca.pem")
        let output = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, tls: context) { $0.serveHTTP(handler: handler) }.value
            let port = server.address.port
            let python = try await loop.python(script, ["\(port)", ca])
            let curl = try await loop.run("curl", ["-sS", "--cacert", ca, "--resolve", "localhost:\(port):127.0.0.1", "https://localhost:\(port)/c"])
            try await server.drain(deadline: .seconds(2)).value
            return python + curl
        }
        XCTAssertEqual(output, "200 GET /a 0\n200 POST /b 100000\nGET /c 0")
    }

    /// An open file over HTTPS: the TLS stream has no `sendfile` path, so
    /// the stream face's default copies the file a chunk at a time through
    /// the TLS stream's writes; curl gets every byte.
    func testHTTPS_OpenFileBody_ArrivesWhole() throws {
        let context = try serverContext()
        let directory = try TemporaryDirectory("rxuv-https-file")
        defer { directory.remove() }
        let path = directory.path + "/file"
        let content = (0..<500_000).map { UInt8(truncatingIfNeeded: $0 % 253) }
        let handler: HTTPHandler = { request in
            request.loop.rx.openFile(path: path).map { HTTPServerResponse(body: .file($0, range: 0..<Int64($0.status.size))) }
        }
        let ca = file("ca.pem")
        let received = try loop.run { [loop = loop!] in
            try await loop.rx.writeFile(path: path, bytes: ByteBuffer(content)).value
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, tls: context) { $0.serveHTTP(handler: handler) }.value
            let port = server.address.port
            _ = try await loop.run("curl", ["-sS", "--cacert", ca, "--resolve", "localhost:\(port):127.0.0.1", "-o", path + ".got", "https://localhost:\(port)/file"])
            try await server.drain(deadline: .seconds(2)).value
            return try await loop.rx.readFile(path: path + ".got").value
        }
        XCTAssertEqual(received.count, content.count)
        XCTAssertTrue(Array(received) == content, "the bytes differ")
    }
}
