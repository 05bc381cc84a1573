import XCTest

/// The base of every RxCore test: after each test, the live-object counter
/// (`LiveObjectCount`) must be back at its value before the test. A leak
/// fails the test.
///
/// Inside a test the same gate is one line: `assertNoLeaks()` (for example
/// after each round of a loop). `leakReport()` is the gate without the
/// assertion. `scripts/check-test-bases.sh` fails any XCTest class of
/// RxCoreTests or RxBlockingTests that skips it.
open class RxCoreTestCase: XCTestCase {
    private var start = LiveObjectCount.now

    /// Takes the live-object count the test must end at.
    open override func setUp() {
        super.setUp()
        start = .now
    }

    /// The leak gate, after the test.
    open override func tearDown() {
        assertNoLeaks("after the test")
        super.tearDown()
    }

    /// The leak gate in one line: asserts (debug builds) that
    /// `Resources.total` is back at its value before the test, waiting up to
    /// one second for objects released by other threads.
    public func assertNoLeaks(_ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        if let report = leakReport() {
            XCTFail("RxCore objects leaked\(context.isEmpty ? "" : " \(context)"): \(report)", file: file, line: line)
        }
    }

    /// What `assertNoLeaks` would complain about, or `nil` when nothing leaked
    /// (always `nil` in release builds, which do not count objects).
    public func leakReport() -> String? {
        start.leakReport()
    }
}
