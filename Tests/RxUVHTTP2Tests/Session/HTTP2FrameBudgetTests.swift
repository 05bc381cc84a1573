import RxUVTestSupport
import XCTest

@testable import RxUVHTTP2

/// The token bucket that bounds PING and SETTINGS frames.
final class HTTP2FrameBudgetTests: BridgeTestCase {
    func testBurst_ThenRefillAtTheRate_CappedAtTheBurst() {
        var budget = HTTP2FrameBudget(burst: 3, perSecond: 2, now: 0)
        XCTAssertEqual((0..<4).map { _ in budget.take(now: 0) }, [true, true, true, false])
        // Half a second: one token back.
        XCTAssertEqual([budget.take(now: 500_000_000), budget.take(now: 500_000_000)], [true, false])
        // Ten seconds: full again, but no more than the burst.
        XCTAssertEqual((0..<4).map { _ in budget.take(now: 10_500_000_000) }, [true, true, true, false])
    }

    func testNoRate_OnlyTheBurst() {
        var budget = HTTP2FrameBudget(burst: 1, perSecond: 0, now: 0)
        XCTAssertEqual([budget.take(now: 0), budget.take(now: 60_000_000_000)], [true, false])
    }
}
