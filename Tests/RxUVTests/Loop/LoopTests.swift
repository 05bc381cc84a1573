import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class LoopTests: BridgeTestCase {
    func testLoop_RunReturnsWhenNothingIsActive() {
        runLoop(timeout: 5)
        XCTAssertEqual(loop.openHandleCount, 0)
    }

    func testLoop_IsOnLoopThread() {
        XCTAssertTrue(loop.isOnLoopThread)
        let other = DispatchSemaphore(value: 0)
        let answer = Flag()
        DispatchQueue.global().async { [loop] in
            if loop!.isOnLoopThread { answer.set() }
            other.signal()
        }
        other.wait()
        XCTAssertFalse(answer.isSet)
    }

    /// The monotonic clock in nanoseconds never goes back, and measures a
    /// sleep as `ContinuousClock` does (within what a busy machine adds).
    func testLoop_MonotonicNanosecondsMeasuresASleep() {
        let started = Loop.monotonicNanoseconds
        let reference = ContinuousClock.now
        usleep(20_000)
        let elapsed = Loop.monotonicNanoseconds - started
        let referenceElapsed = RxTimeInterval(ContinuousClock.now - reference).nanoseconds
        XCTAssertGreaterThanOrEqual(elapsed, 20_000_000)
        XCTAssertLessThan(abs(elapsed - referenceElapsed), 5_000_000, "\(elapsed) ns against \(referenceElapsed) ns")
        XCTAssertGreaterThanOrEqual(Loop.monotonicNanoseconds, started + elapsed)
    }

    func testLoop_ExecuteOnLoopThreadRunsDuringRun() {
        let order = Shared<[String]>([])
        loop.execute { order.mutate { $0.append("work") } }
        order.mutate { $0.append("queued") }
        runLoop()
        XCTAssertEqual(order.value, ["queued", "work"])
    }

    func testLoop_ExecuteFromEightThreadsLosesNothing() {
        let threads = 8
        let perThread = 10_000
        let total = threads * perThread
        let executed = Box(0)
        let onLoopThread = Box(true)
        // A repeating timer keeps the loop alive until every call has run.
        var keepAlive: Disposable?
        keepAlive = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { _ in
            if executed.value == total { keepAlive?.dispose() }
        })
        let loop = self.loop!
        let start = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            DispatchQueue.global().async {
                start.wait()
                for _ in 0..<perThread {
                    loop.execute {
                        if !loop.isOnLoopThread { onLoopThread.value = false }
                        executed.value += 1
                    }
                }
            }
        }
        for _ in 0..<threads { start.signal() }
        runLoop(timeout: 60)
        XCTAssertEqual(executed.value, total)
        XCTAssertTrue(onLoopThread.value)
    }

    func testLoop_CloseNamesOpenHandles() throws {
        let subscription = loop.rx.timer(after: .seconds(60)).subscribe()
        XCTAssertEqual(loop.openHandleCount, 1)
        XCTAssertThrowsError(try loop.close()) { error in
            guard let error = error as? UVError else { return XCTFail("not a UVError: \(error)") }
            XCTAssertEqual(error.name, "EBUSY")
            XCTAssertTrue(error.description.contains("1 open handle: timer"), error.description)
        }
        subscription.dispose()
        loop.runNoWait()
        XCTAssertEqual(loop.openHandleCount, 0)
    }

    func testLoop_StopFromAnotherThread() {
        let subscription = loop.rx.timer(after: .seconds(60)).subscribe()
        let loop = self.loop!
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
            loop.stop()
        }
        let stoppedEarly = loop.run()
        XCTAssertTrue(stoppedEarly)
        subscription.dispose()
        runLoop()
    }

    func testLoop_ExecuteAfterCloseIsRefused() throws {
        let other = try Loop()
        try other.close()
        XCTAssertFalse(other.execute {})
    }

    func testLoop_DoubleCloseIsHarmless() throws {
        let other = try Loop()
        try other.close()
        XCTAssertNoThrow(try other.close())
    }

    /// Work the loop thread queues for itself (no lock) and work another
    /// thread queues run in the order they were queued, whichever comes
    /// first.
    func testExecute_LoopThreadAndOtherThreadsKeepTheirOrder() {
        let loop = self.loop!
        let order = Shared<[String]>([])
        loop.execute {
            loop.execute { order.mutate { $0.append("A (loop)") } }
            DispatchQueue.global().sync { _ = loop.execute { order.mutate { $0.append("B (other)") } } }
            loop.execute { order.mutate { $0.append("C (loop)") } }
            DispatchQueue.global().sync { _ = loop.execute { order.mutate { $0.append("D (other)") } } }
        }
        loop.run()
        XCTAssertEqual(order.value, ["A (loop)", "B (other)", "C (loop)", "D (other)"])
    }
}

final class LoopOpenHandleTests: BridgeTestCase {
    func testLoop_CloseCountsOpenHandlesByKind() throws {
        let subscriptions = [
            loop.rx.timer(after: .seconds(60)).subscribe(),
            loop.rx.timer(after: .seconds(60)).subscribe(),
            // A listener is a poll handle on a socket RxUV accepts on.
            loop.rx.listen(host: "127.0.0.1", port: 0).subscribe(),
        ]
        XCTAssertEqual(loop.openHandleCount, 3)
        XCTAssertThrowsError(try loop.close()) { error in
            XCTAssertEqual((error as? UVError)?.address, "3 open handles: poll, 2 timer")
        }
        subscriptions.forEach { $0.dispose() }
        loop.runNoWait()
        XCTAssertEqual(loop.openHandleCount, 0)
    }
}
