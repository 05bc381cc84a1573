import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class InfallibleCombiningTests: RxCoreTestCase {
    func testStartWith() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).startWith(-2, -1) }
        XCTAssertEqual(res.events, [.next(200, -2), .next(200, -1), .next(210, 1), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testConcat_InstanceAndStatics() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).concat(ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])

        var values: [Int] = []
        _ = Infallible.concat(Infallible.just(1), Infallible.just(2)).subscribe(onNext: { values.append($0) })
        _ = Infallible.concat([Infallible.just(3), Infallible.just(4)]).subscribe(onNext: { values.append($0) })
        _ = Infallible.concat(AnySequence([Infallible.just(5)])).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2, 3, 4, 5])
    }

    func testConcat_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys = scheduler.createColdObservable([.next(50, 2)])
        let res = scheduler.start(disposed: 240) { Infallible.concat(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let res = scheduler.start { Infallible.merge(xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])

        var values: [Int] = []
        _ = Infallible.merge([Infallible.just(1), Infallible.just(2)]).subscribe(onNext: { values.append($0) })
        _ = Infallible.merge(AnyCollection([Infallible.just(3)])).subscribe(onNext: { values.append($0) })
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testMerge_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 3)])
        let res = scheduler.start(disposed: 250) { Infallible.merge([xs.asInfallible(onErrorJustReturn: 0)]) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testWithLatestFrom() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
        let res = scheduler.start {
            xs.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys.asInfallible(onErrorJustReturn: "")) { "\($0)\($1)" }
        }
        XCTAssertEqual(res.events, [.next(230, "2a"), .next(250, "3b"), .completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.next(230, 2), .completed(300)])
        let ys2 = scheduler2.createHotObservable([.next(220, "a")])
        let res2 = scheduler2.start(disposed: 260) { xs2.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys2.asInfallible(onErrorJustReturn: "")) }
        XCTAssertEqual(res2.events, [.next(230, "a")])
        XCTAssertEqual(ys2.subscriptions, [Subscription(200, 260)])
    }

    func testCombineLatestCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let sources = [xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)]
        let res = scheduler.start { Infallible.combineLatest(sources) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .next(230, [3, 2]), .completed(250)])

        var sums: [Int] = []
        _ = Infallible.combineLatest([Infallible.just(1), Infallible.just(2)]) { $0.reduce(0, +) }.subscribe(onNext: { sums.append($0) })
        XCTAssertEqual(sums, [3])
    }

    func testZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 2), .next(235, 4), .completed(250)])
        let sources = [xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)]
        let res = scheduler.start(disposed: 245) { Infallible.zip(sources) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .next(235, [3, 4])])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 245)])

        var sums: [Int] = []
        _ = Infallible.zip([Infallible.just(1), Infallible.just(2)]) { $0.reduce(0, +) }.subscribe(onNext: { sums.append($0) })
        XCTAssertEqual(sums, [3])
    }
}
