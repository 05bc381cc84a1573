import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

final class RefCountDisposableTests: RxCoreTestCase {
    func testRefCountDisposable_NoDependents() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertTrue(refCount.isDisposed)
        XCTAssertEqual(counter.current, 1)
        refCount.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testRefCountDisposable_WaitsForEveryDependent() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        XCTAssertEqual(counter.current, 0)
        XCTAssertFalse(refCount.isDisposed)
        first.dispose()
        first.dispose()
        XCTAssertEqual(counter.current, 0)
        second.dispose()
        XCTAssertEqual(counter.current, 1)
        XCTAssertTrue(refCount.isDisposed)
    }

    func testRefCountDisposable_DependentsLeavingFirstDoNotDispose() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        let dependent = refCount.retain()
        dependent.dispose()
        XCTAssertEqual(counter.current, 0)
        XCTAssertFalse(refCount.isDisposed)
        refCount.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testRefCountDisposable_RetainAfterPrimaryDisposedStillDelays() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        let first = refCount.retain()
        refCount.dispose()
        let late = refCount.retain()
        first.dispose()
        XCTAssertEqual(counter.current, 0)
        late.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testRefCountDisposable_RetainAfterDisposedIsANoOp() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        refCount.dispose()
        let dependent = refCount.retain()
        dependent.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testRefCountDisposable_ConcurrentDependents() {
        let counter = ManagedCounter()
        let refCount = RefCountDisposable(disposable: countingDisposable(counter))
        let dependents = (0..<100).map { _ in refCount.retain() }
        refCount.dispose()
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            dependents[index].dispose()
            dependents[index].dispose()
            refCount.dispose()
        }
        XCTAssertEqual(counter.current, 1)
        XCTAssertTrue(refCount.isDisposed)
    }
}
