import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// An equatable stand-in for `(index: Int, element: String)`.
private struct Indexed: Equatable, CustomStringConvertible {
    let index: Int
    let element: String

    init(_ index: Int, _ element: String) {
        self.index = index
        self.element = element
    }

    var description: String { "(\(index), \(element))" }
}

extension ObservableType where Element == String {
    fileprivate func indexed() -> Observable<Indexed> {
        enumerated().map { Indexed($0.index, $0.element) }
    }
}

final class EnumeratedTests: RxCoreTestCase {
    func testEnumerated_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "a")
        ])
        let res = scheduler.start { xs.indexed() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testEnumerated_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "a"),
            .completed(300),
        ])
        let res = scheduler.start { xs.indexed() }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testEnumerated_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, "a"),
            .next(210, "b"),
            .next(220, "c"),
            .next(230, "d"),
            .completed(300),
        ])
        let res = scheduler.start { xs.indexed() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Indexed(0, "b")),
                .next(220, Indexed(1, "c")),
                .next(230, Indexed(2, "d")),
                .completed(300),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testEnumerated_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "b"),
            .error(220, testError),
            .next(230, "d"),
        ])
        let res = scheduler.start { xs.indexed() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Indexed(0, "b")),
                .error(220, testError),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testEnumerated_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, "b"),
            .next(220, "c"),
            .next(290, "d"),
            .completed(300),
        ])
        let res = scheduler.start(disposed: 250) { xs.indexed() }
        XCTAssertEqual(
            res.events,
            [
                .next(210, Indexed(0, "b")),
                .next(220, Indexed(1, "c")),
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testEnumerated_IndexRestartsPerSubscription() {
        let source = Observable.of("x", "y").enumerated()
        var indices: [Int] = []
        _ = source.subscribe(onNext: { indices.append($0.index) })
        _ = source.subscribe(onNext: { indices.append($0.index) })
        XCTAssertEqual(indices, [0, 1, 0, 1])
    }

    func testEnumerated_DisposeFromInsideOnNext() {
        let subject = PublishSubject<String>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.enumerated().subscribe(onNext: { value in
            received.append(value.index)
            subscription?.dispose()
        })
        subject.onNext("a")
        subject.onNext("b")
        XCTAssertEqual(received, [0])
        XCTAssertFalse(subject.hasObservers)
    }
}
