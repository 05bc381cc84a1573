import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `loop.rx.health(every:)` on a real loop: an idle loop is near 0 busy,
/// a spinning one near 1; the windows, turns, handles and timer lag.
final class LoopHealthObservableTests: BridgeTestCase {
    func testAnIdleLoop_IsNearlyNeverBusy() throws {
        var values: [LoopHealth] = []
        let subscription = loop.rx.health(every: .milliseconds(100)).take(3).subscribe(onNext: { values.append($0) })
        loop.run()
        subscription.dispose()
        XCTAssertEqual(values.count, 3)
        for health in values {
            XCTAssertLessThan(health.utilization, 0.2, "\(health)")
            XCTAssertGreaterThanOrEqual(health.interval, .milliseconds(95))
            XCTAssertLessThan(health.interval, .milliseconds(400))
            XCTAssertGreaterThanOrEqual(health.iterations, 1)
            XCTAssertEqual(health.timersFired, 1, "its own timer")
            XCTAssertEqual(health.openHandles, ["timer": 1], "its own timer")
            XCTAssertEqual(health.waitingWork, 0)
        }
    }

    func testASpinningLoop_IsNearlyAlwaysBusy_ItsTimersLate() throws {
        var values: [LoopHealth] = []
        let spinner = Spinner(loop: loop)
        let subscription = loop.rx.health(every: .milliseconds(50)).take(3).subscribe(
            onNext: { values.append($0) }, onCompleted: { spinner.spinning = false })
        loop.execute { spinner.spin() }
        loop.run()
        subscription.dispose()
        XCTAssertEqual(values.count, 3)
        for health in values {
            XCTAssertGreaterThan(health.utilization, 0.9, "\(health)")
            XCTAssertGreaterThanOrEqual(health.iterations, 5, "a turn per 3 ms of spinning")
        }
        XCTAssertGreaterThan(values.map(\.timerLag).max() ?? .zero, .zero, "a timer due mid-spin fires late")
    }

    func testDisposingStopsIt_OnAClosedLoopNothingLeaks() throws {
        var count = 0
        let subscription = loop.rx.health(every: .milliseconds(5)).subscribe(onNext: { _ in count += 1 })
        for _ in 0..<50 where count < 2 {
            loop.runOnce()
        }
        subscription.dispose()
        loop.run()
        XCTAssertGreaterThanOrEqual(count, 2)
        XCTAssertEqual(loop.openHandleCount, 0)
    }
}

/// Work that queues itself again, 3 ms of spinning each time, so that the
/// loop never waits for I/O. Loop thread.
private final class Spinner: @unchecked Sendable {
    private let loop: Loop
    var spinning = true

    init(loop: Loop) {
        self.loop = loop
    }

    func spin() {
        let end = Loop.monotonicNanoseconds + 3_000_000
        while Loop.monotonicNanoseconds < end {}
        if spinning {
            loop.execute { self.spin() }
        }
    }
}
