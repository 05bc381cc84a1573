import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// Subscribes a recording observer to every window as it arrives.
private final class WindowCollector {
    private let scheduler: TestScheduler
    private let subscriptions = CompositeDisposable()
    private(set) var windows: [TestableObserver<Int>] = []

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Subscribes to `window` and returns its index.
    func collect(_ window: Observable<Int>) -> Int {
        let observer = scheduler.createObserver(Int.self)
        windows.append(observer)
        _ = subscriptions.insert(window.subscribe(observer))
        return windows.count - 1
    }

    func disposeAll() {
        subscriptions.dispose()
    }
}

final class WindowTests: RxCoreTestCase {
    private func basicSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(600)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 0),
            .next(205, 1),
            .next(210, 2),
            .next(240, 3),
            .next(280, 4),
            .next(320, 5),
            .next(350, 6),
            .next(370, 7),
            .next(420, 8),
            .next(470, 9),
            end,
        ])
    }

    func testWindow_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let collector = WindowCollector(scheduler)
        scheduler.scheduleAt(1000) { collector.disposeAll() }
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(300), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .next(500, 1),
                .next(800, 2),
            ])
        XCTAssertEqual(
            collector.windows.map(\.events),
            [
                [.completed(500)],
                [.completed(800)],
                [],
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testWindow_Empty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0),
            .completed(250),
        ])
        let collector = WindowCollector(scheduler)
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(300), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .completed(250),
            ])
        XCTAssertEqual(collector.windows.map(\.events), [[.completed(250)]])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testWindow_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler)
        let collector = WindowCollector(scheduler)
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .next(240, 1),
                .next(310, 2),
                .next(370, 3),
                .next(440, 4),
                .next(510, 5),
                .next(580, 6),
                .completed(600),
            ])
        XCTAssertEqual(
            collector.windows.map(\.events),
            [
                [.next(205, 1), .next(210, 2), .next(240, 3), .completed(240)],
                [.next(280, 4), .completed(310)],
                [.next(320, 5), .next(350, 6), .next(370, 7), .completed(370)],
                [.next(420, 8), .completed(440)],
                [.next(470, 9), .completed(510)],
                [.completed(580)],
                [.completed(600)],
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testWindow_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler, end: .error(600, testError))
        let collector = WindowCollector(scheduler)
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .next(240, 1),
                .next(310, 2),
                .next(370, 3),
                .next(440, 4),
                .next(510, 5),
                .next(580, 6),
                .error(600, testError),
            ])
        XCTAssertEqual(collector.windows.last?.events, [.error(600, testError)])
        XCTAssertEqual(collector.windows[4].events, [.next(470, 9), .completed(510)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    func testWindow_DisposeOuterKeepsTheSourceForOpenWindows() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler)
        let collector = WindowCollector(scheduler)
        scheduler.scheduleAt(1000) { collector.disposeAll() }
        let res = scheduler.start(disposed: 370) {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .next(240, 1),
                .next(310, 2),
                .next(370, 3),
            ])
        // Window 3 was subscribed before the outer dispose: it still receives
        // its elements, and the source lives until it completes.
        XCTAssertEqual(
            collector.windows.map(\.events),
            [
                [.next(205, 1), .next(210, 2), .next(240, 3), .completed(240)],
                [.next(280, 4), .completed(310)],
                [.next(320, 5), .next(350, 6), .next(370, 7), .completed(370)],
                [.next(420, 8), .completed(440)],
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 440)])
    }

    func testWindow_DisposeEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = basicSource(scheduler)
        let collector = WindowCollector(scheduler)
        scheduler.scheduleAt(330) { collector.disposeAll() }
        let res = scheduler.start(disposed: 330) {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).map { collector.collect($0) }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .next(240, 1),
                .next(310, 2),
            ])
        XCTAssertEqual(
            collector.windows.map(\.events),
            [
                [.next(205, 1), .next(210, 2), .next(240, 3), .completed(240)],
                [.next(280, 4), .completed(310)],
                [.next(320, 5)],
            ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 330)])
    }

    func testWindow_LateWindowSubscriberMissesEarlierElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(230, 2),
            .completed(300),
        ])
        let late = scheduler.createObserver(Int.self)
        var lateSubscription: Disposable?
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(200), count: 10, scheduler: scheduler).map { window -> Int in
                scheduler.scheduleAt(220) { lateSubscription = window.subscribe(late) }
                return 0
            }
        }
        XCTAssertEqual(
            res.events,
            [
                .next(200, 0),
                .completed(300),
            ])
        XCTAssertEqual(late.events, [.next(230, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        lateSubscription?.dispose()
    }

    func testWindow_DisposeFromInsideOnNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var windows = 0
        var subscription: Disposable?
        subscription = subject.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(onNext: { _ in
            windows += 1
            if windows == 2 {
                subscription?.dispose()
            }
        })
        scheduler.scheduleAt(10) {
            for value in 1...6 {
                subject.onNext(value)
            }
        }
        scheduler.start()
        XCTAssertEqual(windows, 2)
        XCTAssertFalse(subject.hasObservers)
    }

    func testWindow_ReentrantElementGoesToTheNewWindow() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = PublishSubject<Int>()
        var contents: [[Int]] = []
        let bag = CompositeDisposable()
        let subscription = subject.window(timeSpan: .seconds(100), count: 2, scheduler: scheduler).subscribe(onNext: { window in
            let index = contents.count
            contents.append([])
            _ = bag.insert(
                window.subscribe(onNext: { value in
                    contents[index].append(value)
                    if value == 2 {
                        // Sent while window 0 is being completed: it belongs to window 1.
                        subject.onNext(3)
                    }
                }))
        })
        scheduler.scheduleAt(10) {
            subject.onNext(1)
            subject.onNext(2)
        }
        scheduler.scheduleAt(150) {
            subscription.dispose()
            bag.dispose()
        }
        scheduler.start()
        XCTAssertEqual(contents, [[1, 2], [3], []])
    }
}
