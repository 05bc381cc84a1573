import Foundation
import RxUVTLS

/// The test certificates of `scripts/tls-test-certificates.py` (a CA, a
/// server for `localhost` and 127.0.0.1, an expired one, one for
/// `other.example`), made once per test process in a temporary folder and
/// removed at exit.
enum TestCertificates {
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "rxuv-client-tls-\(getpid())"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../scripts/tls-test-certificates.py").standardized.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, folder]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            fatalError("cannot run \(script): \(error)")
        }
        precondition(process.terminationStatus == 0, "\(script) failed")
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "rxuv-client-tls-\(getpid())") }
        return folder
    }()

    /// The path of `name` (`ca.pem`).
    static func file(_ name: String) -> String {
        folder + "/" + name
    }

    /// A server's context presenting `name.pem` with `name.key`.
    static func server(_ name: String = "server", requiringClientCertificates: Bool = false) throws -> TLSContext {
        var configuration = TLSConfiguration.server(identity: identity(name))
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
