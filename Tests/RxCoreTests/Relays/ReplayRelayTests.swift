import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ReplayRelayTests: RxCoreTestCase {
    func testReplayRelay_BufferSize2() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let results = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(210) { relay.accept(1) }
        scheduler.scheduleAt(220) { relay.accept(2) }
        scheduler.scheduleAt(230) { relay.accept(3) }
        scheduler.scheduleAt(300) { subscription = relay.subscribe(results) }
        scheduler.scheduleAt(310) { relay.accept(4) }
        scheduler.scheduleAt(400) { subscription?.dispose() }
        scheduler.scheduleAt(410) { relay.accept(5) }
        scheduler.start()
        XCTAssertEqual(results.events, [.next(300, 2), .next(300, 3), .next(310, 4)])
    }

    func testReplayRelay_Unbounded() {
        let relay = ReplayRelay<Int>.createUnbounded()
        for value in 1...5 { relay.accept(value) }
        var received: [Int] = []
        let subscription = relay.asObservable().subscribe(onNext: { received.append($0) })
        relay.accept(6)
        XCTAssertEqual(received, [1, 2, 3, 4, 5, 6])
        subscription.dispose()
    }

    /// RxRelay's spelling, `createUnbound()`, replays everything too.
    func testReplayRelay_CreateUnbound() {
        let relay = ReplayRelay<Int>.createUnbound()
        for value in 1...3 { relay.accept(value) }
        var received: [Int] = []
        let subscription = relay.asObservable().subscribe(onNext: { received.append($0) })
        relay.accept(4)
        XCTAssertEqual(received, [1, 2, 3, 4])
        subscription.dispose()
    }

    func testReplayRelay_BufferSize0() {
        let relay = ReplayRelay<Int>.create(bufferSize: 0)
        relay.accept(1)
        var received: [Int] = []
        let subscription = relay.subscribe(onNext: { received.append($0) })
        relay.accept(2)
        XCTAssertEqual(received, [2])
        subscription.dispose()
    }
}
