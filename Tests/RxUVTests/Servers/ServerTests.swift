import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `Server` over a `LoopGroup` of 4: spreading, limits, idle timeout and
/// drain, with clients on the test's own loop.
final class ServerTests: BridgeTestCase {
    private var group: LoopGroup!

    override func setUpWithError() throws {
        try super.setUpWithError()
        group = try LoopGroup(threads: 4)
    }

    override func tearDownWithError() throws {
        // Every loop of the group must end with no handle open.
        XCTAssertNoThrow(try group.shutdown())
        group = nil
        try super.tearDownWithError()
    }

    /// What each served connection reports: its loop's index, and whether
    /// its handler ran on that loop's thread.
    private final class Record: Sendable {
        let perLoop = Mutex([0, 0, 0, 0])
        let offThread = Atomic<Int>(0)
        let bytesRead = Atomic<Int>(0)
    }

    /// An echo that stops reading when the server quiesces.
    private func echo(_ record: Record, loops: [Loop]) -> @Sendable (ServedConnection<TCPConnection>) -> Completable {
        { served in
            if !served.loop.isOnLoopThread { record.offThread.add(1, ordering: .relaxed) }
            let index = loops.firstIndex { $0 === served.loop } ?? 0
            record.perLoop.withLock { $0[index] += 1 }
            return served.connection.rx.data
                .take(until: served.quiesce)
                .flatMap { bytes in
                    record.bytesRead.add(bytes.count, ordering: .relaxed)
                    if !served.loop.isOnLoopThread { record.offThread.add(1, ordering: .relaxed) }
                    return served.connection.write(bytes).asObservable()
                }
                .asCompletable()
        }
    }

    /// Starts a server on the group and waits until it listens.
    private func serve(_ options: ServerOptions, handler: @escaping @Sendable (ServedConnection<TCPConnection>) -> Completable) throws -> Server {
        let server = Shared<Result<Server, UVError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        _ = group.rx.serve(host: "127.0.0.1", port: 0, options: options, handler: handler).subscribe(
            onSuccess: {
                server.value = .success($0)
                done.signal()
            },
            onFailure: {
                server.value = .failure($0 as! UVError)
                done.signal()
            })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        return try XCTUnwrap(server.value).get()
    }

    /// Drains `server` (deadline 0 unless given) and waits for it.
    private func drain(_ server: Server, deadline: RxTimeInterval = .seconds(0)) {
        let done = DispatchSemaphore(value: 0)
        _ = server.drain(deadline: deadline).subscribe(onCompleted: { done.signal() })
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the drain did not end")
    }

    /// `count` TCP clients, at most 500 at once, each checking its echo.
    private func echoClients(_ count: Int, port: Int) -> Int {
        echoClients(count, maxConcurrent: 500) { $0.rx.connect(host: "127.0.0.1", port: port) }
    }

    private func checkSpread(_ distribution: ConnectionDistribution, connections: Int, tolerance: Double?) throws {
        let record = Record()
        var options = ServerOptions()
        options.distribution = distribution
        let server = try serve(options, handler: echo(record, loops: group.loops))
        XCTAssertEqual(echoClients(connections, port: server.address.port), connections)
        drain(server)
        let perLoop = record.perLoop.withLock { $0 }
        XCTAssertEqual(perLoop.reduce(0, +), connections)
        XCTAssertEqual(record.offThread.load(ordering: .relaxed), 0, "a handler ran off its loop's thread")
        print("\(distribution): \(perLoop) for \(connections) connections")
        if let tolerance {
            let even = Double(connections) / 4
            for count in perLoop {
                XCTAssertLessThanOrEqual(abs(Double(count) - even), even * tolerance, "\(distribution): \(perLoop)")
            }
        } else {
            XCTAssertTrue(perLoop.allSatisfy { $0 > 0 }, "\(distribution): \(perLoop)")
        }
    }

    func testRoundRobin_10000Connections_EvenAndEchoExact() throws {
        try checkSpread(.roundRobin, connections: 10_000, tolerance: 0.10)
    }

    func testLeastConnections_10000Connections_WithinTenPercent() throws {
        try checkSpread(.leastConnections, connections: 10_000, tolerance: 0.10)
    }

    /// The kernel spreads by a hash: every loop gets some, as it decides.
    func testReusePort_10000Connections_EveryLoopServes() throws {
        try checkSpread(.reusePort, connections: 10_000, tolerance: nil)
    }

    /// Open descriptors of this process, but `/dev/null`: each loop opens
    /// one on first use and keeps it (libuv's reserve for `EMFILE`).
    private func descriptorCount() -> Int {
        DirectoryListing.entries(of: "/proc/self/fd").filter { entry in
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink("/proc/self/fd/\(entry)", &buffer, 255)
            return String(decoding: buffer.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self) != "/dev/null"
        }.count
    }

    func testMaxConnections_RefusesAboveTheLimit_CountNeverExceeds() throws {
        let descriptorsBefore = descriptorCount()
        let most = Atomic<Int>(0)
        let serverBox = Shared<Server?>(nil)
        var options = ServerOptions()
        options.maxConnections = 5
        let server = try serve(options) { served in
            most.max(serverBox.value?.connectionCount ?? 0, ordering: .relaxed)
            return served.connection.rx.data.take(until: served.quiesce).ignoreElements().asCompletable()
        }
        serverBox.value = server
        var refusedBeforeClose = 0
        var ended = 0
        var clients: [TCPConnection] = []
        let loop = self.loop!
        for _ in 0..<8 {
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
                .flatMap { client -> Observable<ByteBuffer> in
                    clients.append(client)
                    return client.rx.data
                }
                .subscribe(onError: { _ in ended += 1 }, onCompleted: { ended += 1 })
        }
        // Once every connect has arrived (and the three over the limit have
        // ended), look, then close the clients.
        _ = loop.rx.timer(after: .milliseconds(10), repeating: .milliseconds(10))
            .filter { tick in (clients.count == 8 && ended >= 3) || tick >= 500 }
            .take(1)
            .subscribe(onNext: { _ in
                refusedBeforeClose = ended
                XCTAssertEqual(server.connectionCount, 5)
                for client in clients { client.close() }
            })
        runLoop()
        XCTAssertEqual(refusedBeforeClose, 3, "the connections over the limit were not refused at once")
        XCTAssertEqual(ended, 8)
        XCTAssertLessThanOrEqual(most.load(ordering: .relaxed), 5)
        drain(server)
        XCTAssertEqual(server.connectionCount, 0)
        usleep(50_000)
        XCTAssertEqual(descriptorCount(), descriptorsBefore, "a descriptor leaked")
        serverBox.value = nil
    }

    /// Drain: new connects refused at once; the in-flight echo finishes
    /// byte-exact; an idle client is closed at once; a client that never
    /// reads holds its connection until the deadline resets it.
    func testDrain_RefusesNew_FinishesInFlight_ClosesIdle_ResetsTheStuck() throws {
        let record = Record()
        let server = try serve(ServerOptions(), handler: echo(record, loops: group.loops))
        let port = server.address.port
        let loop = self.loop!
        var clients: [String: TCPConnection] = [:]
        let payload = ByteBuffer((0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var echoed: [ByteBuffer] = []
        var inFlightEnded = false
        var idleEndedAt: Double?
        var drainStartedAt: Double?
        var drainEndedAt: Double?
        var refused: Error?
        var stuckEnd: Error?
        var stuckReceived = 0
        let start = DispatchTime.now()
        func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
        // Keeps this loop running until the drain, on the group, has ended.
        let keepAlive = loop.rx.timer(after: .seconds(30)).subscribe()

        func drainNow() {
            drainStartedAt = seconds()
            // The drain ends on a group loop: its end comes back here.
            _ = server.drain(deadline: .milliseconds(600)).asObservable().observe(on: loop).subscribe(onCompleted: {
                drainEndedAt = seconds()
                keepAlive.dispose()
                // Now read what the stuck client never read: then the reset.
                _ = clients["stuck"]!.rx.data.subscribe(
                    onNext: { stuckReceived += $0.count }, onError: { stuckEnd = $0 }, onCompleted: { clients["stuck"]!.close() })
                clients["inFlight"]!.close()
                clients["idle"]!.close()
            })
            _ = loop.rx.timer(after: .milliseconds(50)).subscribe(onNext: { _ in
                _ = loop.rx.connect(host: "127.0.0.1", port: port).subscribe(onSuccess: { $0.close() }, onFailure: { refused = $0 })
            })
        }

        // The steps follow one another, not the clock (sanitizers are slow):
        // all three connected; the in-flight client's bytes all read by the
        // server (so what it echoes is in flight); the stuck client's 8 MiB
        // backed up; then the drain.
        _ = Observable.zip(
            ["inFlight", "idle", "stuck"].map { name in
                loop.rx.connect(host: "127.0.0.1", port: port).asObservable().map { (name, $0) }
            }
        )
        .flatMap { connected -> Observable<Int> in
            for (name, client) in connected { clients[name] = client }
            let inFlight = clients["inFlight"]!
            _ = inFlight.rx.data.subscribe(onNext: { echoed.append($0) }, onError: { _ in inFlightEnded = true }, onCompleted: { inFlightEnded = true })
            _ = inFlight.write(payload).subscribe()
            _ = clients["idle"]!.rx.data.subscribe(onCompleted: { idleEndedAt = seconds() })
            return loop.rx.timer(after: .milliseconds(5), repeating: .milliseconds(5))
                .filter { _ in record.bytesRead.load(ordering: .relaxed) >= payload.count }
                .take(1)
        }
        .flatMap { _ -> Observable<Int> in
            // 8 MiB at a peer that never reads: the echo backs up.
            _ = clients["stuck"]!.write(ByteBuffer(Array(repeating: 1, count: 8 << 20))).subscribe(onError: { _ in })
            return loop.rx.timer(after: .milliseconds(200))
        }
        .subscribe(onNext: { _ in drainNow() })
        runLoop(timeout: 20)
        XCTAssertEqual(ByteBuffer(concatenating: echoed), payload, "the in-flight echo was not finished byte-exact")
        XCTAssertTrue(inFlightEnded)
        XCTAssertEqual((refused as? UVError)?.code, .connectionRefused, "\(String(describing: refused))")
        let drainStart = try XCTUnwrap(drainStartedAt)
        let idleAt = try XCTUnwrap(idleEndedAt)
        XCTAssertLessThan(idleAt - drainStart, 0.5, "the idle client was not closed at once")
        let drainAt = try XCTUnwrap(drainEndedAt)
        XCTAssertGreaterThanOrEqual(drainAt - drainStart, 0.55, "the drain ended before the deadline reset the stuck client")
        XCTAssertLessThan(drainAt - drainStart, 5)
        // The reset throws away what was queued for the stuck client: it
        // reads less than its echo, and ECONNRESET when the kernel says so.
        XCTAssertLessThan(stuckReceived, 8 << 20)
        if let stuckEnd {
            XCTAssertEqual((stuckEnd as? UVError)?.code, .connectionReset, "\(stuckEnd)")
        }
        XCTAssertEqual(server.connectionCount, 0)
    }

    /// `drain(deadline:)` takes an `RxTimeInterval` or a `Duration` (RxUV's
    /// time rule): for each row, a handler that ignores `quiesce` keeps its
    /// connection until the deadline, when it is reset and the drain
    /// completes.
    func testDrainDeadline_RxTimeIntervalOrDuration_ResetsAtTheDeadline() throws {
        let rows: [(name: String, drain: (Server) -> Completable)] = [
            ("RxTimeInterval", { $0.drain(deadline: .milliseconds(200)) }),
            ("Duration", { $0.drain(deadline: Duration.milliseconds(200)) }),
        ]
        for row in rows {
            let server = try serve(ServerOptions()) { _ in Completable.never() }
            let loop = self.loop!
            var drainedAfter: Duration?
            var clientEnd: Error?
            // Keeps this loop running until the drain, on the group, has ended.
            let keepAlive = loop.rx.timer(after: .seconds(10)).subscribe()
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
                .flatMap { client in
                    // Drains once the server holds the connection.
                    loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1))
                        .filter { _ in server.connectionCount == 1 }
                        .take(1)
                        .flatMap { _ -> Observable<ByteBuffer> in
                            let started = ContinuousClock.now
                            _ = row.drain(server).asObservable().observe(on: loop).subscribe(onCompleted: {
                                drainedAfter = ContinuousClock.now - started
                                keepAlive.dispose()
                            })
                            return client.rx.data
                        }
                        .do(onDispose: { client.close() })
                }
                .subscribe(onError: { clientEnd = $0 })
            runLoop()
            let after = try XCTUnwrap(drainedAfter, row.name)
            XCTAssertGreaterThanOrEqual(after, .milliseconds(199), row.name)
            XCTAssertEqual((clientEnd as? UVError)?.code, .connectionReset, "\(row.name): \(String(describing: clientEnd))")
            XCTAssertEqual(server.connectionCount, 0, row.name)
        }
    }

    func testIdleTimeout_ClosesQuietConnections_KeepsBusyOnes() throws {
        var options = ServerOptions()
        options.idleTimeout = .milliseconds(200)
        let record = Record()
        let server = try serve(options, handler: echo(record, loops: group.loops))
        let loop = self.loop!
        var quietEnded: Double?
        var busyEnded: Double?
        let start = DispatchTime.now()
        func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
            .flatMap { $0.rx.data }
            .subscribe(onCompleted: { quietEnded = seconds() })
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
            .flatMap { busy in
                // A line every 50 ms for 600 ms, then quiet.
                Observable.merge(
                    busy.rx.data.map { _ in () },
                    loop.rx.timer(after: .milliseconds(50), repeating: .milliseconds(50)).take(12)
                        .flatMap { _ in busy.write("tick\n").andThen(Observable.just(())) })
            }
            .subscribe(onCompleted: { busyEnded = seconds() })
        runLoop()
        let quiet = try XCTUnwrap(quietEnded)
        let busy = try XCTUnwrap(busyEnded)
        XCTAssertGreaterThanOrEqual(quiet, 0.2)
        XCTAssertLessThan(quiet, 0.6)
        XCTAssertGreaterThanOrEqual(busy, 0.8, "a busy connection was closed as idle")
        drain(server)
    }

    /// `connections`: the count at each change, on the first loop, and its
    /// end with the drain.
    func testConnections_ReportsTheCountAndCompletesWithTheDrain() throws {
        let record = Record()
        let server = try serve(ServerOptions(), handler: echo(record, loops: group.loops))
        let counts = Shared<[Int]>([])
        let onFirstLoop = Shared(true)
        let ended = DispatchSemaphore(value: 0)
        let first = group.loops[0]
        _ = server.connections.subscribe(
            onNext: { count in
                counts.mutate { $0.append(count) }
                // The current count comes at once, on this thread; changes
                // come on the first loop.
                if counts.value.count > 1, !first.isOnLoopThread { onFirstLoop.value = false }
            },
            onCompleted: { ended.signal() })
        let loop = self.loop!
        var clients: [TCPConnection] = []
        for _ in 0..<3 {
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { clients.append($0) })
        }
        _ = loop.rx.timer(after: .milliseconds(10), repeating: .milliseconds(10))
            .filter { tick in server.connectionCount == 3 || tick >= 500 }
            .take(1)
            .subscribe(onNext: { _ in
                XCTAssertEqual(server.connectionCount, 3)
                XCTAssertEqual(server.connectionCounts.reduce(0, +), 3)
                for client in clients { client.close() }
            })
        runLoop()
        drain(server)
        XCTAssertEqual(ended.wait(timeout: .now() + 5), .success, "connections did not complete with the drain")
        let seen = counts.value
        XCTAssertEqual(seen.first, 0)
        XCTAssertEqual(seen.max(), 3, "\(seen)")
        XCTAssertEqual(seen.last, 0, "\(seen)")
        XCTAssertTrue(onFirstLoop.value)
        XCTAssertEqual(server.servedCount, 3)
        XCTAssertEqual(server.refusedCount, 0)
    }

    /// A loop's connections share one quiesce signal: handlers that look at
    /// it only after the drain began (here, once their client's first byte
    /// arrives, sent after the drain started) hear it at once, and the drain
    /// ends as their handlers do, long before its deadline.
    func testQuiesce_HeardAtOnceByHandlersThatLookAfterTheDrainBegan() throws {
        let server = try serve(ServerOptions()) { served in
            served.connection.rx.data
                .take(1)
                .flatMap { _ in served.quiesce.take(1) }
                .ignoreElements()
                .asCompletable()
        }
        let loop = self.loop!
        let clients = 8
        var connected: [TCPConnection] = []
        var ended = 0
        var drainEnded = false
        let started = ContinuousClock.now
        var drainTook: Duration?
        for _ in 0..<clients {
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
                connected.append(client)
                _ = client.rx.data.subscribe(
                    onError: { XCTFail("a client was reset: \($0)") },
                    onCompleted: { ended += 1 })
            })
        }
        _ = loop.rx.timer(after: .milliseconds(10), repeating: .milliseconds(10))
            .filter { tick in server.connectionCount == clients || tick >= 500 }
            .take(1)
            .subscribe(onNext: { _ in
                XCTAssertEqual(server.connectionCount, clients)
                _ = server.drain(deadline: .seconds(20)).asObservable().observe(on: loop).subscribe(onCompleted: {
                    drainEnded = true
                    drainTook = ContinuousClock.now - started
                })
                // The first bytes go once every shard has been told.
                _ = loop.rx.timer(after: .milliseconds(200)).subscribe(onNext: { _ in
                    for client in connected { _ = client.write(ByteBuffer([1])).subscribe() }
                })
            })
        let stop = loop.rx.timer(after: .milliseconds(10), repeating: .milliseconds(10))
            .filter { _ in drainEnded && ended == clients }
            .take(1)
            .subscribe(onNext: { _ in
                for client in connected { client.close() }
                connected = []
            })
        runLoop(timeout: 30)
        stop.dispose()
        XCTAssertTrue(drainEnded, "the drain did not end")
        XCTAssertEqual(ended, clients, "every handler ends, and its connection with it")
        XCTAssertLessThan(try XCTUnwrap(drainTook), .seconds(10), "the drain waited for its deadline")
        XCTAssertEqual(server.connectionCount, 0)
    }
}
