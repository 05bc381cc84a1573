import RxCore
import RxCoreTestSupport
import XCTest

/// The leak gate itself: it must see a live subscription, and pass again
/// once everything is released.
final class LeakGateTests: RxCoreTestCase {
    func testLeakGate_SeesALiveSubscriptionAndPassesAfterDispose() {
        var subject: PublishSubject<Int>? = PublishSubject<Int>()
        var subscription: Disposable? = subject!.map { $0 + 1 }.subscribe()
        #if TRACE_RESOURCES
        XCTAssertNotNil(leakReport(), "the gate did not see a live subject and subscription")
        #endif
        subscription?.dispose()
        subscription = nil
        subject = nil
        XCTAssertNil(leakReport())
        assertNoLeaks()
    }
}
