import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

final class SerialDisposableTests: RxCoreTestCase {
    func testSerialDisposable_SettingDisposesThePrevious() {
        let first = ManagedCounter()
        let second = ManagedCounter()
        let serial = SerialDisposable()
        serial.disposable = countingDisposable(first)
        XCTAssertEqual(first.current, 0)
        serial.disposable = countingDisposable(second)
        XCTAssertEqual(first.current, 1)
        XCTAssertEqual(second.current, 0)
        serial.dispose()
        XCTAssertEqual(second.current, 1)
        XCTAssertTrue(serial.isDisposed)
    }

    func testSerialDisposable_GetterReturnsTheCurrent() {
        let serial = SerialDisposable()
        let inner = BooleanDisposable()
        serial.disposable = inner
        XCTAssertTrue((serial.disposable as AnyObject) === inner)
        serial.dispose()
        XCTAssertTrue(inner.isDisposed)
    }

    func testSerialDisposable_SetAfterDisposeDisposesAtOnce() {
        let serial = SerialDisposable()
        serial.dispose()
        let counter = ManagedCounter()
        serial.disposable = countingDisposable(counter)
        XCTAssertEqual(counter.current, 1)
    }

    func testSerialDisposable_DisposeIsIdempotent() {
        let counter = ManagedCounter()
        let serial = SerialDisposable()
        serial.disposable = countingDisposable(counter)
        serial.dispose()
        serial.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testSerialDisposable_DisposeFromManyThreads() {
        let counter = ManagedCounter()
        let serial = SerialDisposable()
        serial.disposable = countingDisposable(counter)
        disposeConcurrently(serial)
        XCTAssertEqual(counter.current, 1)
    }

    func testSerialDisposable_ConcurrentReplacementDisposesEveryDisposable() {
        let counter = ManagedCounter()
        let serial = SerialDisposable()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            serial.disposable = countingDisposable(counter)
        }
        XCTAssertEqual(counter.current, 99)
        serial.dispose()
        XCTAssertEqual(counter.current, 100)
    }
}
