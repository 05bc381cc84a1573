import CoreMetrics
import Dispatch
import Logging
import MetricsTestKit
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `LoopWatchdog`: a loop stuck in one callback is reported once as
/// stalled and once as over, with what it ran; the other loops are not;
/// a loop outside `run()` is never stalled; every loop's health goes to
/// swift-metrics.
final class LoopWatchdogTests: BridgeTestCase {
    private static func stalls(_ reports: CapturedReports) -> [LoopStall] {
        reports.errors.compactMap { $0 as? LoopStall }
    }

    /// Waits (bounded, 3 s) until `condition` holds.
    private static func eventually(_ condition: () -> Bool) {
        for _ in 0..<300 where !condition() {
            usleep(10_000)
        }
    }

    func testAHandlerBlockingItsLoopFor500ms_IsReportedOnceStalledAndOnceOver_TheOtherLoopAnswersAndIsNotReported() throws {
        let metrics = TestMetrics()
        let group = try LoopGroup(
            threads: 2, watchdog: LoopWatchdog.Options(stallThreshold: .milliseconds(100), metricsInterval: .milliseconds(50), metricsFactory: metrics))
        let reports = group.loops.map { CapturedReports(on: $0) }
        let released = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            group.loops[0].execute {
                usleep(500_000)
                released.signal()
            })
        // Meanwhile the other loop answers at once, again and again.
        for _ in 0..<8 {
            let answered = DispatchSemaphore(value: 0)
            let asked = Loop.monotonicNanoseconds
            XCTAssertTrue(group.loops[1].execute { answered.signal() })
            XCTAssertEqual(answered.wait(timeout: .now() + 1), .success)
            XCTAssertLessThan(Loop.monotonicNanoseconds - asked, 250_000_000, "loop 1 answered at once (within 250 ms, under sanitizers too)")
            usleep(40_000)
        }
        XCTAssertEqual(released.wait(timeout: .now() + 5), .success)
        Self.eventually { Self.stalls(reports[0]).count == 2 }
        let stalls = Self.stalls(reports[0])
        XCTAssertEqual(stalls.count, 2, "\(reports[0].entries)")
        guard stalls.count == 2 else { return try group.shutdown() }
        XCTAssertEqual(stalls[0].loop, "0")
        XCTAssertFalse(stalls[0].isOver)
        XCTAssertEqual(stalls[0].running, "a closure queued to the loop")
        XCTAssertGreaterThanOrEqual(stalls[0].milliseconds, 100)
        XCTAssertLessThan(stalls[0].milliseconds, 500)
        XCTAssertTrue(stalls[1].isOver)
        XCTAssertEqual(stalls[1].running, "a closure queued to the loop")
        XCTAssertGreaterThanOrEqual(stalls[1].milliseconds, 450, "the whole stall, to a sampling period")
        XCTAssertLessThan(stalls[1].milliseconds, 900)
        XCTAssertEqual(reports[0].entries.map(\.level), [.warning, .notice])
        XCTAssertEqual(reports[0].entries.first?.metadata["loop"], "0")
        XCTAssertEqual(reports[0].entries.first?.metadata["running"], "a closure queued to the loop")
        XCTAssertTrue(reports[1].entries.isEmpty, "loop 1 never stalled: \(reports[1].entries)")
        XCTAssertEqual(group.watchdog?.stallCount, 1)
        XCTAssertEqual(try metrics.expectCounter("rxuv_loop_stalls", [("loop", "0")]).totalValue, 1)
        XCTAssertEqual(try metrics.expectTimer("rxuv_loop_stall_duration", [("loop", "0")]).values.count, 1)
        XCTAssertEqual(try metrics.expectCounter("rxuv_loop_stalls", [("loop", "1")]).totalValue, 0)
        // Health, recorded every 50 ms for both loops.
        Self.eventually { (try? metrics.expectCounter("rxuv_loop_iterations", [("loop", "1")]).totalValue) ?? 0 > 0 }
        XCTAssertGreaterThan(try metrics.expectCounter("rxuv_loop_iterations", [("loop", "1")]).totalValue, 0)
        let utilization = try XCTUnwrap(metrics.expectGauge("rxuv_loop_utilization", [("loop", "1")]).lastValue)
        XCTAssertTrue((0...1).contains(utilization))
        XCTAssertNotNil(try metrics.expectGauge("rxuv_loop_open_handles", [("loop", "0"), ("kind", "tcp")]).lastValue)
        XCTAssertNotNil(try metrics.expectGauge("rxuv_loop_waiting_work", [("loop", "0")]).lastValue)
        XCTAssertNotNil(try metrics.expectGauge("rxuv_loop_timer_lag_seconds", [("loop", "0")]).lastValue)
        try group.shutdown()
    }

    func testAStandaloneLoop_IsNotStalledOutsideRun_AndATimerThatBlocksIsReportedAsSuch() throws {
        let reports = CapturedReports(on: loop)
        let metrics = TestMetrics()
        let watchdog = try LoopWatchdog(
            watching: [loop], options: LoopWatchdog.Options(stallThreshold: .milliseconds(20), metricsInterval: nil, metricsFactory: metrics))
        // The loop is not running: the test's thread sleeping is no stall.
        usleep(150_000)
        XCTAssertEqual(watchdog.stallCount, 0)
        let subscription = loop.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in usleep(200_000) })
        loop.run()
        subscription.dispose()
        // The recovery is seen by a sample taken after the loop turned (or left run()).
        Self.eventually { Self.stalls(reports).count == 2 }
        watchdog.stop()
        watchdog.stop()
        let stalls = Self.stalls(reports)
        XCTAssertEqual(stalls.map(\.isOver), [false, true], "\(reports.entries)")
        XCTAssertEqual(stalls.first?.running, "a timer handle's callback")
        XCTAssertEqual(watchdog.stallCount, 1)
        // Stalls are counted without a metrics interval; health is not recorded.
        XCTAssertEqual(try metrics.expectCounter("rxuv_loop_stalls", [("loop", "0")]).totalValue, 1)
        XCTAssertThrowsError(try metrics.expectGauge("rxuv_loop_utilization", [("loop", "0")]))
    }

    func testAGroupWithoutAWatchdog_AndLabelsThatDoNotMatch() throws {
        let group = try LoopGroup(threads: 1, watchdog: nil)
        XCTAssertNil(group.watchdog)
        try group.shutdown()
        XCTAssertThrowsError(try LoopWatchdog(watching: [loop], labels: ["a", "b"])) { error in
            XCTAssertEqual((error as? UVError)?.code, .invalidArgument)
        }
    }
}
