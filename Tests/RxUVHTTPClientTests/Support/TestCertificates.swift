import RxUVTLS
import RxUVTestSupport

/// The test certificates of `scripts/tls-test-certificates.py` (a CA, a
/// server for `localhost` and 127.0.0.1, an expired one, one for
/// `other.example`, a client), `TestCertificateFolder`'s.
enum TestCertificates {
    static var folder: String {
        TestCertificateFolder.path
    }

    /// The path of `name` (`ca.pem`).
    static func file(_ name: String) -> String {
        folder + "/" + name
    }

    /// A server's context presenting `name.pem` with `name.key`, offering
    /// `applicationProtocols` through ALPN.
    static func server(_ name: String = "server", requiringClientCertificates: Bool = false, applicationProtocols: [String] = []) throws -> TLSContext {
        var configuration = TLSConfiguration.server(identity: identity(name))
        configuration.applicationProtocols = applicationProtocols
        if requiringClientCertificates {
            configuration.trustRoots = .certificates(.file(file("ca.pem")))
            configuration.peerVerification = .required
        }
        return try TLSContext(configuration: configuration)
    }

    /// The identity of `name.pem` and `name.key`.
    static func identity(_ name: String) -> TLSIdentity {
        TLSIdentity(certificateChain: .file(file("\(name).pem")), privateKey: .file(file("\(name).key")))
    }

    /// A client's configuration that trusts the test CA.
    static var client: TLSConfiguration {
        .client(trustRoots: .certificates(.file(file("ca.pem"))))
    }
}
