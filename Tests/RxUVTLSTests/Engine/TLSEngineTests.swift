import RxUV
import XCTest

@testable import RxUVTLS

#if TRACE_RESOURCES
@testable import RxUV
#endif

/// Two engines, a client and a server, handshaking in memory: every
/// verification outcome, on each side, without a socket in between.
final class TLSEngineTests: TLSTestCase {
    /// What each side saw: `nil` for a handshake (and first read) that went
    /// through, else the code of its error.
    private struct Outcome: Equatable, CustomStringConvertible {
        var client: TLSError.Code?
        var server: TLSError.Code?
        var description: String { "client: \(client?.rawValue ?? "ok"), server: \(server?.rawValue ?? "ok")" }
    }

    /// Runs a handshake between `client` and `server` in memory, then one
    /// application record each way (so that a TLS 1.3 client hears the
    /// server's verdict on its certificate).
    private func exchange(
        client: TLSContext, server: TLSContext, serverName: String? = "localhost",
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (Outcome, TLSEngine, TLSEngine) {
        let clientEngine = try TLSEngine(context: client.openSSL, role: .client, serverName: serverName)
        let serverEngine = try TLSEngine(context: server.openSSL, role: .server)
        var outcome = Outcome()
        var clientDone = false
        var serverDone = false
        for _ in 0..<10 {
            Self.step(clientEngine, done: &clientDone, failure: &outcome.client, to: serverEngine)
            Self.step(serverEngine, done: &serverDone, failure: &outcome.server, to: clientEngine)
        }
        // One record each way: what the other side has to say arrives.
        Self.say("ping", from: clientEngine, done: clientDone, failure: &outcome.client, to: serverEngine)
        if serverDone, outcome.server == nil {
            outcome.server = readError(serverEngine, expecting: "ping")
        }
        Self.say("pong", from: serverEngine, done: serverDone, failure: &outcome.server, to: clientEngine)
        if clientDone, outcome.client == nil {
            outcome.client = readError(clientEngine, expecting: "pong")
        }
        return (outcome, clientEngine, serverEngine)
    }

    /// One handshake step of `engine` (until it is done or failed), its
    /// output handed to `peer`.
    private static func step(_ engine: TLSEngine, done: inout Bool, failure: inout TLSError.Code?, to peer: TLSEngine) {
        if !done, failure == nil {
            switch engine.handshake() {
            case .done: done = true
            case .needsInput: break
            case .failed(let error): failure = error.code
            }
        }
        if let bytes = engine.takeOutput() { peer.feed(bytes) }
    }

    /// `text` written by `engine` once its handshake is done, handed to `peer`.
    private static func say(_ text: String, from engine: TLSEngine, done: Bool, failure: inout TLSError.Code?, to peer: TLSEngine) {
        if done, failure == nil, let error = engine.write(ByteBuffer(string: text)) {
            failure = error.code
        }
        if let bytes = engine.takeOutput() { peer.feed(bytes) }
    }

    private func readError(_ engine: TLSEngine, expecting text: String) -> TLSError.Code? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let outcome = buffer.withUnsafeMutableBytes { engine.read(into: $0) }
        switch outcome {
        case .bytes(let count):
            XCTAssertEqual(String(decoding: buffer[..<count], as: UTF8.self), text)
            return nil
        case .needsInput: return TLSError.Code(rawValue: "nothing to read")
        case .closed: return TLSError.Code(rawValue: "closed")
        case .failed(let error): return error.code
        }
    }

    func testHandshake_VerificationTable() throws {
        struct Row {
            let name: String
            let serverIdentity: String
            var serverName: String? = "localhost"
            var configureServer: (inout TLSConfiguration) -> Void = { _ in }
            var configureClient: (inout TLSConfiguration) -> Void = { _ in }
            let expected: Outcome
        }
        let ca = PEMSource.file(file("ca.pem"))
        let rows: [Row] = [
            Row(name: "a valid chain and name", serverIdentity: "server", expected: Outcome()),
            Row(name: "an IP address in the SANs", serverIdentity: "server", serverName: "127.0.0.1", expected: Outcome()),
            Row(
                name: "an IP address not in the SANs", serverIdentity: "server", serverName: "127.0.0.2",
                expected: Outcome(client: .hostnameMismatch, server: .certificateRejected)),
            Row(
                name: "another host's certificate", serverIdentity: "other",
                expected: Outcome(client: .hostnameMismatch, server: .certificateRejected)),
            Row(
                name: "an expired certificate", serverIdentity: "expired",
                expected: Outcome(client: .certificateExpired, server: .certificateExpired)),
            Row(
                name: "a certificate not valid yet", serverIdentity: "future",
                expected: Outcome(client: .certificateNotYetValid, server: .certificateRejected)),
            Row(
                name: "a self-signed certificate", serverIdentity: "selfsigned",
                expected: Outcome(client: .selfSignedCertificate, server: .unknownCA)),
            Row(
                name: "a chain to an unknown CA", serverIdentity: "rogue",
                expected: Outcome(client: .unknownCA, server: .unknownCA)),
            Row(
                name: "no verification on the client", serverIdentity: "rogue",
                configureClient: { $0.peerVerification = .none }, expected: Outcome()),
            Row(
                name: "a client certificate required and missing", serverIdentity: "server",
                configureServer: {
                    $0.peerVerification = .required
                    $0.trustRoots = .certificates(ca)
                },
                expected: Outcome(client: .certificateRequired, server: .certificateRequired)),
            Row(
                name: "a client certificate required and sent", serverIdentity: "server",
                configureServer: {
                    $0.peerVerification = .required
                    $0.trustRoots = .certificates(ca)
                },
                configureClient: { $0.identity = self.identity("client") }, expected: Outcome()),
            Row(
                name: "a client certificate from an unknown CA", serverIdentity: "server",
                configureServer: {
                    $0.peerVerification = .required
                    $0.trustRoots = .certificates(ca)
                },
                configureClient: { $0.identity = self.identity("rogue") },
                expected: Outcome(client: .unknownCA, server: .unknownCA)),
            Row(
                name: "an optional client certificate not sent", serverIdentity: "server",
                configureServer: {
                    $0.peerVerification = .ifPresented
                    $0.trustRoots = .certificates(ca)
                },
                expected: Outcome()),
            Row(
                name: "no shared version", serverIdentity: "server",
                configureServer: { $0.minimumVersion = .tls13 }, configureClient: { $0.maximumVersion = .tls12 },
                expected: Outcome(client: .protocolVersion, server: .protocolVersion)),
            Row(
                name: "no shared cipher", serverIdentity: "server",
                configureServer: {
                    $0.maximumVersion = .tls12
                    $0.cipherList = "ECDHE-ECDSA-CHACHA20-POLY1305"
                },
                configureClient: {
                    $0.maximumVersion = .tls12
                    $0.cipherList = "ECDHE-ECDSA-AES128-GCM-SHA256"
                },
                expected: Outcome(client: .handshakeFailure, server: .noSharedCipher)),
            Row(
                name: "no shared ALPN protocol", serverIdentity: "server",
                configureServer: { $0.applicationProtocols = ["h3"] }, configureClient: { $0.applicationProtocols = ["h2", "http/1.1"] },
                expected: Outcome(client: .noApplicationProtocol, server: .noApplicationProtocol)),
        ]
        for row in rows {
            let (outcome, _, _) = try exchange(
                client: clientContext(row.configureClient), server: serverContext(row.serverIdentity, row.configureServer),
                serverName: row.serverName)
            XCTAssertEqual(outcome, row.expected, row.name)
        }
    }

    func testSession_ReportsVersionCipherALPNAndCertificates() throws {
        let (outcome, client, server) = try exchange(
            client: clientContext {
                $0.applicationProtocols = ["h2", "http/1.1"]
                $0.identity = self.identity("client")
            },
            server: serverContext {
                $0.applicationProtocols = ["http/1.1", "h2"]
                $0.peerVerification = .ifPresented
                $0.trustRoots = .certificates(.file(self.file("ca.pem")))
            })
        XCTAssertEqual(outcome, Outcome())
        let clientSession = client.session()
        let serverSession = server.session()
        XCTAssertEqual(clientSession.protocolVersion, .tls13)
        XCTAssertEqual(serverSession.applicationProtocol, "http/1.1", "the server's preference wins")
        XCTAssertEqual(clientSession.applicationProtocol, "http/1.1")
        XCTAssertEqual(serverSession.serverName, "localhost")
        XCTAssertFalse(clientSession.cipherSuite.isEmpty)
        let certificate = try XCTUnwrap(clientSession.peerCertificate)
        XCTAssertEqual(certificate.commonName, "localhost")
        XCTAssertEqual(certificate.subjectAlternativeNames, ["localhost", "127.0.0.1", "::1"])
        XCTAssertEqual(certificate.issuer, "CN=RxUV Test CA")
        XCTAssertGreaterThan(certificate.secondsUntilExpiry, 800 * 86_400)
        XCTAssertEqual(certificate.der.first, 0x30, "DER starts with a SEQUENCE")
        XCTAssertEqual(serverSession.peerCertificate?.commonName, "rxuv-client")
    }

    /// What `read` says at each point of a connection's input: the
    /// plaintext of a record taken through a smaller buffer, then nothing
    /// until more is fed (without asking OpenSSL), records fed together
    /// read one by one, and the end of input: clean after `close_notify`,
    /// unclean without it.
    func testRead_PartialRecordsNothingFedAndTheEnd() throws {
        for closeNotify in [true, false] {
            let (outcome, client, server) = try exchange(client: clientContext(), server: serverContext())
            XCTAssertEqual(outcome, Outcome())
            var reads: [String] = []
            func read(_ size: Int) {
                var buffer = [UInt8](repeating: 0, count: size)
                switch buffer.withUnsafeMutableBytes({ server.read(into: $0) }) {
                case .bytes(let count): reads.append(String(decoding: buffer[..<count], as: UTF8.self))
                case .needsInput: reads.append("needsInput")
                case .closed: reads.append("closed")
                case .failed(let error): reads.append(error.code.rawValue)
                }
            }
            read(16)
            XCTAssertNil(client.write(ByteBuffer(string: "abcdefghij")))
            server.feed(try XCTUnwrap(client.takeOutput()))
            read(4)
            read(4)
            read(4)
            read(4)
            XCTAssertNil(client.write(ByteBuffer(string: "one")))
            XCTAssertNil(client.write(ByteBuffer(string: "two")))
            server.feed(try XCTUnwrap(client.takeOutput()))
            read(16)
            read(16)
            read(16)
            if closeNotify {
                client.shutdown()
                server.feed(try XCTUnwrap(client.takeOutput()))
            }
            server.endOfInput()
            read(16)
            XCTAssertEqual(
                reads,
                ["needsInput", "abcd", "efgh", "ij", "needsInput", "one", "two", "needsInput", closeNotify ? "closed" : TLSError.Code.uncleanShutdown.rawValue],
                "close_notify: \(closeNotify)")
        }
    }

    /// What a write's records come out in: one buffer holding them all,
    /// whatever their number (the room is made for them before OpenSSL
    /// writes), with a handshake's output before it when not yet taken, in
    /// the order OpenSSL wrote them; read back byte for byte.
    func testWrite_RecordsComeOutInOneBufferInOrder() throws {
        let (outcome, client, server) = try exchange(client: clientContext(), server: serverContext())
        XCTAssertEqual(outcome, Outcome())
        let sizes = [1, 64, 16 * 1024, 16 * 1024 + 1, 1 << 20]
        var expected: [UInt8] = []
        for (index, size) in sizes.enumerated() {
            let bytes = ByteBuffer((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
            expected += Array(bytes)
            XCTAssertNil(client.write(bytes))
        }
        XCTAssertNil(client.write(ByteBuffer()))
        client.shutdown()
        let ciphertext = try XCTUnwrap(client.takeOutput())
        XCTAssertNil(client.takeOutput(), "taken once")
        XCTAssertGreaterThan(ciphertext.count, expected.count)
        server.feed(ciphertext)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while true {
            switch buffer.withUnsafeMutableBytes({ server.read(into: $0) }) {
            case .bytes(let count): received += buffer[..<count]
            case .closed: break reading
            case .needsInput:
                XCTFail("the records fed were not all read")
                break reading
            case .failed(let error):
                XCTFail("\(error)")
                break reading
            }
        }
        XCTAssertEqual(received.count, expected.count)
        XCTAssertTrue(received == expected, "the plaintext read back differs")

        #if TRACE_RESOURCES
        // A large write's 64 records land in the one buffer made for them
        // (the server's side: the client's has sent close_notify).
        let large = ByteBuffer([UInt8](repeating: 7, count: 1 << 20))
        _ = server.takeOutput()
        let before = ByteBuffer.storageAllocations.load(ordering: .relaxed)
        XCTAssertNil(server.write(large))
        XCTAssertEqual(ByteBuffer.storageAllocations.load(ordering: .relaxed) - before, 1)
        XCTAssertGreaterThan(try XCTUnwrap(server.takeOutput()).count, 1 << 20)
        #endif
    }

    func testServerName_PicksTheIdentityForTheName() throws {
        let server = try serverContext { $0.identitiesByServerName = ["other.example": self.identity("other")] }
        for (name, expected) in [("localhost", "localhost"), ("other.example", "other.example"), ("OTHER.example", "other.example")] {
            let (outcome, client, _) = try exchange(client: clientContext(), server: server, serverName: name)
            XCTAssertEqual(outcome, Outcome(), name)
            XCTAssertEqual(client.session().peerCertificate?.commonName, expected, name)
        }
    }

    func testContext_BadFilesAndMismatchedKeys_FailWithTheFile() throws {
        let cases: [(TLSIdentity, String)] = [
            (TLSIdentity(certificateChain: .file(file("missing.pem")), privateKey: .file(file("server.key"))), file("missing.pem")),
            (TLSIdentity(certificateChain: .file(file("server.pem")), privateKey: .file(file("other.key"))), file("other.key")),
            (TLSIdentity(certificateChain: .string("not PEM"), privateKey: .file(file("server.key"))), "PEM bytes"),
        ]
        for (identity, origin) in cases {
            XCTAssertThrowsError(try TLSContext(configuration: .server(identity: identity))) { error in
                let failure = error as? TLSError
                XCTAssertEqual(failure?.code, .invalidConfiguration, "\(error)")
                XCTAssertEqual(failure?.address, origin, "\(error)")
            }
        }
        XCTAssertThrowsError(try clientContext { $0.cipherSuites = "NO_SUCH_SUITE" }) {
            XCTAssertEqual(($0 as? TLSError)?.code, .invalidConfiguration)
        }
    }

    func testContext_FromPEMBytes_HandshakesAsFromFiles() throws {
        func read(_ name: String) throws -> PEMSource {
            .bytes(Array(try String(contentsOfFile: file(name), encoding: .utf8).utf8))
        }
        let server = try TLSContext(configuration: .server(identity: TLSIdentity(certificateChain: read("chain.pem"), privateKey: read("server.key"))))
        let client = try TLSContext(configuration: .client(trustRoots: .certificates(read("ca.pem"))))
        let (outcome, _, _) = try exchange(client: client, server: server)
        XCTAssertEqual(outcome, Outcome())
    }

    func testContext_Reload_NewConnectionsUseTheNewIdentity() throws {
        let server = try serverContext()
        XCTAssertEqual(try exchange(client: clientContext(), server: server).1.session().peerCertificate?.commonName, "localhost")
        try server.reload(.server(identity: identity("other")))
        let (_, client, _) = try exchange(client: clientContext { $0.peerVerification = .none }, server: server)
        XCTAssertEqual(client.session().peerCertificate?.commonName, "other.example")
        XCTAssertThrowsError(try server.reload(.server(identity: identity("missing"))))
        XCTAssertEqual(server.configuration.identity, identity("other"), "a failed reload keeps what was there")
    }
}
