import RxCore
import RxCoreTestSupport
import XCTest

final class BooleanDisposableTests: RxCoreTestCase {
    func testBooleanDisposable_Dispose() {
        let disposable = BooleanDisposable()
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
    }

    func testBooleanDisposable_InitialState() {
        XCTAssertTrue(BooleanDisposable(isDisposed: true).isDisposed)
        XCTAssertFalse(BooleanDisposable(isDisposed: false).isDisposed)
        XCTAssertTrue(BooleanDisposable.BooleanDisposableTrue.isDisposed)
    }

    func testBooleanDisposable_DisposeFromManyThreads() {
        let disposable = BooleanDisposable()
        disposeConcurrently(disposable)
        XCTAssertTrue(disposable.isDisposed)
    }
}
