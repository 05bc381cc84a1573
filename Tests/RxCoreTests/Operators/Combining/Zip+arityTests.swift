import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

final class ZipArityTests: RxCoreTestCase {
    // MARK: 3 sources

    func testZip3_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1)])
        let e1 = scheduler.createHotObservable([.next(150, 1)])
        let e2 = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 1000)])
    }

    func testZip3_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .completed(220)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
        let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 230)])
    }

    func testZip3_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(220, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(230, 10), .next(260, 20), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(240, 100), .next(250, 200), .completed(420)])
        let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(240, 111), .next(260, 222), .completed(420)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 420)])
    }

    func testZip3_TupleOfDifferentTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(230, "a"), .next(240, "b"), .completed(300)])
        let e2 = scheduler.createHotObservable([.next(250, true), .next(260, false), .completed(310)])
        let res = scheduler.start { Observable.zip(e0, e1, e2).map { "\($0.0)\($0.1)\($0.2)" } }
        XCTAssertEqual(res.events, [.next(250, "1atrue"), .next(260, "2bfalse"), .completed(310)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 310)])
    }

    /// As in RxSwift 6 (`testZip_AllCompleted3`): once no tuple can be
    /// produced, later elements are dropped and completion waits for the
    /// last source.
    func testZip3_AllCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .completed(220)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .next(220, 6), .completed(230)])
        let e2 = scheduler.createHotObservable([
            .next(150, 1), .next(210, 5), .next(220, 6), .next(230, 7), .completed(240),
        ])
        let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(210, 15), .completed(240)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 240)])
    }

    func testZip3_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .error(250, testError)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 4), .completed(400)])
        let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(230, 6), .error(250, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 250)])
    }

    func testZip3_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(260, 10), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(400)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .completed(240)])
        let res = scheduler.start(disposed: 250) { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.next(230, 6)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 240)])
    }

    func testZip3_Throws() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(215, 2), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(225, 2), .completed(400)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(240, 3), .completed(400)])
        let res = scheduler.start {
            Observable.zip(e0, e1, e2) { a, b, c -> Int in
                if a == 2 { throw testError }
                return a + b + c
            }
        }
        XCTAssertEqual(res.events, [.next(230, 6), .error(240, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 240)])
    }

    // MARK: 4...8 sources
    //
    // Source i emits i + 1 at 210 + 10i, 10(i + 1) at 300 + 10i, and
    // completes at 400 + 10i. Each tuple comes when the last source has
    // produced its element; completion when the last source completes.

    private func makeSources(_ scheduler: TestScheduler, _ count: Int) -> [TestableObservable<Int>] {
        (0..<count).map { index in
            scheduler.createHotObservable([
                .next(150, -1),
                .next(210 + 10 * index, index + 1),
                .next(300 + 10 * index, 10 * (index + 1)),
                .completed(400 + 10 * index),
            ])
        }
    }

    private func assertTimeline(_ res: TestableObserver<Int>, _ sources: [TestableObservable<Int>], file: StaticString = #filePath, line: UInt = #line) {
        let count = sources.count
        let sum = count * (count + 1) / 2
        XCTAssertEqual(
            res.events,
            [
                .next(210 + 10 * (count - 1), sum),
                .next(300 + 10 * (count - 1), 10 * sum),
                .completed(400 + 10 * (count - 1)),
            ], file: file, line: line)
        for (index, source) in sources.enumerated() {
            XCTAssertEqual(source.subscriptions, [Subscription(200, 400 + 10 * index)], file: file, line: line)
        }
    }

    func testZip4() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 4)
        let res = scheduler.start { Observable.zip(e[0], e[1], e[2], e[3]) { $0 + $1 + $2 + $3 } }
        assertTimeline(res, e)
    }

    func testZip4_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 4)
        let res = scheduler.start { Observable.zip(e[0], e[1], e[2], e[3]).map { $0.0 + $0.1 + $0.2 + $0.3 } }
        assertTimeline(res, e)
    }

    func testZip5() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 5)
        let res = scheduler.start { Observable.zip(e[0], e[1], e[2], e[3], e[4]) { $0 + $1 + $2 + $3 + $4 } }
        assertTimeline(res, e)
    }

    func testZip5_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 5)
        let res = scheduler.start { Observable.zip(e[0], e[1], e[2], e[3], e[4]).map { $0.0 + $0.1 + $0.2 + $0.3 + $0.4 } }
        assertTimeline(res, e)
    }

    func testZip6() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 6)
        let res = scheduler.start { Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5]) { $0 + $1 + $2 + $3 + $4 + $5 } }
        assertTimeline(res, e)
    }

    func testZip6_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 6)
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5]).map { $0.0 + $0.1 + $0.2 + $0.3 + $0.4 + $0.5 }
        }
        assertTimeline(res, e)
    }

    func testZip7() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 7)
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5], e[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
        }
        assertTimeline(res, e)
    }

    func testZip7_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 7)
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5], e[6]).map { values -> Int in
                let (a, b, c, d, f, g, h) = values
                return a + b + c + d + f + g + h
            }
        }
        assertTimeline(res, e)
    }

    func testZip8() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 8)
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]) { a, b, c, d, f, g, h, i -> Int in
                a + b + c + d + f + g + h + i
            }
        }
        assertTimeline(res, e)
    }

    func testZip8_Tuple() {
        let scheduler = TestScheduler(initialClock: 0)
        let e = makeSources(scheduler, 8)
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]).map { values -> Int in
                let (a, b, c, d, f, g, h, i) = values
                return a + b + c + d + f + g + h + i
            }
        }
        assertTimeline(res, e)
    }

    func testZip8_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        var e = makeSources(scheduler, 7)
        e.append(scheduler.createHotObservable([.next(150, -1), .error(250, testError)]))
        let res = scheduler.start {
            Observable.zip(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]) { a, b, c, d, f, g, h, i -> Int in
                a + b + c + d + f + g + h + i
            }
        }
        XCTAssertEqual(res.events, [.error(250, testError)])
        for source in e {
            XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
        }
    }
}
