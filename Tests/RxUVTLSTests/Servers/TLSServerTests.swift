import RxCore
import RxUV
import RxUVTLS
import RxUVTestSupport
import XCTest

/// TLS through `Server`: spread over a group's loops, drained gracefully
/// with `close_notify`, certificates swapped while serving, Unix sockets.
final class TLSServerTests: TLSTestCase {
    /// Eight Python clients on a server over two loops: each sends a line,
    /// gets its echo, then waits; the drain tells the handlers, which stop
    /// reading, and each client sees a clean TLS close (`close_notify`, not
    /// a ragged EOF).
    func testDrain_OnTwoLoops_ClosesEveryConnectionWithCloseNotify() throws {
        let group = try LoopGroup(threads: 2)
        defer { XCTAssertNoThrow(try group.shutdown()) }
        let context = try serverContext()
        let perLoop = Shared([0, 0])
        let loops = group.loops
        let clients = 8
        let script = """
            import socket, ssl, sys, threading
            context = ssl.create_default_context(cafile=sys.argv[2])
            results = []
            def client(index):
                raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                s = context.wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False)
                s.sendall(b"line %d\\n" % index)
                received = b""
                try:
                    while True:
                        chunk = s.recv(100)
                        if not chunk:
                            break
                        received += chunk
                    results.append("clean" if received == b"line %d\\n" % index else "wrong: %r" % received)
                except ssl.SSLEOFError:
                    results.append("ragged")
            threads = [threading.Thread(target=client, args=(i,)) for i in range(int(sys.argv[3]))]
            for t in threads: t.start()
            for t in threads: t.join()
            print(" ".join(sorted(results)))
            """
        let ca = file("ca.pem")
        let output = try loop.run { [loop = loop!] in
            let server = try await group.rx.serve(host: "127.0.0.1", port: 0, tls: context) { served in
                perLoop.mutate { $0[loops.firstIndex { $0 === served.loop } ?? 0] += 1 }
                return served.connection.rx.data
                    .take(until: served.quiesce)
                    .concatMap { served.connection.write($0).asObservable() }
                    .asCompletable()
            }.value
            async let output = loop.python(script, ["\(server.address.port)", ca, "\(clients)"])
            // The drain starts once every connection is in.
            while server.connectionCount < clients {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(200))
            try await server.drain(deadline: .seconds(5)).value
            return try await output
        }
        XCTAssertEqual(output, Array(repeating: "clean", count: clients).joined(separator: " ") + "\n")
        XCTAssertEqual(perLoop.value.reduce(0, +), clients)
        XCTAssertTrue(perLoop.value.allSatisfy { $0 > 0 }, "\(perLoop.value)")
    }

    /// A context reloaded while the server runs: the next connection gets
    /// the new certificate; one already open keeps talking.
    func testReload_WhileServing_NewConnectionsGetTheNewCertificate() throws {
        let context = try serverContext()
        let client = try clientContext { $0.peerVerification = .none }
        let otherIdentity = identity("other")
        let names = try withServer(context) { [loop = loop!] port in
            let first = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
            try context.reload(.server(identity: otherIdentity))
            let second = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
            async let firstEcho = first.rx.data.toArray().value
            try await first.write("still here").value
            try await first.shutdown().value
            second.close()
            let echo = ByteBuffer(concatenating: try await firstEcho).string
            return [first.session?.peerCertificate?.commonName, second.session?.peerCertificate?.commonName, echo]
        }
        XCTAssertEqual(names, ["localhost", "other.example", "still here"])
    }

    /// TLS over a Unix-domain socket: served and connected by path, with a
    /// server name checked as over TCP.
    func testUnixSocket_ServedAndConnected() throws {
        let directory = try TemporaryDirectory("rxuv-tls-unix")
        defer { directory.remove() }
        let path = directory.path + "/tls.sock"
        let context = try serverContext()
        let client = try clientContext()
        let echo = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(unixPath: path, tls: context, handler: TLSTestCase.echo).value
            let stream = try await loop.rx.connect(unixPath: path, tls: client, serverName: "localhost").value
            async let echoed = stream.rx.data.toArray().value
            try await stream.write("over a path").value
            try await stream.shutdown().value
            let echo = ByteBuffer(concatenating: try await echoed).string
            try await server.drain(deadline: .seconds(2)).value
            return echo
        }
        XCTAssertEqual(echo, "over a path")
    }

    /// `inbound` over TLS: a consumer that holds reading back stops the
    /// transport, and everything still arrives, in order.
    func testInbound_OverTLS_HoldsBackAndDeliversEverything() throws {
        let context = try serverContext()
        let client = try clientContext()
        let size = 1 << 20
        let counted = try withServer(
            context,
            handler: { served in
                Completable.create { observer in
                    let task = Task(executorPreference: served.loop) {
                        var total = 0
                        var crc: UInt32 = 0
                        do {
                            for try await chunk in served.connection.inbound(highWatermark: 64 * 1024, lowWatermark: 16 * 1024) {
                                total += chunk.count
                                for byte in chunk { crc = crc &* 31 &+ UInt32(byte) }
                                try await Task.sleep(for: .microseconds(200))
                            }
                            try await served.connection.write("\(total) \(crc)").value
                            observer(.completed)
                        } catch {
                            observer(.error(error))
                        }
                    }
                    return Disposables.create { task.cancel() }
                }
            }
        ) { [loop = loop!] port in
            let stream = try await loop.rx.connect(host: "127.0.0.1", port: port, tls: client).value
            async let answer = stream.rx.data.toArray().value
            let payload = ByteBuffer((0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) })
            try await stream.write(payload).value
            try await stream.shutdown().value
            var crc: UInt32 = 0
            for byte in payload { crc = crc &* 31 &+ UInt32(byte) }
            return (ByteBuffer(concatenating: try await answer).string, "\(size) \(crc)")
        }
        XCTAssertEqual(counted.0, counted.1)
    }
}
