import RxCore
import RxCoreTestSupport
import XCTest

final class CompositeDisposableTests: RxCoreTestCase {
    func testCompositeDisposable_DisposesEveryMemberOnce() {
        let counters = (0..<3).map { _ in ManagedCounter() }
        let composite = CompositeDisposable()
        for counter in counters {
            XCTAssertNotNil(composite.insert(countingDisposable(counter)))
        }
        XCTAssertEqual(composite.count, 3)
        XCTAssertFalse(composite.isDisposed)
        composite.dispose()
        composite.dispose()
        XCTAssertTrue(composite.isDisposed)
        XCTAssertEqual(composite.count, 0)
        XCTAssertEqual(counters.map(\.current), [1, 1, 1])
    }

    func testCompositeDisposable_DisposesInInsertionOrder() {
        var order: [Int] = []
        let composite = CompositeDisposable()
        for index in 0..<5 {
            _ = composite.insert(Disposables.create { order.append(index) })
        }
        composite.dispose()
        XCTAssertEqual(order, [0, 1, 2, 3, 4])
    }

    func testCompositeDisposable_RemoveDisposesOnlyThatMember() {
        let first = ManagedCounter()
        let second = ManagedCounter()
        let composite = CompositeDisposable()
        let firstKey = composite.insert(countingDisposable(first))!
        _ = composite.insert(countingDisposable(second))
        composite.remove(for: firstKey)
        XCTAssertEqual(first.current, 1)
        XCTAssertEqual(second.current, 0)
        XCTAssertEqual(composite.count, 1)
        composite.remove(for: firstKey)
        XCTAssertEqual(first.current, 1)
        composite.dispose()
        XCTAssertEqual(first.current, 1)
        XCTAssertEqual(second.current, 1)
        // Removing after dispose does nothing.
        composite.remove(for: firstKey)
        XCTAssertEqual(first.current, 1)
    }

    func testCompositeDisposable_KeysAreDistinct() {
        let counters = (0..<3).map { _ in ManagedCounter() }
        let composite = CompositeDisposable()
        let keys = counters.map { composite.insert(countingDisposable($0))! }
        composite.remove(for: keys[1])
        XCTAssertEqual(counters.map(\.current), [0, 1, 0])
        composite.remove(for: keys[2])
        XCTAssertEqual(counters.map(\.current), [0, 1, 1])
        composite.dispose()
        XCTAssertEqual(counters.map(\.current), [1, 1, 1])
    }

    func testCompositeDisposable_InsertAfterDisposeDisposesAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let counter = ManagedCounter()
        XCTAssertNil(composite.insert(countingDisposable(counter)))
        XCTAssertEqual(counter.current, 1)
        XCTAssertEqual(composite.count, 0)
    }

    func testCompositeDisposable_Initialisers() {
        let counters = (0..<9).map { _ in ManagedCounter() }
        let d = counters.map { countingDisposable($0) }
        let two = CompositeDisposable(d[0], d[1])
        let three = CompositeDisposable(d[2], d[3], d[4])
        let many = CompositeDisposable(d[5], d[6], d[7], d[8])
        XCTAssertEqual(two.count, 2)
        XCTAssertEqual(three.count, 3)
        XCTAssertEqual(many.count, 4)
        two.dispose()
        three.dispose()
        many.dispose()
        XCTAssertEqual(counters.map(\.current), Array(repeating: 1, count: 9))
        let fromArray = CompositeDisposable(disposables: [])
        XCTAssertEqual(fromArray.count, 0)
        fromArray.dispose()
    }

    func testCompositeDisposable_DisposeFromManyThreads() {
        let counters = (0..<10).map { _ in ManagedCounter() }
        let composite = CompositeDisposable(disposables: counters.map { countingDisposable($0) })
        disposeConcurrently(composite)
        XCTAssertEqual(counters.map(\.current), Array(repeating: 1, count: 10))
    }

    func testCompositeDisposable_ConcurrentInsertAndRemove() {
        let composite = CompositeDisposable()
        let counter = ManagedCounter()
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            let key = composite.insert(countingDisposable(counter))
            if index % 2 == 0, let key {
                composite.remove(for: key)
            }
        }
        XCTAssertEqual(counter.current, 50)
        XCTAssertEqual(composite.count, 50)
        composite.dispose()
        XCTAssertEqual(counter.current, 100)
    }

    func testCompositeDisposable_DisposeFromInsideMember() {
        let composite = CompositeDisposable()
        let counter = ManagedCounter()
        _ = composite.insert(Disposables.create { composite.dispose() })
        _ = composite.insert(countingDisposable(counter))
        composite.dispose()
        XCTAssertEqual(counter.current, 1)
    }
}
