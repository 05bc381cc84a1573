import Dispatch
import InMemoryLogging
import Logging
import RxCore
import RxUV
import RxUVServiceLifecycle
import RxUVTestSupport
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `LoopGroupService` and `ServerService` under a `ServiceGroup`, driven
/// by swift-service-lifecycle's test kit: a graceful shutdown drains the
/// servers and closes the loops; a server that cannot listen ends the group
/// with its error logged; cancellation ends the drain at once. The leak
/// gate (`BridgeTestCase`) checks that the groups' objects are all gone.
final class LoopGroupServiceTests: BridgeTestCase {
    /// An echo handler that stops reading when its server drains.
    private static func echo(_ served: ServedConnection<TCPConnection>) -> Completable {
        served.connection.rx.data
            .take(until: served.quiesce)
            .flatMap { served.connection.write($0).asObservable() }
            .catch { _ in .empty() }
            .asCompletable()
    }

    private let log = InMemoryLogHandler()
    private var logger: Logger {
        Logger(label: "rxuv.lifecycle.test") { [log] _ in log }
    }

    /// A graceful shutdown of the service group drains the server (a client
    /// mid-conversation is told through `quiesce`, its echo goes out, it
    /// sees end of stream), then the group's loops close; `run()` returns.
    func testGracefulShutdown_DrainsTheServerThenClosesTheLoops() async throws {
        let group = try LoopGroup(threads: 2, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(2))
        let listening = AsyncStream<Server>.makeStream()
        let server = ServerService(group.rx.serve(host: "127.0.0.1", port: 0, handler: Self.echo), drainedBy: daemon, name: "127.0.0.1:0") { server in
            listening.continuation.yield(server)
        }
        let requested = Mutex<[Int32]>([])
        _ = daemon.shutdown.requested.subscribe(onNext: { signal in requested.withLock { $0.append(signal) } })
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                let logger = self.logger
                tasks.addTask {
                    try await ServiceGroup(services: [daemon, server], logger: logger).run()
                }
                var servers = listening.stream.makeAsyncIterator()
                let next = await servers.next()
                let started = try XCTUnwrap(next)
                let client = try BlockingClient(port: started.address.port)
                XCTAssertEqual(try client.roundTrip("hello"), "hello")
                XCTAssertEqual(started.connectionCount, 1)
                trigger.triggerGracefulShutdown()
                try await tasks.waitForAll()
                // Drained: the client reads end of stream.
                XCTAssertEqual(try client.readToEnd(), "")
                XCTAssertEqual(started.connectionCount, 0)
                XCTAssertEqual(started.servedCount, 1)
            }
        }
        XCTAssertEqual(requested.withLock { $0 }, [SIGTERM])
        XCTAssertTrue(group.loops.allSatisfy { $0.openHandleCount == 0 })
        XCTAssertTrue(log.entries.filter { $0.level >= .error }.isEmpty, "\(log.entries)")
    }

    /// A server that cannot listen (its port is taken) ends the group: the
    /// service logs why at level `error`, `run(with:)` throws the
    /// `UVError`, and the group's loops are shut down.
    func testServerThatCannotListen_EndsTheGroupWithTheErrorLogged() async throws {
        let taken = try BlockingListener()
        let group = try LoopGroup(threads: 1, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(1))
        let server = ServerService(group.rx.serve(host: "127.0.0.1", port: taken.port, handler: Self.echo), drainedBy: daemon, name: "127.0.0.1:\(taken.port)")
        do {
            try await daemon.run(with: [server], gracefulShutdownSignals: [], logger: logger)
            XCTFail("the group should have ended with EADDRINUSE")
        } catch let error as UVError {
            XCTAssertEqual(error.code, .addressInUse)
        }
        let errors = log.entries.filter { $0.level == .error }
        XCTAssertEqual(errors.count, 1, "\(log.entries)")
        XCTAssertEqual((errors.first?.error as? UVError)?.code, .addressInUse)
        XCTAssertEqual("\(errors.first?.message ?? "")", "cannot listen on 127.0.0.1:\(taken.port): EADDRINUSE (address already in use)")
        XCTAssertTrue(group.loops.allSatisfy { $0.openHandleCount == 0 })
        _ = taken
    }

    /// Cancelling the group while a client holds the drain open ends the
    /// drain at once: connections are reset rather than waited for.
    func testCancellation_EndsTheDrainAtOnce() async throws {
        let group = try LoopGroup(threads: 1, logger: logger)
        let daemon = LoopGroupService(group, deadline: .seconds(30))
        let listening = AsyncStream<Server>.makeStream()
        // A handler that never finishes: only a reset ends it.
        let server = ServerService(group.rx.serve(host: "127.0.0.1", port: 0) { _ in .never() }, drainedBy: daemon, name: "127.0.0.1:0") { server in
            listening.continuation.yield(server)
        }
        let began = ContinuousClock.now
        try await testGracefulShutdown { trigger in
            let logger = self.logger
            let running = Task {
                try await ServiceGroup(services: [daemon, server], logger: logger).run()
            }
            var servers = listening.stream.makeAsyncIterator()
            let next = await servers.next()
            let started = try XCTUnwrap(next)
            let client = try BlockingClient(port: started.address.port)
            while started.connectionCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            trigger.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(100))
            running.cancel()
            try await running.value
            XCTAssertEqual(started.connectionCount, 0)
            _ = client
        }
        XCTAssertLessThan(ContinuousClock.now - began, .seconds(10))
        XCTAssertTrue(group.loops.allSatisfy { $0.openHandleCount == 0 })
    }

    /// `LoopGroupService(_:deadline:signals:secondSignals:)` takes the
    /// deadline as an `RxTimeInterval` or a `Duration` (RxUV's time rule):
    /// for each row, `shutdown.deadline` is the `Duration` given, and a
    /// graceful shutdown waits that long for drain work that never ends,
    /// then closes the loops and `run()` returns.
    func testDeadline_RxTimeIntervalOrDuration_BoundsTheDrain() async throws {
        let rows: [(name: String, make: @Sendable (LoopGroup) -> LoopGroupService)] = [
            ("RxTimeInterval", { LoopGroupService($0, deadline: .milliseconds(150)) }),
            ("Duration", { LoopGroupService($0, deadline: Duration.milliseconds(150)) }),
        ]
        for row in rows {
            let group = try LoopGroup(threads: 1, logger: logger)
            let daemon = row.make(group)
            XCTAssertEqual(daemon.shutdown.deadline, .milliseconds(150), row.name)
            daemon.shutdown.add(drain: .never())
            let began = ContinuousClock.now
            try await testGracefulShutdown { trigger in
                let running = Task { try await daemon.run() }
                trigger.triggerGracefulShutdown()
                try await running.value
            }
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - began, .milliseconds(149), row.name)
            XCTAssertTrue(group.loops.allSatisfy { $0.openHandleCount == 0 }, row.name)
        }
    }
}

/// A plain blocking TCP client on 127.0.0.1, outside any loop.
private final class BlockingClient: @unchecked Sendable {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw UVError(code: UVError.Code(rawValue: -errno), operation: "connect") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(socket)
    }

    /// Sends `text` and reads until as many bytes came back.
    func roundTrip(_ text: String) throws -> String {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while received.count < bytes.count {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw UVError(code: .endOfFile, operation: "recv") }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads until end of stream (or a reset, which ends it too).
    func readToEnd() throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else {
                if errno == ECONNRESET { break }
                throw UVError(code: UVError.Code(rawValue: -errno), operation: "recv")
            }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// A listening socket on 127.0.0.1 that takes a port for the test.
private final class BlockingListener: @unchecked Sendable {
    private let socket: Int32
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                bind(socket, address, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            close(socket)
            throw UVError(code: UVError.Code(rawValue: -errno), operation: "bind")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}
