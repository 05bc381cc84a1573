import RxCore
import RxUV
import RxUVTLS
import RxUVTestSupport
import XCTest

/// TLS streams over an in-memory pair, both ends ours, with no socket: the
/// handshake, the close (`close_notify` both ways, or its absence), a
/// failed verification, the handshake's timeout, a reset transport and the
/// hold on the transport's reading, each step run until nothing moves, so
/// each test sees the same exchange on every run.
final class TLSStreamInMemoryTests: TLSTestCase {
    private typealias Log = Box<[String]>

    private static func name(_ error: any Error) -> String {
        if let error = error as? TLSError { return "\(error.code)" }
        return (error as? UVError)?.name ?? "\(error)"
    }

    /// A client and a server TLS stream over the two ends of a new pair.
    private func tlsPair(
        server serverContext: TLSContext, client clientContext: TLSContext, serverName: String? = "localhost"
    ) -> (pair: InMemoryStreamPair, client: TLSStream, server: TLSStream) {
        let pair = InMemoryStream.pair(on: loop)
        return (pair, TLSStream.client(over: pair.client, context: clientContext, serverName: serverName), TLSStream.server(over: pair.server, context: serverContext))
    }

    private static func watchHandshake(_ stream: TLSStream, _ who: String, _ log: Log) {
        _ = stream.handshake.subscribe(
            onCompleted: { log.value.append("\(who) handshake done") },
            onError: { log.value.append("\(who) handshake failed \(name($0))") })
    }

    /// The handshake, a message each way and the close: the client writes
    /// before the handshake ends (held, then sent), half-closes with
    /// `close_notify`; the server echoes, reads the end, and closes after
    /// its writes (its own `close_notify`). Both transports end closed, and
    /// the exchange is the same on every run.
    func testHandshakeEchoAndClose_SameExchangeEveryRun() throws {
        let serverContext = try serverContext()
        let clientContext = try clientContext()
        var transcripts: [[String]] = []
        for _ in 0..<3 {
            let log = Log([])
            do {
                let (pair, client, server) = tlsPair(server: serverContext, client: clientContext)
                Self.watchHandshake(client, "client", log)
                Self.watchHandshake(server, "server", log)
                _ = server.rx.data.subscribe(
                    onNext: { bytes in
                        log.value.append("server read \(bytes.string)")
                        _ = server.write(bytes).subscribe()
                    },
                    onCompleted: {
                        log.value.append("server read the end")
                        server.close(.afterWrites)
                    })
                let echo = StreamRecording(of: client)
                _ = client.write("hello").subscribe(onCompleted: { log.value.append("client wrote hello") })
                _ = client.shutdown().subscribe(onCompleted: { log.value.append("client shut down") })
                runLoop()
                log.value.append("client read \(echo.string), completed \(echo.completed)")
                log.value.append("transports closed \(pair.client.isClosed) \(pair.server.isClosed)")
                XCTAssertEqual(client.session?.protocolVersion, .tls13)
                XCTAssertEqual(client.session?.serverName, "localhost")
                XCTAssertNotNil(client.session?.peerCertificate)
                XCTAssertEqual(server.session?.protocolVersion, .tls13)
            }
            transcripts.append(log.value)
            assertNoLeaks()
        }
        XCTAssertEqual(
            transcripts[0],
            [
                // The writes held for the handshake are told as it ends, before its waiters.
                "client wrote hello", "client shut down", "client handshake done", "server handshake done", "server read hello", "server read the end",
                "client read hello, completed true", "transports closed true true",
            ])
        XCTAssertEqual(transcripts[1], transcripts[0])
        XCTAssertEqual(transcripts[2], transcripts[0])
    }

    /// A server whose certificate the client must refuse: the client's
    /// handshake fails with the reason, the server's with the client's
    /// alert, and both transports close.
    func testVerificationFailures_BothHandshakesFail_TransportsClose() throws {
        let clientContext = try clientContext()
        let rows: [(identity: String, serverName: String, client: String)] = [
            ("server", "wrong.example", "hostnameMismatch"),
            ("rogue", "localhost", "unknownCA"),
            ("expired", "localhost", "certificateExpired"),
            ("selfsigned", "localhost", "selfSignedCertificate"),
        ]
        for row in rows {
            let log = Log([])
            do {
                let (pair, client, server) = tlsPair(server: try serverContext(row.identity), client: clientContext, serverName: row.serverName)
                Self.watchHandshake(client, "client", log)
                Self.watchHandshake(server, "server", log)
                // Each side reads, as a connection does: the read's end closes it.
                let clientRead = StreamRecording(of: client)
                let serverRead = StreamRecording(of: server)
                runLoop()
                XCTAssertEqual(log.value.first, "client handshake failed \(row.client)", row.identity)
                XCTAssertEqual(log.value.count, 2, "\(row.identity): \(log.value)")
                XCTAssertTrue(log.value.last?.hasPrefix("server handshake failed") ?? false, "\(row.identity): \(log.value)")
                XCTAssertNotNil(clientRead.error, row.identity)
                XCTAssertNotNil(serverRead.error, row.identity)
                XCTAssertTrue(pair.client.isClosed && pair.server.isClosed, row.identity)
            }
            assertNoLeaks(row.identity)
        }
    }

    /// The server's transport closes with no `close_notify`: the client's
    /// read fails with `uncleanShutdown` (the data may be cut short).
    func testTransportClosedWithoutCloseNotify_UncleanShutdown() throws {
        let (pair, client, server) = tlsPair(server: try serverContext(), client: try clientContext())
        let clientRead = StreamRecording(of: client)
        let serverRead = StreamRecording(of: server)
        runLoop()
        XCTAssertNotNil(client.session)
        pair.server.close(.now)
        runLoop()
        XCTAssertEqual((clientRead.error as? TLSError)?.code, .uncleanShutdown)
        XCTAssertTrue(pair.client.isClosed)
        XCTAssertTrue(serverRead.completed || serverRead.error != nil)
    }

    /// The server's transport resets: the client's read fails with the
    /// transport's `ECONNRESET`.
    func testTransportReset_ReadFailsWithECONNRESET() throws {
        let (pair, client, server) = tlsPair(server: try serverContext(), client: try clientContext())
        let clientRead = StreamRecording(of: client)
        let serverRead = StreamRecording(of: server)
        runLoop()
        pair.server.close(.reset)
        runLoop()
        XCTAssertEqual((clientRead.error as? UVError)?.code, .connectionReset)
        XCTAssertTrue(pair.client.isClosed)
        serverRead.dispose()
        server.close()
        runLoop()
    }

    /// A peer that never answers the client's hello: the handshake fails
    /// with `handshakeTimeout` at the configured time and the transport is
    /// reset.
    func testHandshakeTimeout_SilentPeer_FailsAndCloses() throws {
        let pair = InMemoryStream.pair(on: loop)
        let silent = StreamRecording(of: pair.server)
        let log = Log([])
        do {
            let client = TLSStream.client(over: pair.client, context: try clientContext { $0.handshakeTimeout = .milliseconds(50) }, serverName: "localhost")
            Self.watchHandshake(client, "client", log)
            runLoop()
        }
        XCTAssertEqual(log.value, ["client handshake failed handshakeTimeout"])
        XCTAssertTrue(pair.client.isClosed)
        XCTAssertGreaterThan(silent.bytes.count, 0, "the client's hello was sent")
        XCTAssertEqual((silent.error as? UVError)?.code, .connectionReset, "the silent peer is reset")
        pair.server.close()
        runLoop()
    }

    /// A reader that holds its reading back holds the transport's: the
    /// ciphertext behind it waits in the transport, unread, until the
    /// reader lets go.
    func testHoldReading_HoldsTheTransportsReading() throws {
        let (pair, client, server) = tlsPair(server: try serverContext(), client: try clientContext())
        let received = Log([])
        let reading = server.rx.data.subscribe(onNext: { bytes in
            received.value.append(bytes.string)
            server.holdReading(true)
        })
        _ = client.write("first").subscribe()
        runLoop()
        XCTAssertEqual(received.value, ["first"])
        XCTAssertTrue(pair.server.isReadingHeld)
        _ = client.write("second").subscribe()
        runLoop()
        XCTAssertEqual(received.value, ["first"])
        XCTAssertGreaterThan(pair.server.unreadByteCount, 0, "the record waits in the transport")
        server.holdReading(false)
        runLoop()
        XCTAssertEqual(received.value, ["first", "second"])
        XCTAssertEqual(pair.server.unreadByteCount, 0)
        reading.dispose()
        client.close()
        runLoop()
    }
}
