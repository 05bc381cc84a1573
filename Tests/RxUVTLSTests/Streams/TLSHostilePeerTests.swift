import RxCore
import RxUV
import RxUVTLS
import RxUVTestSupport
import XCTest

/// Peers that do not play by the rules, as real processes: each gets the
/// typed error it deserves on the server's side, is closed, and the server
/// serves the next client as if nothing happened. No crash, no leak.
final class TLSHostilePeerTests: TLSTestCase {
    /// A client that speaks TLS properly: one line out, the echo back.
    private static let wellBehaved = """
        import socket, ssl, sys
        context = ssl.create_default_context(cafile=sys.argv[2])
        with socket.create_connection(("127.0.0.1", int(sys.argv[1]))) as raw:
            s = context.wrap_socket(raw, server_hostname="localhost")
            s.sendall(b"still serving\\n")
            print(s.recv(100).decode().strip())
            s.unwrap()
        """

    /// The first bytes of a real ClientHello, for the peers that send part of one.
    private static let clientHello = """
        import ssl
        def client_hello():
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = ssl.create_default_context().wrap_bio(incoming, outgoing, server_hostname="localhost")
            try:
                tls.do_handshake()
            except ssl.SSLWantReadError:
                pass
            return outgoing.read()
        """

    func testHostilePeers_EachGetsItsError_TheServerCarriesOn() throws {
        let rows: [(name: String, script: String, expected: TLSError.Code)] = [
            (
                "plain text on the TLS port",
                """
                import socket, sys
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s.sendall(b"GET / HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
                while s.recv(4096): pass
                """,
                .notTLS
            ),
            (
                "a garbage record",
                """
                import socket, sys
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s.sendall(b"\\x16\\x03\\x01\\x00\\x08garbage!")
                while s.recv(4096): pass
                """,
                .badRecord
            ),
            (
                "half a ClientHello, then end of stream",
                Self.clientHello + """

                    import socket, sys
                    hello = client_hello()
                    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                    s.sendall(hello[: len(hello) // 2])
                    s.shutdown(socket.SHUT_WR)
                    while s.recv(4096): pass
                    """,
                .uncleanShutdown
            ),
            (
                "a client that never says hello",
                """
                import socket, sys, time
                s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                started = time.monotonic()
                try:
                    while s.recv(4096): pass
                except ConnectionResetError:
                    pass
                assert time.monotonic() - started < 5, "not closed by the handshake timeout"
                """,
                .handshakeTimeout
            ),
            (
                "data, then a close without close_notify",
                """
                import socket, ssl, sys
                context = ssl.create_default_context(cafile=sys.argv[2])
                raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s = context.wrap_socket(raw, server_hostname="localhost")
                s.sendall(b"truncated?")
                s.recv(100)
                raw_fd = s.detach()
                socket.socket(fileno=raw_fd).close()
                """,
                .uncleanShutdown
            ),
        ]
        let ca = file("ca.pem")
        for row in rows {
            let server = try serverContext { $0.handshakeTimeout = .milliseconds(300) }
            let reports = CapturedReports()
            var options = ServerOptions()
            options.logger = reports.logger
            let codes = Shared<[String]>([])
            let answer = try withServer(
                server, options: options,
                handler: { served in
                    TLSTestCase.echo(served).do(onError: { error in
                        codes.mutate { $0.append((error as? TLSError)?.code.rawValue ?? "\(error)") }
                    })
                }
            ) { [loop = loop!] port in
                _ = try await loop.python(row.script, ["\(port)", ca])
                return try await loop.python(Self.wellBehaved, ["\(port)", ca])
            }
            XCTAssertEqual(codes.value, [row.expected.rawValue], row.name)
            XCTAssertEqual(answer, "still serving\n", row.name)
            XCTAssertEqual(reports.entries.count, 1, "\(row.name): the handler's failure is logged once: \(reports.entries)")
            assertNoLeaks(row.name)
        }
    }

    /// `openssl s_client` asks to renegotiate a TLS 1.2 session (`R`): the
    /// server refuses (`no_renegotiation`), s_client gives up the
    /// connection with a `handshake_failure` alert, which ends that
    /// connection's handler, and the server serves the next client.
    func testRenegotiation_IsRefused() throws {
        let server = try serverContext { $0.maximumVersion = .tls12 }
        let codes = Shared<[String]>([])
        let ca = file("ca.pem")
        let reports = CapturedReports()
        var options = ServerOptions()
        options.logger = reports.logger
        let (output, next) = try withServer(
            server, options: options,
            handler: { served in
                TLSTestCase.echo(served).do(onError: { error in
                    codes.mutate { $0.append((error as? TLSError)?.code.rawValue ?? "\(error)") }
                })
            }
        ) { [loop = loop!] port in
            // s_client takes `R` as a command only at the start of a read
            // of its input: the lines go one by one.
            let output = try await loop.python(
                """
                import subprocess, sys, time
                client = subprocess.Popen(
                    ["openssl", "s_client", "-connect", "127.0.0.1:" + sys.argv[1], "-CAfile", sys.argv[2], "-tls1_2"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                try:
                    for line in (b"before\\n", b"R\\n", b"after\\n"):
                        client.stdin.write(line)
                        client.stdin.flush()
                        time.sleep(0.4)
                    client.stdin.close()
                except BrokenPipeError:
                    pass
                sys.stdout.write(client.communicate(timeout=10)[0].decode(errors="replace"))
                """, ["\(port)", ca])
            return (output, try await loop.python(Self.wellBehaved, ["\(port)", ca]))
        }
        XCTAssertTrue(output.contains("RENEGOTIATING"), output)
        XCTAssertTrue(output.contains("before"), "the echo before the attempt: \(output)")
        XCTAssertTrue(output.contains("no renegotiation"), output)
        XCTAssertEqual(codes.value, ["handshakeFailure"], "the client's alert ends the handler")
        XCTAssertEqual(reports.entries.count, 1, "\(reports.entries)")
        XCTAssertEqual(next, "still serving\n")
    }

    /// 250 of our clients handshake at once with one server; each gets its
    /// echo.
    func testConcurrentHandshakes_AllServed() throws {
        let server = try serverContext()
        let client = try clientContext()
        let count = 250
        let echoed = try withServer(server) { [loop = loop!] port in
            try await withThrowingTaskGroup(of: Bool.self, returning: Int.self) { group in
                for index in 0..<count {
                    group.addTask(executorPreference: loop) {
                        let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
                        async let echo = stream.rx.data.toArray().value
                        try await stream.write("client \(index)").value
                        try await stream.shutdown().value
                        return ByteBuffer(concatenating: try await echo).string == "client \(index)"
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        XCTAssertEqual(echoed, count)
    }
}
