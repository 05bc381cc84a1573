import Dispatch
import RxCore
import RxUV
import Synchronization
import XCTest

/// The base of every bridge test. Each test gets a fresh `loop`; after the
/// test the loop must have no open handle, must close cleanly, and the
/// RxCore live-object counter must be back where it started. Any of these
/// failing fails the test.
class BridgeTestCase: XCTestCase {
    private(set) var loop: Loop!
    #if TRACE_RESOURCES
    private var startResourceCount: Int32 = 0
    #endif

    override func setUpWithError() throws {
        try super.setUpWithError()
        #if TRACE_RESOURCES
        startResourceCount = Resources.total
        #endif
        loop = try Loop()
    }

    override func tearDownWithError() throws {
        if let loop {
            // Let close callbacks of handles disposed at the end of the test run.
            loop.runNoWait()
            XCTAssertEqual(loop.openHandleCount, 0, "the test left libuv handles open")
            XCTAssertNoThrow(try loop.close(), "the loop did not close cleanly")
        }
        loop = nil
        #if TRACE_RESOURCES
        var waited = 0
        while Resources.total != startResourceCount && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        XCTAssertEqual(Resources.total, startResourceCount, "RxCore/RxUV objects leaked by this test")
        #endif
        try super.tearDownWithError()
    }

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
