import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class LoopTimerTests: BridgeTestCase {
    func testTimer_FiresOnceAndCompletes() {
        var events: [String] = []
        let subscription = loop.rx.timer(after: .milliseconds(5)).subscribe(
            onNext: { events.append("next \($0)") },
            onCompleted: { events.append("completed") },
            onDisposed: { events.append("disposed") }
        )
        XCTAssertEqual(loop.openHandleCount, 1)
        runLoop()
        XCTAssertEqual(events, ["next 0", "completed", "disposed"])
        subscription.dispose()
    }

    func testTimer_RepeatsUntilDisposedInsideItsOwnEvent() {
        var values: [Int] = []
        var subscription: Disposable?
        subscription = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(2)).subscribe(onNext: { value in
            values.append(value)
            if value == 4 { subscription?.dispose() }
        })
        runLoop()
        XCTAssertEqual(values, [0, 1, 2, 3, 4])
    }

    func testTimer_DisposeBeforeFire() {
        var fired = false
        let subscription = loop.rx.timer(after: .milliseconds(20)).subscribe(onNext: { _ in fired = true })
        subscription.dispose()
        subscription.dispose()
        runLoop()
        XCTAssertFalse(fired)
    }

    func testTimer_TenThousandTimers() {
        var fired = 0
        var completed = 0
        let subscriptions = (0..<10_000).map { index in
            loop.rx.timer(after: .milliseconds(index % 50)).subscribe(
                onNext: { _ in fired += 1 },
                onCompleted: { completed += 1 }
            )
        }
        XCTAssertEqual(loop.openHandleCount, 10_000)
        runLoop(timeout: 60)
        XCTAssertEqual(fired, 10_000)
        XCTAssertEqual(completed, 10_000)
        subscriptions.forEach { $0.dispose() }
    }

    func testTimer_SubscribeAndDisposeFromAnotherThread() {
        let values = Box<[Int]>([])
        let subscription = Box<Disposable?>(nil)
        let loop = self.loop!
        let disposed = DispatchSemaphore(value: 0)
        // A repeating timer keeps the loop running while the other thread works.
        var keepAlive: Disposable?
        keepAlive = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { _ in
            guard values.value.count >= 3, keepAlive != nil else { return }
            let toDispose = subscription.value
            DispatchQueue.global().async {
                toDispose?.dispose()
                disposed.signal()
            }
            keepAlive?.dispose()
            keepAlive = nil
        })
        let subscribed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let inner = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { value in
                XCTAssertTrue(loop.isOnLoopThread)
                values.value.append(value)
            })
            loop.execute { subscription.value = inner }
            subscribed.signal()
        }
        subscribed.wait()
        runLoop()
        // The other thread's dispose is queued through execute: run it.
        disposed.wait()
        runLoop()
        XCTAssertGreaterThanOrEqual(values.value.count, 3)
        XCTAssertEqual(Array(values.value.prefix(3)), [0, 1, 2])
    }

    // MARK: The loop's timer queue: one uv_timer_t for every timer

    /// Timers expire in libuv's order: by due time, then in the order they
    /// were started, whatever order they were started in.
    func testTimers_ExpireByDueTimeThenStartOrder() {
        // (due in ms, name), started in this order.
        let table: [(Int, String)] = [
            (30, "a"), (10, "b"), (20, "c"), (10, "d"), (0, "e"), (30, "f"), (0, "g"), (20, "h"),
        ]
        var fired: [String] = []
        let subscriptions = table.map { due, name in
            loop.rx.timer(after: .milliseconds(due)).subscribe(onNext: { _ in fired.append(name) })
        }
        XCTAssertEqual(loop.openHandleCount, table.count)
        runLoop()
        XCTAssertEqual(fired, ["e", "g", "b", "d", "c", "h", "a", "f"])
        XCTAssertEqual(loop.openHandleCount, 0)
        subscriptions.forEach { $0.dispose() }
    }

    /// A seeded mix of starts and disposes (1,000 timers, a third disposed
    /// before they fire, some from inside another timer's callback): the
    /// timers that fire are exactly those not disposed, in (due, start) order.
    func testTimers_RandomStartsAndDisposes_FireInOrder() {
        var generator = SeededGenerator(seed: 0x5EED_7113)
        let count = 1_000
        let dues = (0..<count).map { _ in Int(generator.next() % 40) }
        var fired: [Int] = []
        var subscriptions: [Disposable] = []
        var disposed = Set<Int>()
        for index in 0..<count {
            subscriptions.append(loop.rx.timer(after: .milliseconds(dues[index])).subscribe(onNext: { _ in fired.append(index) }))
        }
        // A third disposed now, in random order.
        for index in (0..<count).shuffled(using: &generator).prefix(count / 3) {
            subscriptions[index].dispose()
            disposed.insert(index)
        }
        // The first timer to fire disposes ten others due later.
        let victims = (0..<count).filter { !disposed.contains($0) && dues[$0] > 5 }.prefix(10)
        victims.forEach { disposed.insert($0) }
        let killer = loop.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in
            victims.forEach { subscriptions[$0].dispose() }
        })
        runLoop()
        let expected = (0..<count).filter { !disposed.contains($0) }.sorted { (dues[$0], $0) < (dues[$1], $1) }
        XCTAssertEqual(fired.count, count - disposed.count)
        XCTAssertEqual(fired, expected)
        XCTAssertEqual(loop.openHandleCount, 0)
        killer.dispose()
        subscriptions.forEach { $0.dispose() }
    }

    /// A timer started with no delay from inside another timer's callback
    /// fires before a timer that was already due later; disposing a timer
    /// that is due in the same pass keeps it from firing.
    func testTimers_StartAndDisposeInsideACallback() {
        var fired: [String] = []
        var later: Disposable?
        var inner: Disposable?
        let first = loop.rx.timer(after: .milliseconds(5)).subscribe(onNext: { [loop] _ in
            fired.append("first")
            inner = loop!.rx.timer(after: .milliseconds(0)).subscribe(onNext: { _ in fired.append("inner") })
            later?.dispose()
        })
        let sameTime = loop.rx.timer(after: .milliseconds(5)).subscribe(onNext: { _ in fired.append("same time") })
        later = loop.rx.timer(after: .milliseconds(5)).subscribe(onNext: { _ in fired.append("disposed") })
        let last = loop.rx.timer(after: .milliseconds(30)).subscribe(onNext: { _ in fired.append("last") })
        runLoop()
        XCTAssertEqual(fired, ["first", "same time", "inner", "last"])
        [first, sameTime, later, inner, last].forEach { $0?.dispose() }
    }

    /// A timer due in `.never` does not hold back an earlier one, and
    /// disposing it leaves nothing running, so `run()` returns.
    func testTimers_NeverAndSoon() {
        var fired: [String] = []
        var never: Disposable?
        never = loop.rx.timer(after: .never).subscribe(onNext: { _ in fired.append("never") })
        let soon = loop.rx.timer(after: .milliseconds(2)).subscribe(onNext: { _ in
            fired.append("soon")
            never?.dispose()
        })
        runLoop()
        XCTAssertEqual(fired, ["soon"])
        XCTAssertEqual(loop.openHandleCount, 0)
        soon.dispose()
    }

    /// Repeating timers and one-shot timers on the same queue keep their
    /// periods: a 2 ms ticker ticks about five times while a 10 ms one-shot
    /// waits, and the one-shot's callback stops the ticker.
    func testTimers_RepeatingBesideOneShot() {
        var ticks = 0
        var ticker: Disposable?
        ticker = loop.rx.timer(after: .milliseconds(2), repeating: .milliseconds(2)).subscribe(onNext: { _ in ticks += 1 })
        let stop = loop.rx.timer(after: .milliseconds(10)).subscribe(onNext: { _ in ticker?.dispose() })
        runLoop()
        XCTAssertGreaterThanOrEqual(ticks, 1)
        XCTAssertLessThanOrEqual(ticks, 5)
        XCTAssertEqual(loop.openHandleCount, 0)
        stop.dispose()
    }

    /// `timer(after:repeating:)` taking `Duration`s is the timer taking
    /// `RxTimeInterval`s (RxUV's time rule): for each row, both overloads
    /// emit the same values and complete alike, the first value no earlier
    /// (on the loop's clock) than the due time rounded up to whole
    /// milliseconds; a literal both types spell picks the `RxTimeInterval`
    /// one, a `Duration` value the `Duration` one.
    func testTimer_DurationOverload_IsTheRxTimeIntervalTimer() {
        struct Row {
            let name: String
            let duration: (due: Duration, period: Duration?)
            let interval: (due: RxTimeInterval, period: RxTimeInterval?)
            /// How many values to take: more than a one-shot timer emits.
            let take: Int
            let values: [Int]
            let dueMilliseconds: Int64
        }
        let rows = [
            Row(name: "one shot", duration: (.milliseconds(3), nil), interval: (.milliseconds(3), nil), take: 5, values: [0], dueMilliseconds: 3),
            Row(
                name: "repeating", duration: (.milliseconds(1), .milliseconds(2)), interval: (.milliseconds(1), .milliseconds(2)), take: 4,
                values: [0, 1, 2, 3], dueMilliseconds: 1),
            Row(name: "rounded up", duration: (.microseconds(1500), nil), interval: (.microseconds(1500), nil), take: 5, values: [0], dueMilliseconds: 2),
            Row(
                name: "a fraction, a period under 1 ms", duration: (.milliseconds(2.5), .microseconds(10)),
                interval: (.microseconds(2500), .microseconds(10)), take: 3, values: [0, 1, 2], dueMilliseconds: 3),
            Row(name: "zero", duration: (.zero, nil), interval: (.seconds(0), nil), take: 5, values: [0], dueMilliseconds: 0),
        ]
        for row in rows {
            func record(_ timer: Observable<Int>) -> (values: [Int], completed: Bool, firstAfter: Int64) {
                var values: [Int] = []
                var completed = false
                var firstAfter: Int64 = -1
                let start = loop.now
                _ = timer.take(row.take).subscribe(
                    onNext: { [loop] value in
                        if values.isEmpty { firstAfter = loop!.now.timeIntervalSince(start).nanoseconds / 1_000_000 }
                        values.append(value)
                    },
                    onCompleted: { completed = true })
                runLoop()
                return (values, completed, firstAfter)
            }
            let fromDuration = record(loop.rx.timer(after: row.duration.due, repeating: row.duration.period))
            let fromInterval = record(loop.rx.timer(after: row.interval.due, repeating: row.interval.period))
            XCTAssertEqual(fromDuration.values, row.values, row.name)
            XCTAssertEqual(fromInterval.values, row.values, row.name)
            XCTAssertTrue(fromDuration.completed && fromInterval.completed, row.name)
            XCTAssertGreaterThanOrEqual(fromDuration.firstAfter, row.dueMilliseconds, row.name)
            XCTAssertGreaterThanOrEqual(fromInterval.firstAfter, row.dueMilliseconds, row.name)
        }
    }
}
