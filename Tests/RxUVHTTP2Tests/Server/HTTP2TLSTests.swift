import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTP2
import RxUVTLS
import RxUVTestSupport
import XCTest

/// HTTPS with ALPN: the same handler answers HTTP/2 to a client that
/// offers `h2` and HTTP/1.1 to one that does not.
final class HTTP2TLSTests: BridgeTestCase {
    func testALPN_ChoosesHTTP2OrHTTP1_ForTheSameHandler() throws {
        let certificates = TestCertificateFolder.path
        var configuration = TLSConfiguration.server(
            identity: TLSIdentity(certificateChain: .file(certificates + "/server.pem"), privateKey: .file(certificates + "/server.key")))
        configuration.applicationProtocols = ["h2", "http/1.1"]
        let context = try TLSContext(configuration: configuration)
        var routes = HTTPRouter()
        routes.get("/version") { request in .just(.text("HTTP/\(request.majorVersion).\(request.minorVersion)")) }
        let router = routes
        let outputs = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serveHTTPS(host: "127.0.0.1", port: 0, tls: context, handler: router.handler).value
            let url = "https://localhost:\(server.address.port)/version"
            let resolve = ["--resolve", "localhost:\(server.address.port):127.0.0.1", "--cacert", certificates + "/ca.pem"]
            let http2 = try await loop.run("curl", ["-sS", "--http2", "-w", " %{http_version}"] + resolve + [url])
            let http1 = try await loop.run("curl", ["-sS", "--http1.1", "-w", " %{http_version}"] + resolve + [url])
            try await server.drain(deadline: .seconds(2)).value
            return [http2, http1]
        }
        XCTAssertEqual(outputs, ["HTTP/2.0 2", "HTTP/1.1 1.1"])
    }
}
