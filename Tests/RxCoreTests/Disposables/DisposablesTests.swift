import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

final class DisposablesTests: RxCoreTestCase {
    func testDisposables_CreateEmptyDoesNothing() {
        let disposable = Disposables.create()
        disposable.dispose()
        disposable.dispose()
        disposeConcurrently(disposable)
    }

    func testDisposables_CreateWithActionRunsOnce() {
        let counter = ManagedCounter()
        let disposable = Disposables.create { counter.increment() }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(counter.current, 1)
    }

    func testDisposables_CreateWithActionFromManyThreads() {
        let counter = ManagedCounter()
        let disposable = Disposables.create { counter.increment() }
        disposeConcurrently(disposable)
        XCTAssertEqual(counter.current, 1)
    }

    func testDisposables_CreateWithActionDisposingItselfReentrantly() {
        let counter = ManagedCounter()
        var disposable: Cancelable?
        disposable = Disposables.create {
            counter.increment()
            disposable?.dispose()
        }
        disposable?.dispose()
        XCTAssertEqual(counter.current, 1)
        disposable = nil
    }

    func testDisposables_CreateTwo() {
        let counters = (0..<2).map { _ in ManagedCounter() }
        let disposable = Disposables.create(countingDisposable(counters[0]), countingDisposable(counters[1]))
        XCTAssertFalse(disposable.isDisposed)
        disposeConcurrently(disposable)
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(counters.map(\.current), [1, 1])
    }

    func testDisposables_CreateThree() {
        let counters = (0..<3).map { _ in ManagedCounter() }
        let disposable = Disposables.create(countingDisposable(counters[0]), countingDisposable(counters[1]), countingDisposable(counters[2]))
        disposeConcurrently(disposable)
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(counters.map(\.current), [1, 1, 1])
    }

    func testDisposables_CreateMany() {
        let counters = (0..<5).map { _ in ManagedCounter() }
        let d = counters.map { countingDisposable($0) }
        let disposable = Disposables.create(d[0], d[1], d[2], d[3], d[4])
        disposeConcurrently(disposable)
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(counters.map(\.current), [1, 1, 1, 1, 1])
    }

    func testDisposables_CreateFromArray() {
        for size in 0..<5 {
            let counters = (0..<size).map { _ in ManagedCounter() }
            let disposable = Disposables.create(counters.map { countingDisposable($0) })
            XCTAssertFalse(disposable.isDisposed)
            disposeConcurrently(disposable)
            XCTAssertTrue(disposable.isDisposed, "size \(size)")
            XCTAssertEqual(counters.map(\.current), Array(repeating: 1, count: size), "size \(size)")
        }
    }

    func testDisposables_DisposeFromAnotherThread() {
        let counter = ManagedCounter()
        let disposable = Disposables.create(countingDisposable(counter), Disposables.create())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            disposable.dispose()
            done.signal()
        }
        done.wait()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(counter.current, 1)
    }
}
