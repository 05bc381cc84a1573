import RxCore
import RxTest
import XCTest

/// The base of every RxCore test: after each test, the live-object counter
/// must be back at its value before the test. A leak fails the test.
///
/// Inside a test the same gate is one line: `assertNoLeaks()` (for example
/// after each round of a loop). `leakReport()` is the gate without the
/// assertion.
class RxCoreTestCase: XCTestCase {
    #if TRACE_RESOURCES
    private var startResourceCount: Int32 = 0
    #endif

    override func setUp() {
        super.setUp()
        #if TRACE_RESOURCES
        startResourceCount = Resources.total
        #endif
    }

    override func tearDown() {
        assertNoLeaks("after the test")
        super.tearDown()
    }

    /// The leak gate in one line: asserts (debug builds) that
    /// `Resources.total` is back at its value before the test, waiting up to
    /// one second for objects released by other threads.
    func assertNoLeaks(_ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        if let report = leakReport() {
            XCTFail("RxCore objects leaked\(context.isEmpty ? "" : " \(context)"): \(report)", file: file, line: line)
        }
    }

    /// What `assertNoLeaks` would complain about, or `nil` when nothing leaked
    /// (always `nil` in release builds, which do not count objects).
    func leakReport() -> String? {
        #if TRACE_RESOURCES
        var waited = 0
        while Resources.total != startResourceCount && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        let total = Resources.total
        return total == startResourceCount ? nil : "Resources.total is \(total), was \(startResourceCount) before the test"
        #else
        return nil
        #endif
    }
}
