import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// The bridge's leak gate itself: it must see an open handle and live
/// objects, and pass again once they are closed and released.
final class LeakGateTests: BridgeTestCase {
    func testLeakGate_SeesAnOpenTimerAndPassesAfterDispose() {
        var subscription: Disposable? = loop.rx.timer(after: .seconds(3600)).subscribe()
        let report = leakReport()
        XCTAssertNotNil(report, "the gate did not see an open timer")
        XCTAssertTrue(report?.contains("1 libuv handle(s) open") ?? false, report ?? "")
        subscription?.dispose()
        subscription = nil // a disposable still referenced is a live object
        XCTAssertNil(leakReport())
        assertNoLeaks()
    }
}
