import Dispatch
import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class PublishRelayTests: RxCoreTestCase {
    func testPublishRelay_SubscribersSeeOnlyLaterElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
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
        XCTAssertEqual(results1.events, [.next(310, 2), .next(410, 3)])
        XCTAssertEqual(results2.events, [.next(410, 3), .next(510, 4)])
    }

    func testPublishRelay_AsObservable() {
        let relay = PublishRelay<Int>()
        var received: [Int] = []
        let subscription = relay.asObservable().subscribe(onNext: { received.append($0) })
        relay.accept(1)
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(received, [1, 2])
    }

    func testPublishRelay_ReentrantAcceptIsSerialised() {
        let relay = PublishRelay<Int>()
        var first: [Int] = []
        var second: [Int] = []
        let a = relay.subscribe(onNext: { value in
            first.append(value)
            if value == 1 { relay.accept(2) }
        })
        let b = relay.subscribe(onNext: { second.append($0) })
        relay.accept(1)
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
        a.dispose()
        b.dispose()
    }

    func testPublishRelay_ConcurrentAccept() {
        let relay = PublishRelay<Int>()
        let received = ManagedCounter()
        let subscription = relay.subscribe(onNext: { _ in received.increment() })
        DispatchQueue.concurrentPerform(iterations: 100) { thread in
            for value in 0..<100 { relay.accept(thread * 100 + value) }
        }
        XCTAssertEqual(received.current, 10_000)
        subscription.dispose()
    }
}
