import Foundation
import RxCore
import RxUV
import RxUVTLS
import RxUVTestSupport
import XCTest

/// The base of the TLS tests: the bridge's leak gates, and after each test
/// no OpenSSL object left (`TLSResources`: every `SSL` and `SSL_CTX` the
/// test made is freed). Certificates come from
/// `scripts/tls-test-certificates.py` (`TestCertificateFolder`: made once
/// per test process, new keys every run, none committed).
class TLSTestCase: BridgeTestCase {
    /// The folder of this process's test certificates.
    static var certificates: String {
        TestCertificateFolder.path
    }

    /// The path of certificate file `name` (`server.pem`).
    func file(_ name: String) -> String {
        Self.certificates + "/" + name
    }

    /// The identity of `name.pem` and `name.key`.
    func identity(_ name: String) -> TLSIdentity {
        TLSIdentity(certificateChain: .file(file("\(name).pem")), privateKey: .file(file("\(name).key")))
    }

    /// A server's context presenting `name`, changed by `configure`.
    func serverContext(_ name: String = "server", _ configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> TLSContext {
        var configuration = TLSConfiguration.server(identity: identity(name))
        configure(&configuration)
        return try TLSContext(configuration: configuration)
    }

    /// A client's context that trusts the test CA, changed by `configure`.
    func clientContext(_ configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> TLSContext {
        var configuration = TLSConfiguration.client(trustRoots: .certificates(.file(file("ca.pem"))))
        configure(&configuration)
        return try TLSContext(configuration: configuration)
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        var waited = 0
        while (TLSResources.liveConnections != 0 || TLSResources.liveContexts != 0) && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        XCTAssertEqual(TLSResources.liveConnections, 0, "SSL objects left by this test")
        XCTAssertEqual(TLSResources.liveContexts, 0, "SSL_CTX objects left by this test")
    }
}
