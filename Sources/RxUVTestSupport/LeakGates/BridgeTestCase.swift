import Dispatch
import RxCoreTestSupport
import RxUV
import XCTest

/// The base of every bridge test. Each test gets a fresh `loop`; after the
/// test the loop must have no open handle, must close cleanly, and the
/// RxCore live-object counter (`LiveObjectCount`) must be back where it
/// started. Any of these failing fails the test.
///
/// The same gate is one line inside a test: `assertNoLeaks()` (for example
/// after each row of a table-driven test). `leakReport()` is the gate
/// without the assertion. `scripts/check-test-bases.sh` fails any XCTest
/// class of the bridge's suites that skips it.
open class BridgeTestCase: XCTestCase {
    /// The test's loop: made before the test, closed after it.
    public private(set) var loop: Loop!
    /// The live-object count before the test's loop existed, and with it.
    private var start = LiveObjectCount.now
    private var baseline = LiveObjectCount.now

    /// Makes the test's loop.
    open override func setUpWithError() throws {
        try super.setUpWithError()
        start = .now
        loop = try Loop()
        baseline = .now
    }

    /// The leak gates, then the loop's close.
    open override func tearDownWithError() throws {
        if let loop {
            assertNoLeaks("after the test")
            XCTAssertNoThrow(try loop.close(), "the loop did not close cleanly")
        }
        loop = nil
        // The loop itself is gone now: the counter must be exactly where it started.
        XCTAssertEqual(start.settled(), start, "RxCore/RxUV objects leaked by this test")
        try super.tearDownWithError()
    }

    /// The leak gate in one line: lets the close callbacks of handles already
    /// disposed run, then asserts that `loop` has no open handle and (debug
    /// builds) that `Resources.total` is back at its value when the test
    /// started (with `loop` alive).
    public func assertNoLeaks(_ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        if let report = leakReport() {
            XCTFail("leak\(context.isEmpty ? "" : " \(context)"): \(report)", file: file, line: line)
        }
    }

    /// What `assertNoLeaks` would complain about, or `nil` when nothing leaked.
    public func leakReport() -> String? {
        var problems: [String] = []
        if let loop {
            loop.runNoWait()
            if loop.openHandleCount != 0 {
                problems.append("\(loop.openHandleCount) libuv handle(s) open")
            }
        }
        if let report = baseline.leakReport(since: "when the test started") {
            problems.append(report)
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Runs the loop on the test thread until it has nothing active. A
    /// watchdog on another thread stops the loop, failing the test, if that
    /// takes longer than `timeout` seconds.
    public func runLoop(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
        let timedOut = Flag()
        // Weak: a cancelled work item stays queued until its deadline.
        let watchdog = DispatchWorkItem { [weak loop] in
            timedOut.set()
            loop?.stop()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        loop.run()
        watchdog.cancel()
        XCTAssertFalse(timedOut.isSet, "the loop was still busy after \(timeout) s", file: file, line: line)
    }
}
