import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class VariableTests: RxCoreTestCase {
    /// The whole timeline: the current value at subscription, each set, and
    /// the completion when the variable is released.
    func testVariable_Timeline_CompletesWhenReleased() {
        let scheduler = TestScheduler(initialClock: 0)
        var variable: Variable<Int>? = Variable(0)
        let observable = variable!.asObservable()
        scheduler.scheduleAt(210) { variable?.value = 1 }
        scheduler.scheduleAt(220) { variable?.value = 2 }
        scheduler.scheduleAt(230) { variable = nil }
        let res = scheduler.start { observable }
        XCTAssertEqual(res.events, [.next(200, 0), .next(210, 1), .next(220, 2), .completed(230)])
    }

    func testVariable_ValueReadsWhatWasSet() {
        let variable = Variable("a")
        XCTAssertEqual(variable.value, "a")
        variable.value = "b"
        XCTAssertEqual(variable.value, "b")
        var seen: [String] = []
        _ = variable.asObservable().subscribe(onNext: { seen.append($0) })
        variable.value = "c"
        XCTAssertEqual(seen, ["b", "c"])
    }

    /// A property of a variable does not keep it: released, the property's
    /// subscribers complete and its value stays the last one.
    func testProperty_OfAVariable_CompletesWithIt() {
        let scheduler = TestScheduler(initialClock: 0)
        var variable: Variable<Int>? = Variable(7)
        let property = Property(variable!)
        scheduler.scheduleAt(210) { variable?.value = 8 }
        scheduler.scheduleAt(250) { variable = nil }
        let all = scheduler.createObserver(Int.self)
        let changes = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) {
            _ = property.asObservable().subscribe(all)
            _ = property.changed.subscribe(changes)
        }
        scheduler.start()
        XCTAssertEqual(all.events, [.next(200, 7), .next(210, 8), .completed(250)])
        XCTAssertEqual(changes.events, [.next(210, 8), .completed(250)])
        XCTAssertEqual(property.value, 8)
    }

    /// The store pattern as a one-way data flow: a private `Variable`, a
    /// public read-only `Property`, and a write-only `AnyObserver` input.
    func testStorePattern_PrivateVariable_PublicProperty_ObserverInput() {
        final class CounterStore {
            private let count = Variable(0)
            let state: Property<Int>
            let input: AnyObserver<Int>
            private let bag = DisposeBag()

            init() {
                state = Property(count)
                let commands = PublishSubject<Int>()
                input = commands.asObserver()
                commands.subscribe(onNext: { [count] step in count.value += step }).disposed(by: bag)
            }
        }
        var store: CounterStore? = CounterStore()
        let state = store!.state
        var seen: [Int] = []
        var completed = false
        _ = state.asObservable().subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true })
        store!.input.onNext(2)
        store!.input.onNext(3)
        XCTAssertEqual(state.value, 5)
        XCTAssertEqual(seen, [0, 2, 5])
        XCTAssertFalse(completed)
        store = nil
        XCTAssertTrue(completed, "the readers' chains end with the store")
        XCTAssertEqual(state.value, 5)
    }
}
