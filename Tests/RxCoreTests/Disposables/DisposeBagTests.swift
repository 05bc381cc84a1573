import Dispatch
import RxCore
import RxCoreTestSupport
import XCTest

final class DisposeBagTests: RxCoreTestCase {
    func testDisposeBag_DisposesOnDeinit() {
        let counters = (0..<3).map { _ in ManagedCounter() }
        var bag: DisposeBag? = DisposeBag()
        for counter in counters {
            bag?.insert(countingDisposable(counter))
        }
        XCTAssertEqual(counters.map(\.current), [0, 0, 0])
        bag = nil
        XCTAssertEqual(counters.map(\.current), [1, 1, 1])
    }

    func testDisposeBag_ReplacingTheBagDisposesEarly() {
        let counter = ManagedCounter()
        var bag = DisposeBag()
        countingDisposable(counter).disposed(by: bag)
        bag = DisposeBag()
        XCTAssertEqual(counter.current, 1)
        _ = bag
    }

    func testDisposeBag_DisposesInInsertionOrder() {
        var order: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        for index in 0..<4 {
            Disposables.create { order.append(index) }.disposed(by: bag!)
        }
        bag = nil
        XCTAssertEqual(order, [0, 1, 2, 3])
    }

    func testDisposeBag_InsertForms() {
        let counters = (0..<8).map { _ in ManagedCounter() }
        let d = counters.map { countingDisposable($0) }
        var bag: DisposeBag? = DisposeBag()
        bag?.insert(d[0])
        bag?.insert(d[1], d[2])
        bag?.insert([d[3], d[4]])
        bag?.insert {
            d[5]
            d[6]
        }
        bag?.insert { d[7] }
        XCTAssertEqual(counters.map(\.current), Array(repeating: 0, count: 8))
        bag = nil
        XCTAssertEqual(counters.map(\.current), Array(repeating: 1, count: 8))
    }

    func testDisposeBag_InitialisersTakeDisposables() {
        let counters = (0..<4).map { _ in ManagedCounter() }
        var variadic: DisposeBag? = DisposeBag(disposing: countingDisposable(counters[0]), countingDisposable(counters[1]))
        var array: DisposeBag? = DisposeBag(disposing: [countingDisposable(counters[2]), countingDisposable(counters[3])])
        XCTAssertEqual(counters.map(\.current), [0, 0, 0, 0])
        variadic = nil
        array = nil
        XCTAssertEqual(counters.map(\.current), [1, 1, 1, 1])
        _ = (variadic, array)
    }

    func testDisposeBag_SubscriptionsEndWithTheBag() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        subject.subscribe(onNext: { received.append($0) }).disposed(by: bag!)
        subject.onNext(1)
        bag = nil
        subject.onNext(2)
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testDisposeBag_ConcurrentInsert() {
        let counter = ManagedCounter()
        do {
            let bag = DisposeBag()
            DispatchQueue.concurrentPerform(iterations: 100) { _ in
                countingDisposable(counter).disposed(by: bag)
            }
            XCTAssertEqual(counter.current, 0)
        }
        XCTAssertEqual(counter.current, 100)
    }
}
