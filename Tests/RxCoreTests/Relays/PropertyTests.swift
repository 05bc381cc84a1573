import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PropertyTests: RxCoreTestCase {
    func testProperty_Value() {
        let relay = BehaviorRelay(value: 1)
        let property = Property(relay)
        XCTAssertEqual(property.value, 1)
        relay.accept(2)
        XCTAssertEqual(property.value, 2)
    }

    func testProperty_EmitsCurrentValueThenChanges() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let property = Property(relay)
        scheduler.scheduleAt(150) { relay.accept(1) }
        scheduler.scheduleAt(210) { relay.accept(2) }
        scheduler.scheduleAt(220) { relay.accept(3) }
        scheduler.scheduleAt(260) { relay.accept(4) }
        let res = scheduler.start(disposed: 250) { property.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 1), .next(210, 2), .next(220, 3)])
        XCTAssertFalse(relay.asObservable() === property.asObservable())
    }

    func testProperty_SubscribeDirectly() {
        let relay = BehaviorRelay(value: 5)
        let property = Property(relay)
        var received: [Int] = []
        let subscription = property.subscribe(onNext: { received.append($0) })
        relay.accept(6)
        subscription.dispose()
        relay.accept(7)
        XCTAssertEqual(received, [5, 6])
    }

    func testProperty_ChangedSkipsCurrentValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let property = Property(relay)
        scheduler.scheduleAt(150) { relay.accept(1) }
        scheduler.scheduleAt(210) { relay.accept(2) }
        scheduler.scheduleAt(220) { relay.accept(3) }
        scheduler.scheduleAt(260) { relay.accept(4) }
        let res = scheduler.start(disposed: 250) { property.changed }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3)])
    }

    func testProperty_ChangedDisposeFromInsideOnNext() {
        let relay = BehaviorRelay(value: 0)
        let property = Property(relay)
        var received: [Int] = []
        var subscription: Disposable?
        subscription = property.changed.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
        })
        relay.accept(1)
        relay.accept(2)
        XCTAssertEqual(received, [1])
    }

    func testProperty_ObservablesCannotBeCastToSomethingThatSends() {
        let relay = BehaviorRelay(value: 0)
        let property = Property(relay)
        XCTAssertNil(property.asObservable() as? BehaviorSubject<Int>)
        XCTAssertNil(property.asObservable() as AnyObject as? BehaviorRelay<Int>)
        XCTAssertNil(property.changed as? BehaviorSubject<Int>)
        XCTAssertFalse((property.asObservable() as Any) is any ObserverType)
        XCTAssertFalse((property.changed as Any) is any ObserverType)
        XCTAssertFalse((property as Any) is any ObserverType)
    }

    /// A store with a write-only face (an `AnyObserver`) and a read-only
    /// face (a `Property`): writers cannot read through their face, readers
    /// cannot write through theirs, and every write reaches every reader.
    private final class CounterStore {
        private let actions = PublishSubject<Int>()
        private let state = BehaviorRelay(value: 0)
        private let bag = DisposeBag()

        /// The write-only face: send increments.
        let input: AnyObserver<Int>
        /// The read-only face: the running total.
        let total: Property<Int>

        init() {
            input = actions.asObserver()
            total = Property(state)
            let state = self.state
            actions
                .map { state.value + $0 }
                .bind(to: state)
                .disposed(by: bag)
        }
    }

    func testProperty_OneWayDataFlowThroughAStore() {
        let scheduler = TestScheduler(initialClock: 0)
        let store = CounterStore()
        let input: AnyObserver<Int> = store.input
        let total: Property<Int> = store.total
        scheduler.scheduleAt(210) { input.onNext(1) }
        scheduler.scheduleAt(220) { input.onNext(10) }
        scheduler.scheduleAt(230) { input.onNext(100) }
        let res = scheduler.start { total.asObservable() }
        XCTAssertEqual(res.events, [.next(200, 0), .next(210, 1), .next(220, 11), .next(230, 111)])
        XCTAssertEqual(total.value, 111)
        // A completion sent through the write face stops the actions, not the state.
        input.onCompleted()
        XCTAssertEqual(total.value, 111)
        let late = scheduler.createObserver(Int.self)
        let subscription = total.subscribe(late)
        XCTAssertEqual(late.events.map { $0.value }, [.next(111)])
        subscription.dispose()
    }
}
