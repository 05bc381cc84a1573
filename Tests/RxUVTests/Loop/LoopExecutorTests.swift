import Dispatch
import RxCore
import RxUVTestSupport
import Synchronization
import XCTest

@testable import RxUV

/// An actor whose methods run on a loop's thread.
private actor LoopCounter {
    let loop: Loop
    /// The last number each caller sent, to check per-caller order.
    private var last: [Int: Int] = [:]
    private(set) var calls = 0
    private(set) var offLoop = 0
    private(set) var outOfOrder = 0

    init(loop: Loop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.asUnownedSerialExecutor()
    }

    func record(caller: Int, number: Int) {
        if !loop.isOnLoopThread { offLoop += 1 }
        if let previous = last[caller], previous + 1 != number { outOfOrder += 1 }
        last[caller] = number
        calls += 1
    }

    /// Connects to `address`, writes `text`, reads the echo and closes:
    /// all of it on the loop thread, inside the actor.
    func roundTrip(_ text: String, to address: SocketAddress) async throws -> String {
        // `value` resumes on the caller's executor: the actor's, the loop.
        let connection = try await loop.rx.connect(host: "127.0.0.1", port: address.port).value
        try await connection.write(text).value
        let echoed = try await connection.rx.data.take(1).asSingle().value
        connection.close()
        if !loop.isOnLoopThread { offLoop += 1 }
        return String(decoding: Array(echoed), as: UTF8.self)
    }

    /// Calls `other.bump()` `times` times and returns how many jobs the
    /// loop ran meanwhile.
    func callRepeatedly(_ other: LoopCounter, times: Int) async throws -> Int {
        let before = loop.jobsRun
        for _ in 0..<times {
            _ = await other.bump()
        }
        if !loop.isOnLoopThread { offLoop += 1 }
        return loop.jobsRun - before
    }

    func bump() -> Int {
        calls += 1
        return calls
    }
}

final class LoopExecutorTests: BridgeTestCase {
    /// 100,000 calls from 8 tasks on other threads: every one runs on the
    /// loop thread, each caller's in the order it made them.
    func testActorOnLoop_CallsFromOtherThreadsRunOnTheLoopInOrder() throws {
        let counter = LoopCounter(loop: loop)
        let callers = 8
        let perCaller = 12_500
        let calls = try loop.run {
            await withTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask(executorPreference: globalConcurrentExecutor) {
                        for number in 0..<perCaller {
                            await counter.record(caller: caller, number: number)
                        }
                    }
                }
            }
            return await counter.calls
        }
        XCTAssertEqual(calls, callers * perCaller)
        let (offLoop, outOfOrder) = try loop.run { (await counter.offLoop, await counter.outOfOrder) }
        XCTAssertEqual(offLoop, 0)
        XCTAssertEqual(outOfOrder, 0)
    }

    /// An actor's method that awaits another actor's on the same loop a
    /// thousand times, in a task that prefers no executor: the jobs run
    /// isolated to the loop, so the calls go on without a hop (a hop is a
    /// job through the loop's queue).
    func testActorCallingActorOnTheLoop_DoesNotHopPerCall() throws {
        let first = LoopCounter(loop: loop)
        let second = LoopCounter(loop: loop)
        let loop = self.loop!
        let jobs = try loop.run {
            try await Task {
                try await first.callRepeatedly(second, times: 1_000)
            }.value
        }
        XCTAssertEqual(try loop.run { await second.calls }, 1_000)
        XCTAssertLessThan(jobs, 10)
        XCTAssertEqual(try loop.run { await first.offLoop }, 0)
    }

    /// A task that prefers the loop calls an actor on it a thousand times:
    /// one hop into each call and none back.
    func testTaskPreferringTheLoop_HopsOncePerActorCall() throws {
        let counter = LoopCounter(loop: loop)
        let loop = self.loop!
        let jobs = try loop.run {
            await Task(executorPreference: loop) {
                let before = loop.jobsRun
                for _ in 0..<1_000 {
                    _ = await counter.bump()
                }
                return loop.jobsRun - before
            }.value
        }
        XCTAssertEqual(try loop.run { await counter.calls }, 1_000)
        XCTAssertGreaterThanOrEqual(jobs, 1_000)
        XCTAssertLessThan(jobs, 1_100)
    }

    /// An actor method that connects, writes and reads on its loop, with
    /// the leak gates at zero.
    func testActorOnLoop_ReadsAndWritesAConnection() throws {
        let server = startEchoServer(on: loop)
        let counter = LoopCounter(loop: loop)
        let echoed = try loop.run {
            let echoed = try await counter.roundTrip("hello", to: server.address)
            server.subscription.dispose()
            return echoed
        }
        XCTAssertEqual(echoed, "hello")
        XCTAssertEqual(try loop.run { await counter.offLoop }, 0)
    }

    /// The async entry point: the body runs on the loop thread, awaits a
    /// timer of the loop, and its result comes back from `run`.
    func testRunAsync_BodyRunsOnTheLoopAndReturnsItsResult() throws {
        let loop = self.loop!
        let result = try loop.run { () async throws -> String in
            XCTAssertTrue(loop.isOnLoopThread)
            let tick = try await loop.rx.timer(after: .milliseconds(20)).take(1).asSingle().value
            XCTAssertTrue(loop.isOnLoopThread)
            return "tick \(tick)"
        }
        XCTAssertEqual(result, "tick 0")
    }

    /// A body that throws: `run` rethrows its error, and the loop is done.
    func testRunAsync_RethrowsTheBodysError() {
        XCTAssertThrowsError(try loop.run { () async throws -> Int in throw TestFailure.boom }) { error in
            XCTAssertTrue(error is TestFailure)
        }
    }

    /// `withTaskExecutorPreference` moves async code from another executor
    /// onto the loop thread, and back.
    func testTaskExecutorPreference_RunsOnTheLoopThread() throws {
        let loop = self.loop!
        let (inside, outside) = try loop.run {
            await Task.detached {
                let inside = await withTaskExecutorPreference(loop) { loop.isOnLoopThread }
                return (inside, loop.isOnLoopThread)
            }.value
        }
        XCTAssertTrue(inside)
        XCTAssertFalse(outside)
    }

    /// `assumeIsolated` on the loop thread, outside any task: the loop
    /// confirms the thread (`checkIsolated`).
    func testAssumeIsolated_OnTheLoopThread() throws {
        let counter = LoopCounter(loop: loop)
        let value = Mutex<Int>(0)
        loop.execute {
            value.withLock { $0 = counter.assumeIsolated { $0.bump() } }
        }
        loop.run()
        XCTAssertEqual(value.withLock { $0 }, 1)
    }

    /// Jobs queued before `close()` run in it: none is dropped.
    func testClose_RunsTheJobsQueuedBeforeIt() throws {
        let other = try Loop()
        let ran = Atomic<Bool>(false)
        Task(executorPreference: other) { ran.store(true, ordering: .relaxed) }
        try other.close()
        XCTAssertTrue(ran.load(ordering: .relaxed))
    }

    /// A job enqueued on a closed loop cannot run there: it is reported and
    /// runs on the calling thread, so its task ends and frees the loop.
    func testEnqueue_OnAClosedLoopIsReported() throws {
        let closed = try Loop()
        let captured = CapturedReports(on: closed)
        try closed.close()
        let ran = Atomic<Bool>(false)
        Task(executorPreference: closed) { ran.store(true, ordering: .relaxed) }
        XCTAssertTrue(ran.load(ordering: .relaxed))
        let reported = captured.entries.map { "\($0.message)" }
        XCTAssertEqual(reported.count, 1, "\(reported)")
        XCTAssertTrue(reported.first?.contains("the loop is closed") == true, "\(reported)")
    }

    /// A task on the loop that yields in a loop of its own still lets the
    /// loop serve its timers: work queued while a batch runs waits for the
    /// next iteration.
    func testYieldingTask_LetsTheLoopsTimersFire() throws {
        let loop = self.loop!
        let spins = try loop.run { () async -> Int in
            let fired = Flag()
            let subscription = loop.rx.timer(after: .milliseconds(10)).subscribe(onNext: { _ in fired.set() })
            var spins = 0
            while !fired.isSet, spins < 5_000_000 {
                await Task.yield()
                spins += 1
            }
            subscription.dispose()
            return fired.isSet ? spins : -1
        }
        XCTAssertGreaterThan(spins, 0)
    }

    /// `run` with a body on a closed loop throws and runs nothing.
    func testRunAsync_OnAClosedLoopThrows() throws {
        let closed = try Loop()
        try closed.close()
        let ran = Flag()
        XCTAssertThrowsError(try closed.run { ran.set() }) { error in
            XCTAssertEqual((error as? UVError)?.code, .invalidArgument)
        }
        XCTAssertFalse(ran.isSet)
    }

    /// The executor's identity: the same loop, the same isolation domain.
    func testExecutor_SameLoopSameContext() throws {
        let other = try Loop()
        XCTAssertTrue(loop.isSameExclusiveExecutionContext(other: loop))
        XCTAssertFalse(loop.isSameExclusiveExecutionContext(other: other))
        try other.close()
    }
}
