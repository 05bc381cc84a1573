import Dispatch
import RxCore
import RxUV
import Synchronization
import XCTest

/// The base of every bridge test. Each test gets a fresh `loop`; after the
/// test the loop must have no open handle, must close cleanly, and the
/// RxCore live-object counter must be back where it started. Any of these
/// failing fails the test.
///
/// The same gate is one line inside a test: `assertNoLeaks()` (for example
/// after each row of a table-driven test). `leakReport()` is the gate
/// without the assertion.
class BridgeTestCase: XCTestCase {
    private(set) var loop: Loop!
    #if TRACE_RESOURCES
    /// `Resources.total` before the test's loop existed, and with it.
    private var startResourceCount: Int32 = 0
    private var baselineResourceCount: Int32 = 0
    #endif

    override func setUpWithError() throws {
        try super.setUpWithError()
        #if TRACE_RESOURCES
        startResourceCount = Resources.total
        #endif
        loop = try Loop()
        #if TRACE_RESOURCES
        baselineResourceCount = Resources.total
        #endif
    }

    override func tearDownWithError() throws {
        if let loop {
            assertNoLeaks("after the test")
            XCTAssertNoThrow(try loop.close(), "the loop did not close cleanly")
        }
        loop = nil
        #if TRACE_RESOURCES
        // The loop itself is gone now: the counter must be exactly where it started.
        XCTAssertEqual(settledResourceCount(to: startResourceCount), startResourceCount, "RxCore/RxUV objects leaked by this test")
        #endif
        try super.tearDownWithError()
    }

    /// The leak gate in one line: lets the close callbacks of handles already
    /// disposed run, then asserts that `loop` has no open handle and (debug
    /// builds) that `Resources.total` is back at its value when the test
    /// started (with `loop` alive).
    func assertNoLeaks(_ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        if let report = leakReport() {
            XCTFail("leak\(context.isEmpty ? "" : " \(context)"): \(report)", file: file, line: line)
        }
    }

    /// What `assertNoLeaks` would complain about, or `nil` when nothing leaked.
    func leakReport() -> String? {
        var problems: [String] = []
        if let loop {
            loop.runNoWait()
            if loop.openHandleCount != 0 {
                problems.append("\(loop.openHandleCount) libuv handle(s) open")
            }
        }
        #if TRACE_RESOURCES
        let total = settledResourceCount(to: baselineResourceCount)
        if total != baselineResourceCount {
            problems.append("Resources.total is \(total), was \(baselineResourceCount) when the test started")
        }
        #endif
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    #if TRACE_RESOURCES
    /// `Resources.total` once objects released on other threads have gone
    /// (waits up to one second for it to reach `expected`).
    private func settledResourceCount(to expected: Int32) -> Int32 {
        var waited = 0
        while Resources.total != expected && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        return Resources.total
    }
    #endif

    /// Runs the loop on the test thread until it has nothing active. A
    /// watchdog on another thread stops the loop, failing the test, if that
    /// takes longer than `timeout` seconds.
    func runLoop(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
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

/// A thread-safe boolean.
final class Flag: @unchecked Sendable {
    private let value = Atomic<Bool>(false)

    func set() {
        value.store(true, ordering: .sequentiallyConsistent)
    }

    var isSet: Bool {
        value.load(ordering: .sequentiallyConsistent)
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let value = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    var current: Int {
        value.load(ordering: .sequentiallyConsistent)
    }
}

/// A mutable value shared with closures that the compiler treats as
/// concurrent; the tests touch it from the loop thread only, or after a join.
final class Box<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
