import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `gracefulShutdown` on the test's loop, set off by real signals, and
/// `Loop.closeAll`.
final class GracefulShutdownTests: BridgeTestCase {
    /// Where the clients run: another process's view of the server, since
    /// the shutdown closes whatever is left on the server's loop.
    private var clients: LoopGroup!

    override func setUpWithError() throws {
        try super.setUpWithError()
        clients = try LoopGroup(threads: 1)
    }

    override func tearDownWithError() throws {
        XCTAssertNoThrow(try clients.shutdown())
        clients = nil
        try super.tearDownWithError()
    }

    private static func echo(_ served: ServedConnection<TCPConnection>) -> Completable {
        served.connection.rx.data
            .take(until: served.quiesce)
            .flatMap { served.connection.write($0).asObservable() }
            .asCompletable()
    }

    /// SIGTERM: the server drains (its idle client sees the end), a chain
    /// ended by `requested` completes, an added subscription is disposed,
    /// and `run()` returns with no handle open.
    func testSIGTERM_DrainsEndsChainsAndLetsRunReturn() throws {
        let loop = self.loop!
        let shutdown = loop.rx.gracefulShutdown(deadline: .seconds(5))
        var ticks = 0
        var tickerCompleted = false
        _ = loop.rx.timer(after: .milliseconds(10), repeating: .milliseconds(10))
            .take(until: shutdown.requested)
            .subscribe(onNext: { _ in ticks += 1 }, onCompleted: { tickerCompleted = true })
        var watcherDisposed = false
        shutdown.add(loop.rx.signal(SIGUSR2).do(onDispose: { watcherDisposed = true }).subscribe())
        let clientEnded = DispatchSemaphore(value: 0)
        let echoed = Shared("")
        var completed = false
        _ = shutdown.completed.subscribe(onCompleted: { completed = true })
        let clientLoop = clients.loops[0]
        _ = loop.rx.serve(host: "127.0.0.1", port: 0) { Self.echo($0) }.subscribe(onSuccess: { server in
            shutdown.add(server)
            _ = clientLoop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
                .flatMap { client in
                    client.write("hello\n").andThen(client.rx.data)
                        .do(onDispose: { client.close() })
                }
                .subscribe(
                    onNext: { bytes in echoed.mutate { $0 += bytes.string } },
                    onCompleted: { clientEnded.signal() })
        })
        _ = loop.rx.timer(after: .milliseconds(200)).subscribe(onNext: { _ in raise(SIGTERM) })
        runLoop()
        XCTAssertEqual(clientEnded.wait(timeout: .now() + 5), .success, "the client did not see the server's end")
        XCTAssertEqual(echoed.value, "hello\n")
        XCTAssertTrue(tickerCompleted)
        XCTAssertGreaterThan(ticks, 0)
        XCTAssertTrue(watcherDisposed)
        XCTAssertTrue(completed)
    }

    /// `add(drain:)`: the work starts once `requested` has ended the
    /// chains that feed it, the shutdown waits for it, and only then
    /// disposes what was added and lets `run()` return.
    func testDrainWork_RunsAtTheSignalAndIsWaitedFor() throws {
        let loop = self.loop!
        let shutdown = loop.rx.gracefulShutdown(deadline: .seconds(5))
        var steps: [String] = []
        _ = shutdown.requested.subscribe(onNext: { _ in steps.append("requested") })
        shutdown.add(
            drain: Completable.deferred {
                steps.append("last flush started")
                return loop.rx.timer(after: .milliseconds(100)).ignoreElements().asCompletable()
                    .do(onCompleted: { steps.append("last flush done") })
            })
        shutdown.add(loop.rx.signal(SIGUSR2).do(onDispose: { steps.append("watcher disposed") }).subscribe())
        _ = shutdown.completed.subscribe(onCompleted: { steps.append("completed") })
        _ = loop.rx.timer(after: .milliseconds(50)).subscribe(onNext: { _ in raise(SIGTERM) })
        runLoop()
        XCTAssertEqual(steps, ["requested", "last flush started", "last flush done", "watcher disposed", "completed"])
    }

    /// Work that outlives the deadline is reported, and the shutdown goes
    /// on without it; work added after the shutdown began runs at once.
    func testDrainWork_PastTheDeadlineIsReportedAndTheShutdownGoesOn() throws {
        let loop = self.loop!
        let reported = CapturedReports(on: loop)
        let shutdown = loop.rx.gracefulShutdown(deadline: .milliseconds(100))
        var neverDisposed = false
        shutdown.add(drain: Completable.never().do(onDispose: { neverDisposed = true }))
        var lateRan = false
        _ = shutdown.requested.subscribe(onNext: { _ in
            shutdown.add(
                drain: Completable.deferred {
                    lateRan = true
                    return .empty()
                })
        })
        var completed = false
        _ = shutdown.completed.subscribe(onCompleted: { completed = true })
        let started = ContinuousClock.now
        _ = loop.rx.timer(after: .milliseconds(20)).subscribe(onNext: { _ in raise(SIGTERM) })
        runLoop()
        XCTAssertTrue(completed)
        XCTAssertTrue(neverDisposed)
        XCTAssertTrue(lateRan)
        XCTAssertEqual(reported.entries.count, 1, "\(reported.entries)")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
    }

    /// Both `gracefulShutdown(on:deadline:)`s (a loop's, a group's) take the
    /// deadline as an `RxTimeInterval` or a `Duration` (RxUV's time rule):
    /// for each row, `deadline` is the `Duration` given, and drain work that
    /// never ends is cut at it (reported once), after which the shutdown
    /// completes.
    func testDeadline_RxTimeIntervalOrDuration_BoundsTheDrainWork() throws {
        struct Row {
            let name: String
            let make: (LoopGroup) -> GracefulShutdown
        }
        let rows = [
            Row(name: "loop, RxTimeInterval") { $0.loops[0].rx.gracefulShutdown(on: [], deadline: .milliseconds(150)) },
            Row(name: "loop, Duration") { $0.loops[0].rx.gracefulShutdown(on: [], deadline: Duration.milliseconds(150)) },
            Row(name: "group, RxTimeInterval") { $0.rx.gracefulShutdown(on: [], deadline: .milliseconds(150)) },
            Row(name: "group, Duration") { $0.rx.gracefulShutdown(on: [], deadline: Duration.milliseconds(150)) },
        ]
        for row in rows {
            let reported = CapturedReports()
            let group = try LoopGroup(threads: 2, logger: reported.logger)
            let shutdown = row.make(group)
            XCTAssertEqual(shutdown.deadline, .milliseconds(150), row.name)
            shutdown.add(drain: Completable.never())
            let completed = DispatchSemaphore(value: 0)
            _ = shutdown.completed.subscribe(onCompleted: { completed.signal() })
            let started = ContinuousClock.now
            shutdown.begin()
            XCTAssertEqual(completed.wait(timeout: .now() + 10), .success, row.name)
            XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(149), row.name)
            XCTAssertNoThrow(try group.shutdown(), row.name)
            XCTAssertEqual(reported.entries.count, 1, "\(row.name): \(reported.entries)")
        }
    }

    /// A client that never reads would hold the drain for its deadline; a
    /// second signal ends it at once.
    func testSecondSignal_EndsAtOnce() throws {
        let loop = self.loop!
        let shutdown = loop.rx.gracefulShutdown(deadline: .seconds(30))
        let start = DispatchTime.now()
        let clientLoop = clients.loops[0]
        let clientEnded = DispatchSemaphore(value: 0)
        _ = loop.rx.serve(host: "127.0.0.1", port: 0) { Self.echo($0) }.subscribe(onSuccess: { server in
            shutdown.add(server)
            _ = clientLoop.rx.connect(host: "127.0.0.1", port: server.address.port).asObservable()
                .flatMap { client in
                    // 8 MiB echoed to a client that reads nothing until the
                    // server is gone (then the reset ends it).
                    client.write(ByteBuffer(Array(repeating: 3, count: 8 << 20))).catch { _ in .empty() }
                        .andThen(clientLoop.rx.timer(after: .milliseconds(600)).flatMap { _ in client.rx.data.map { _ in () } })
                        .do(onDispose: { client.close() })
                }
                .subscribe(onError: { _ in clientEnded.signal() }, onCompleted: { clientEnded.signal() })
        })
        _ = loop.rx.timer(after: .milliseconds(200)).subscribe(onNext: { _ in raise(SIGTERM) })
        _ = loop.rx.timer(after: .milliseconds(400)).subscribe(onNext: { _ in raise(SIGINT) })
        runLoop()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        XCTAssertLessThan(elapsed, 5, "the second signal did not end the shutdown")
        XCTAssertEqual(clientEnded.wait(timeout: .now() + 5), .success)
    }

    /// Nobody keeps the shutdown: its signal watchers do, until it has run.
    func testUnreferencedShutdown_StillRunsOnTheSignal() throws {
        let loop = self.loop!
        _ = loop.rx.gracefulShutdown(deadline: .seconds(1))
        var ticks = 0
        let ticker = loop.rx.timer(after: .milliseconds(5), repeating: .milliseconds(5)).subscribe(onNext: { _ in
            ticks += 1
            if ticks == 3 { raise(SIGTERM) }
        })
        runLoop()
        XCTAssertGreaterThanOrEqual(ticks, 3)
        ticker.dispose()
    }

    /// `closeAll` closes whatever is open, so `run()` returns; disposing
    /// the subscriptions afterwards leaves nothing behind.
    func testCloseAll_LetsRunReturn() throws {
        let loop = self.loop!
        let timer = loop.rx.timer(after: .seconds(60)).subscribe()
        let listener = loop.rx.listen(host: "127.0.0.1", port: 0).subscribe()
        let udp = Shared<UDPSocket?>(nil)
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: 0).subscribe(onSuccess: { udp.value = $0 })
        var closed = -1
        _ = loop.rx.timer(after: .milliseconds(20)).subscribe(onNext: { _ in closed = loop.closeAll() })
        runLoop()
        // The three: the one-shot timer whose callback this is has fired,
        // so it no longer runs.
        XCTAssertEqual(closed, 3)
        XCTAssertEqual(loop.openHandleCount, 0)
        timer.dispose()
        listener.dispose()
        XCTAssertNotNil(udp.value)
        udp.value = nil
    }
}
