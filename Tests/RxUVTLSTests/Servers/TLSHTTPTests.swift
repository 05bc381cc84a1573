import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVTLS
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
}
