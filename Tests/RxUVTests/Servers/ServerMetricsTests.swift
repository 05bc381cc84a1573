import CoreMetrics
import MetricsTestKit
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// A `Server`'s metrics, asserted exactly through swift-metrics' test kit
/// (`TestMetrics`) after scripted sessions on 127.0.0.1.
final class ServerMetricsTests: BridgeTestCase {
    private let metrics = TestMetrics()

    private func dimensions(_ label: String) -> [(String, String)] {
        [("server", label), ("loop", "0")]
    }

    private func counter(_ name: String, _ label: String) throws -> Int64 {
        try metrics.expectCounter(name, dimensions(label)).totalValue
    }

    /// An echo that reads until the peer's end: a drain's quiesce does not
    /// stop it, so its deadline resets it.
    private static func echo(_ served: ServedConnection<TCPConnection>) -> Completable {
        served.connection.rx.data
            .flatMap { served.connection.write($0).asObservable() }
            .catch { _ in .empty() }
            .asCompletable()
    }

    /// A python client that connects to argv[1] and says whether the
    /// server refused it (a reset or an end of stream at once).
    private static let refusedClient = """
        import socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        s.settimeout(5)
        try:
            print("refused" if s.recv(1) == b"" else "served")
        except ConnectionResetError:
            print("refused")
        """

    /// Waits (bounded) until `server` has `count` connections open.
    private static func settle(_ server: Server, at count: Int) async throws {
        for _ in 0..<400 where server.connectionCount != count {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(server.connectionCount, count)
    }

    /// One client echoes `hello`; a second is refused above
    /// `maxConnections`; the first leaves; a third stays through a drain
    /// and is reset at its deadline. Every metric is then exact.
    func testScriptedSession_AcceptedRefusedResetBytesActiveAndDrain() throws {
        var options = ServerOptions()
        options.maxConnections = 1
        options.metricsFactory = metrics
        options.metricsLabel = "session"
        let echoed = try loop.run { [loop = loop!, options] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, options: options, handler: Self.echo).value
            let port = server.address.port
            let first = try await loop.rx.connect(host: "127.0.0.1", port: port).value
            try await first.write("hello").value
            var replies = first.inbound.makeAsyncIterator()
            let echoed = try await replies.next().map { $0.string }
            try await Self.settle(server, at: 1)

            // Refused: python's client is accepted and reset at once.
            let refused = try await loop.rx.run(ProcessOptions("python3", arguments: ["-c", Self.refusedClient, "\(port)"])).value
            XCTAssertEqual(refused.standardOutput.string, "refused\n")

            first.close()
            try await Self.settle(server, at: 0)
            let stays = try await loop.rx.connect(host: "127.0.0.1", port: port).value
            try await Self.settle(server, at: 1)
            try await server.drain(deadline: .milliseconds(100)).value
            stays.close()
            return echoed
        }
        XCTAssertEqual(echoed, "hello")
        XCTAssertEqual(try counter("rxuv_server_connections_accepted", "session"), 2)
        XCTAssertEqual(try counter("rxuv_server_connections_refused", "session"), 1)
        XCTAssertEqual(try counter("rxuv_server_connections_reset", "session"), 1)
        XCTAssertEqual(try counter("rxuv_server_connections_idle_closed", "session"), 0)
        XCTAssertEqual(try counter("rxuv_server_bytes_read", "session"), 5)
        XCTAssertEqual(try counter("rxuv_server_bytes_written", "session"), 5)
        XCTAssertEqual(try metrics.expectGauge("rxuv_server_connections_active", dimensions("session")).values, [1, 0, 1, 0])
        let drains = try metrics.expectTimer("rxuv_server_drain_duration", [("server", "session")]).values
        XCTAssertEqual(drains.count, 1)
        XCTAssertGreaterThanOrEqual(drains.first ?? 0, 90_000_000, "the drain waited for its deadline (100 ms on the loop's clock)")
    }

    /// A quiet connection closed by the idle timeout counts as idle-closed,
    /// not reset; the label defaults to the address.
    func testIdleTimeout_CountsIdleClosed() throws {
        var options = ServerOptions()
        options.idleTimeout = .milliseconds(100)
        options.metricsFactory = metrics
        let label = try loop.run { [loop = loop!, options] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, options: options, handler: Self.echo).value
            let quiet = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            // Closed by the server: the read ends at its end of stream.
            for try await _ in quiet.inbound {}
            try await Self.settle(server, at: 0)
            try await server.drain(deadline: .seconds(1)).value
            return server.address.description
        }
        XCTAssertEqual(try counter("rxuv_server_connections_idle_closed", label), 1)
        XCTAssertEqual(try counter("rxuv_server_connections_accepted", label), 1)
        XCTAssertEqual(try counter("rxuv_server_connections_reset", label), 0)
    }

    /// Bytes reach their counters in batches of at least 16 KiB while a
    /// connection is open, and exactly once it has closed.
    func testBytes_CountedInBatchesThenExactlyAtClose() throws {
        var options = ServerOptions()
        options.metricsFactory = metrics
        options.metricsLabel = "batches"
        let size = 40_000
        let whileOpen = try loop.run { [loop = loop!, options, metrics] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, options: options, handler: Self.echo).value
            let client = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            try await client.write(ByteBuffer(randomBytes(count: size))).value
            var received = 0
            var replies = client.inbound.makeAsyncIterator()
            while received < size, let chunk = try await replies.next() {
                received += chunk.count
            }
            let read = metrics.counterTotal(label: "rxuv_server_bytes_read", dimensions: [("server", "batches"), ("loop", "0")])
            client.close()
            try await Self.settle(server, at: 0)
            try await server.drain(deadline: .seconds(1)).value
            return read
        }
        XCTAssertGreaterThanOrEqual(whileOpen, Int64(ServerMetricsTests.batch))
        XCTAssertLessThanOrEqual(whileOpen, Int64(size))
        XCTAssertEqual(try counter("rxuv_server_bytes_read", "batches"), Int64(size))
        XCTAssertEqual(try counter("rxuv_server_bytes_written", "batches"), Int64(size))
    }

    /// The batch the server's byte counters take at least.
    private static let batch = 16 * 1024

    /// With `recordsMetrics` off, nothing is made or recorded.
    func testRecordsMetricsOff_RecordsNothing() throws {
        var options = ServerOptions()
        options.recordsMetrics = false
        options.metricsFactory = metrics
        try loop.run { [loop = loop!, options] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0, options: options, handler: Self.echo).value
            let client = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            try await client.write("x").value
            try await Self.settle(server, at: 1)
            client.close()
            try await server.drain(deadline: .seconds(1)).value
        }
        XCTAssertTrue(metrics.counters.isEmpty)
        XCTAssertTrue(metrics.recorders.isEmpty)
        XCTAssertTrue(metrics.timers.isEmpty)
    }
}
