import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

final class SingleAssignmentDisposableTests: RxCoreTestCase {
    func testSingleAssignmentDisposable_SetThenDispose() {
        let counter = ManagedCounter()
        let single = SingleAssignmentDisposable()
        XCTAssertFalse(single.isDisposed)
        single.setDisposable(countingDisposable(counter))
        XCTAssertFalse(single.isDisposed)
        XCTAssertEqual(counter.current, 0)
        single.dispose()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        XCTAssertEqual(counter.current, 1)
    }

    func testSingleAssignmentDisposable_DisposeThenSetDisposesAtOnce() {
        let counter = ManagedCounter()
        let single = SingleAssignmentDisposable()
        single.dispose()
        XCTAssertTrue(single.isDisposed)
        single.setDisposable(countingDisposable(counter))
        XCTAssertEqual(counter.current, 1)
        single.dispose()
        XCTAssertEqual(counter.current, 1)
    }

    func testSingleAssignmentDisposable_DisposeFromManyThreads() {
        let counter = ManagedCounter()
        let single = SingleAssignmentDisposable()
        single.setDisposable(countingDisposable(counter))
        disposeConcurrently(single)
        XCTAssertEqual(counter.current, 1)
    }

    func testSingleAssignmentDisposable_SetRacingDispose() {
        for _ in 0..<200 {
            let counter = ManagedCounter()
            let single = SingleAssignmentDisposable()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                single.dispose()
                done.signal()
            }
            single.setDisposable(countingDisposable(counter))
            done.wait()
            XCTAssertEqual(counter.current, 1)
        }
    }
}
