import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class BehaviorRelayTests: RxCoreTestCase {
    func testBehaviorRelay_SubscribersGetCurrentValueThenChanges() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 0)
        let results1 = scheduler.createObserver(Int.self)
        let results2 = scheduler.createObserver(Int.self)
        var subscription1: Disposable?
        var subscription2: Disposable?
        scheduler.scheduleAt(210) { relay.accept(1) }
        scheduler.scheduleAt(300) { subscription1 = relay.subscribe(results1) }
        scheduler.scheduleAt(310) { relay.accept(2) }
        scheduler.scheduleAt(400) { subscription2 = relay.subscribe(results2) }
        scheduler.scheduleAt(410) { relay.accept(3) }
        scheduler.scheduleAt(500) { subscription1?.dispose() }
        scheduler.scheduleAt(510) { relay.accept(4) }
        scheduler.scheduleAt(600) { subscription2?.dispose() }
        scheduler.start()
        XCTAssertEqual(results1.events, [.next(300, 1), .next(310, 2), .next(410, 3)])
        XCTAssertEqual(results2.events, [.next(400, 2), .next(410, 3), .next(510, 4)])
    }

    func testBehaviorRelay_Value() {
        let relay = BehaviorRelay(value: "a")
        XCTAssertEqual(relay.value, "a")
        relay.accept("b")
        XCTAssertEqual(relay.value, "b")
    }

    func testBehaviorRelay_AcceptFromInsideSubscriberSeesLatestValue() {
        let relay = BehaviorRelay(value: [Int]())
        var seen: [[Int]] = []
        let subscription = relay.subscribe(onNext: { list in
            seen.append(list)
            if list == [1] {
                relay.accept(relay.value + [2])
                relay.accept(relay.value + [3])
            }
        })
        relay.accept([1])
        XCTAssertEqual(relay.value, [1, 2, 3])
        XCTAssertEqual(seen, [[], [1], [1, 2], [1, 2, 3]])
        subscription.dispose()
    }

    func testBehaviorRelay_AsObservable() {
        let relay = BehaviorRelay(value: 1)
        var received: [Int] = []
        let subscription = relay.asObservable().subscribe(onNext: { received.append($0) })
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(received, [1, 2])
    }

    func testBehaviorRelay_ConcurrentAcceptAndRead() {
        let relay = BehaviorRelay(value: 0)
        let received = ManagedCounter()
        let subscription = relay.subscribe(onNext: { _ in received.increment() })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 {
                relay.accept(thread * 100 + value)
                _ = relay.value
            }
        }
        XCTAssertEqual(received.current, 10_001)
        subscription.dispose()
    }
}
