import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP
import RxUVHTTPClient
import RxUVTLS
import RxUVTestSupport
import XCTest

/// `https`: the client over RxUVTLS against RxUV's server over TLS; the
/// server's certificate checked against the trust roots and the URL's
/// host; each failure a typed `TLSError`; no OpenSSL object left.
final class HTTPClientTLSTests: BridgeTestCase {
    override func tearDownWithError() throws {
        try super.tearDownWithError()
        XCTAssertEqual(TLSResources.liveConnections, 0, "SSL objects left by this test")
    }

    /// What GETs to `host` on a TLS server presenting `certificate` come to,
    /// with a client whose TLS is `tls`.
    private func outcomes(
        certificate: String = "server", host: String = "127.0.0.1", tls: TLSConfiguration = TestCertificates.client, count: Int = 2,
        connectTimeout: Duration = .seconds(10), requiringClientCertificates: Bool = false
    ) throws -> [String] {
        let context = try TestCertificates.server(certificate, requiringClientCertificates: requiringClientCertificates)
        let configuration = HTTPClientConfiguration(connectTimeout: connectTimeout, tls: tls)
        return try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, tls: context) { served in
                served.serveHTTP { request in .just(.text("\(request.peer ?? "?") over tls")) }
            }.value
            let client = HTTPClient(loop: loop, configuration: configuration)
            var outcomes: [String] = []
            for _ in 0..<count {
                do {
                    let response = try await client.execute(HTTPRequest(url: "https://\(host):\(server.address.port)/"))
                    outcomes.append(try await response.body.collect(upTo: 1000).value.string)
                } catch let error as TLSError {
                    outcomes.append("tls: \(error.code.rawValue)")
                } catch let error as HTTPClientError {
                    outcomes.append("\(error.code)")
                } catch let error as UVError {
                    outcomes.append("uv: \(error.code)")
                }
            }
            try await client.shutdown().value
            try await server.drain(deadline: .seconds(2)).value
            return outcomes
        }
    }

    /// Two requests on one TLS connection (its address) to the IP address
    /// the certificate names.
    func testHTTPS_KeptAliveOverTLS() throws {
        let outcomes = try outcomes()
        XCTAssertEqual(outcomes.count, 2)
        XCTAssertTrue(outcomes[0].hasSuffix(" over tls"), outcomes[0])
        XCTAssertEqual(outcomes[0], outcomes[1])
    }

    func testHTTPS_CertificateForAnotherHost() throws {
        XCTAssertEqual(try outcomes(certificate: "other", count: 1), ["tls: hostnameMismatch"])
    }

    func testHTTPS_ExpiredCertificate() throws {
        XCTAssertEqual(try outcomes(certificate: "expired", count: 1), ["tls: certificateExpired"])
    }

    /// The system's trust store does not know the test CA.
    func testHTTPS_UnknownCA() throws {
        let outcome = try outcomes(tls: .client(), count: 1)
        XCTAssertTrue(["tls: unknownCA", "tls: selfSignedCertificate"].contains(outcome[0]), "\(outcome)")
    }

    /// A server that asks for a client certificate: the client's identity
    /// answers it; without one, the request fails.
    func testHTTPS_ClientCertificate() throws {
        var withIdentity = TestCertificates.client
        withIdentity.identity = TestCertificates.identity("client")
        let presented = try outcomes(tls: withIdentity, count: 1, requiringClientCertificates: true)
        XCTAssertTrue(presented[0].hasSuffix(" over tls"), "\(presented)")
        let refused = try outcomes(count: 1, requiringClientCertificates: true)
        XCTAssertFalse(refused[0].hasSuffix(" over tls"), "\(refused)")
    }

    /// A server that accepts and never answers the handshake: the connect
    /// timeout bounds TCP and TLS together.
    func testHTTPS_SilentServer_ConnectTimeout() throws {
        let outcome = try withRawServer(
            HTTPClientConfiguration(connectTimeout: .milliseconds(200), tls: TestCertificates.client),
            serve: { connection in connection.rx.data.ignoreElements().asCompletable() }
        ) { client, port in
            do {
                _ = try await client.execute(HTTPRequest(url: "https://127.0.0.1:\(port)/"))
                return "answered"
            } catch let error as HTTPClientError {
                return "\(error.code)"
            }
        }
        XCTAssertEqual(outcome, "connectTimeout")
    }
}
