import RxCore
import RxTest
import XCTest

/// The base of every RxCore test: after each test, the live-object counter
/// must be back at its value before the test. A leak fails the test.
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
        #if TRACE_RESOURCES
        // Objects released by other threads may need a moment to go.
        var waited = 0
        while Resources.total != startResourceCount && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        XCTAssertEqual(Resources.total, startResourceCount, "RxCore objects leaked by this test")
        #endif
        super.tearDown()
    }
}
