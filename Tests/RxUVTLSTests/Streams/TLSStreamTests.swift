import RxCore
import RxUV
import RxUVTLS
import RxUVTestSupport
import XCTest

/// TLS streams over real TCP connections on 127.0.0.1: our client and
/// server, Python's `ssl` and `openssl s_client` as peers.
final class TLSStreamTests: TLSTestCase {
    /// Our client writes `size` bytes to our echo server, half-closes
    /// (`close_notify`, then FIN) and reads the echo to its end, byte-exact.
    func testRoundTrip_OurClientAndServer_ByteExactFromOneByteTo16MiB() throws {
        let server = try serverContext()
        let client = try clientContext()
        let sizes = [1, 1000, 16_385, 1 << 20, 16 << 20]
        let results = try withServer(server) { [loop = loop!] port in
            var results: [Bool] = []
            for size in sizes {
                let payload = ByteBuffer(unsafeUninitializedCapacity: size) { memory in
                    var word = UInt64(size)
                    for index in 0..<size {
                        if index % 8 == 0 { word = word &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                        memory[index] = UInt8(truncatingIfNeeded: word >> (index % 8 * 8))
                    }
                    return size
                }
                let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
                async let echoed = stream.rx.data.toArray().value
                try await stream.write(payload).value
                try await stream.shutdown().value
                results.append(ByteBuffer(concatenating: try await echoed) == payload)
            }
            return results
        }
        XCTAssertEqual(results, sizes.map { _ in true })
    }

    /// Many small writes, and one vectored write, arrive in order.
    func testWrites_ManySmallAndVectored_ArriveInOrder() throws {
        let server = try serverContext()
        let client = try clientContext()
        let received = try withServer(server) { [loop = loop!] port in
            let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
            async let echoed = stream.rx.data.collected().value
            for index in 0..<1000 {
                _ = stream.write(ByteBuffer(string: "\(index),")).subscribe()
            }
            try await stream.write([ByteBuffer(string: "head|"), ByteBuffer(string: "body|"), ByteBuffer(string: "tail")]).value
            try await stream.shutdown().value
            return String(decoding: try await echoed, as: UTF8.self)
        }
        XCTAssertEqual(received, (0..<1000).map { "\($0)," }.joined() + "head|body|tail")
    }

    /// Python's ssl module: a client that verifies our server against the
    /// test CA, sends 1 MiB, reads the echo and unwraps (close_notify both
    /// ways).
    func testPythonClient_EchoesAndUnwrapsCleanly() throws {
        let script = """
            import socket, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[2])
            with socket.create_connection(("127.0.0.1", int(sys.argv[1]))) as raw:
                s = context.wrap_socket(raw, server_hostname="localhost")
                data = bytes(range(256)) * 4096
                s.sendall(data)
                received = b""
                while len(received) < len(data):
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    received += chunk
                assert received == data, len(received)
                version, cipher = s.version(), s.cipher()[0]
                s.unwrap()
                print(version, cipher, "unwrapped")
            """
        let server = try serverContext()
        let ca = file("ca.pem")
        let output = try withServer(server) { [loop = loop!] port in
            try await loop.python(script, ["\(port)", ca])
        }
        XCTAssertTrue(output.hasPrefix("TLSv1.3 "), output)
        XCTAssertTrue(output.hasSuffix("unwrapped\n"), output)
    }

    /// `openssl s_client` verifies our server, sends a line, gets the answer
    /// and sees the server close cleanly.
    func testOpenSSLClient_VerifiesAndGetsTheAnswer() throws {
        let server = try serverContext { $0.applicationProtocols = ["rxuv/1"] }
        let session = Shared<TLSSession?>(nil)
        let ca = file("ca.pem")
        let output = try withServer(
            server,
            handler: { served in
                served.connection.rx.data.lines(maxLength: 100).take(1)
                    .concatMap { line in
                        session.value = served.connection.session
                        return served.connection.write("echo: \(line.string)\n").asObservable()
                    }
                    .asCompletable()
            }
        ) { [loop = loop!] port in
            try await loop.run(
                "openssl",
                [
                    "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", ca, "-servername", "localhost",
                    "-verify_return_error", "-alpn", "rxuv/1", "-ign_eof", "-quiet",
                ],
                input: ByteBuffer(string: "hello\n"))
        }
        XCTAssertEqual(output, "echo: hello\n")
        XCTAssertEqual(session.value?.applicationProtocol, "rxuv/1")
        XCTAssertEqual(session.value?.serverName, "localhost")
    }

    /// Mutual TLS: the handler sees the client's certificate once the
    /// handshake is done; a client without one is refused with
    /// `certificateRequired` on both sides.
    func testMutualTLS_HandlerSeesTheClientCertificate_MissingOneIsRefused() throws {
        let server = try serverContext {
            $0.peerVerification = .required
            $0.trustRoots = .certificates(.file(self.file("ca.pem")))
        }
        let withCertificate = try clientContext { $0.identity = self.identity("client") }
        let without = try clientContext()
        let reports = CapturedReports()
        var options = ServerOptions()
        options.logger = reports.logger
        let names = Shared<[String]>([])
        let (answer, failure) = try withServer(
            server, options: options,
            handler: { served in
                served.connection.handshake.andThen(
                    Completable.deferred {
                        served.connection.write("hello \(served.connection.session?.peerCertificate?.commonName ?? "nobody")\n")
                    }
                )
                .do(onError: { error in names.mutate { $0.append("\((error as? TLSError)?.code.rawValue ?? "\(error)")") } })
            }
        ) { [loop = loop!] port in
            let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: withCertificate).value
            let answer = String(decoding: try await stream.rx.data.collected().value, as: UTF8.self)
            let refused = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: without).value
            var failure: TLSError?
            do {
                _ = try await refused.rx.data.collected().value
            } catch let error as TLSError {
                failure = error
            }
            return (answer, failure)
        }
        XCTAssertEqual(answer, "hello rxuv-client\n")
        XCTAssertEqual(failure?.code, .certificateRequired, "\(String(describing: failure))")
        XCTAssertEqual(names.value, ["certificateRequired"])
        XCTAssertEqual(reports.entries.count, 1, "the handler's failure is logged: \(reports.entries)")
    }

    /// Verification failures reach our client as typed errors over a real
    /// connection, and the server carries on serving.
    func testClient_VerificationFailures_AreTypedAndTheServerCarriesOn() throws {
        let rows: [(String, String?, TLSError.Code)] = [
            ("expired", "localhost", .certificateExpired),
            ("server", "wrong.example", .hostnameMismatch),
            ("rogue", "localhost", .unknownCA),
        ]
        let client = try clientContext()
        let reports = CapturedReports()
        var options = ServerOptions()
        options.logger = reports.logger
        let lenient = try clientContext { $0.peerVerification = .none }
        for (identity, name, expected) in rows {
            let server = try serverContext(identity)
            let (code, echoed) = try withServer(server, options: options) { [loop = loop!] port in
                var code: TLSError.Code?
                do {
                    _ = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client, serverName: name).value
                } catch let error as TLSError {
                    code = error.code
                }
                // The next client, trusting anything, is served.
                let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: lenient).value
                async let echoed = stream.rx.data.collected().value
                try await stream.write("still here").value
                try await stream.shutdown().value
                return (code, String(decoding: try await echoed, as: UTF8.self))
            }
            XCTAssertEqual(code, expected, identity)
            XCTAssertEqual(echoed, "still here", identity)
        }
    }

    /// A client given up during its handshake (a `timeout` on a server that
    /// never answers) goes at once: its connection closes, its SSL is
    /// freed, and no handshake timer keeps the loop running.
    func testConnect_GivenUpDuringTheHandshake_LeavesNothingBehind() throws {
        let client = try clientContext()
        let started = ContinuousClock.now
        let outcome = try loop.run { [loop = loop!] in
            let silent = try await loop.rx.serve(host: "127.0.0.1", port: 0) { _ in .never() }.value
            var outcome = "connected"
            do {
                _ = try await loop.rx.connect(host: "127.0.0.1", port: silent.address.port, tls: client)
                    .timeout(.milliseconds(200), scheduler: loop).value
            } catch RxError.timeout {
                outcome = "timeout"
            }
            try await silent.drain(deadline: .milliseconds(100)).value
            return outcome
        }
        XCTAssertEqual(outcome, "timeout")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "the handshake's 10 s timer held the loop")
    }

    /// A server that greets before the handshake has ended: the greeting is
    /// held, then sent once the handshake is done, before the echo.
    func testWriteBeforeTheHandshakeEnds_IsHeldNotLost() throws {
        let server = try serverContext()
        let client = try clientContext()
        let received = try withServer(
            server,
            handler: { served in
                served.connection.write("hello before the handshake\n").andThen(TLSTestCase.echo(served))
            }
        ) { [loop = loop!] port in
            let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
            async let everything = stream.rx.data.toArray().value
            try await stream.write("echo me").value
            try await stream.shutdown().value
            return ByteBuffer(concatenating: try await everything).string
        }
        XCTAssertEqual(received, "hello before the handshake\necho me")
    }

    /// `listen(host:port:tls:)`: each accepted connection as a TLS stream
    /// on its own, closed when its read subscription ends.
    func testListen_EmitsTLSStreams() throws {
        let server = try serverContext()
        let client = try clientContext()
        let port = Shared(0)
        let listening = loop.rx.listen(host: "127.0.0.1", port: 0, tls: server, onListening: { port.value = $0.port })
            .take(2)
            .flatMap { stream in
                stream.rx.data.take(1).flatMap { line in stream.write(ByteBuffer(string: "got ") + line) }
            }
            .subscribe()
        var answers: [String] = []
        _ = Observable.from(["one", "two"])
            .concatMap { [loop = loop!] word in
                loop.rx.connect(host: "127.0.0.1", port: port.value, tls: client).asObservable()
                    .flatMap { stream in
                        stream.write(word).andThen(stream.rx.data.toArray().asObservable()).map { ByteBuffer(concatenating: $0).string }
                    }
            }
            .subscribe(onNext: { answers.append($0) }, onError: { XCTFail("\($0)") })
        runLoop()
        listening.dispose()
        XCTAssertEqual(answers, ["got one", "got two"])
    }
}
