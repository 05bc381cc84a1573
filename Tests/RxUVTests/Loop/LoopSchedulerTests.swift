import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// RxCore's time operators on a real loop: the `SchedulerType` contract.
final class LoopSchedulerTests: BridgeTestCase {
    func testScheduler_ScheduleRunsOnTheLoopThreadInOrder() {
        let order = Shared<[Int]>([])
        for index in 0..<5 {
            _ = loop.schedule(index) { value in
                order.mutate { $0.append(value) }
                return Disposables.create()
            }
        }
        let cancelled = loop.schedule(99) { value in
            order.mutate { $0.append(value) }
            return Disposables.create()
        }
        cancelled.dispose()
        runLoop()
        XCTAssertEqual(order.value, [0, 1, 2, 3, 4])
    }

    func testScheduler_RelativeAndCancelled() {
        let fired = Shared<[String]>([])
        _ = loop.scheduleRelative("late", dueTime: .milliseconds(20)) { value in
            fired.mutate { $0.append(value) }
            return Disposables.create()
        }
        _ = loop.scheduleRelative("early", dueTime: .milliseconds(1)) { value in
            fired.mutate { $0.append(value) }
            return Disposables.create()
        }
        let cancelled = loop.scheduleRelative("cancelled", dueTime: .milliseconds(5)) { value in
            fired.mutate { $0.append(value) }
            return Disposables.create()
        }
        cancelled.dispose()
        cancelled.dispose()
        runLoop()
        XCTAssertEqual(fired.value, ["early", "late"])
    }

    func testScheduler_NowAdvances() {
        let start = loop.now
        let later = Shared<RxTime?>(nil)
        _ = loop.scheduleRelative((), dueTime: .milliseconds(20)) { [loop] _ in
            later.value = loop?.now
            return Disposables.create()
        }
        runLoop()
        XCTAssertGreaterThanOrEqual(later.value!.timeIntervalSince(start), .milliseconds(19))
    }

    /// `scheduleRelative` and `schedulePeriodic` taking `Duration`s (RxUV's
    /// time rule) schedule as the `RxTimeInterval` requirements do: for each
    /// row, the action runs on the loop thread no earlier (on the loop's
    /// clock) than the due time rounded up to whole milliseconds, and a
    /// periodic one runs again every period until disposed.
    func testScheduler_DurationOverloads_ScheduleAsTheRequirements() {
        struct Row {
            let name: String
            let runs: Int
            let dueMilliseconds: Int64
            let schedule: (Loop, @escaping @Sendable () -> Void) -> Disposable
        }
        let rows = [
            Row(name: "relative, Duration", runs: 1, dueMilliseconds: 4) { loop, action in
                loop.scheduleRelative((), dueTime: Duration.milliseconds(3.5)) { _ in
                    action()
                    return Disposables.create()
                }
            },
            Row(name: "relative, RxTimeInterval", runs: 1, dueMilliseconds: 4) { loop, action in
                loop.scheduleRelative((), dueTime: RxTimeInterval.microseconds(3500)) { _ in
                    action()
                    return Disposables.create()
                }
            },
            Row(name: "periodic, Duration", runs: 3, dueMilliseconds: 2) { loop, action in
                loop.schedulePeriodic(0, startAfter: Duration.milliseconds(2), period: Duration.milliseconds(1)) { count in
                    action()
                    return count + 1
                }
            },
            Row(name: "periodic, RxTimeInterval", runs: 3, dueMilliseconds: 2) { loop, action in
                loop.schedulePeriodic(0, startAfter: RxTimeInterval.milliseconds(2), period: RxTimeInterval.milliseconds(1)) { count in
                    action()
                    return count + 1
                }
            },
        ]
        for row in rows {
            let loop = self.loop!
            let start = loop.now
            let runs = Shared<[Int64]>([])
            let scheduled = Shared<Disposable?>(nil)
            let runCount = row.runs
            scheduled.value = row.schedule(loop) {
                XCTAssertTrue(loop.isOnLoopThread)
                runs.mutate { $0.append(loop.now.timeIntervalSince(start).nanoseconds / 1_000_000) }
                if runs.value.count == runCount { scheduled.value?.dispose() }
            }
            runLoop()
            XCTAssertEqual(runs.value.count, row.runs, row.name)
            XCTAssertGreaterThanOrEqual(runs.value.first ?? -1, row.dueMilliseconds, row.name)
            scheduled.value?.dispose()
            // The action holds `scheduled`, which holds the action.
            scheduled.value = nil
        }
    }

    func testInterval_OnTheLoop() {
        var values: [Int] = []
        _ = Observable<Int>.interval(.milliseconds(2), scheduler: loop)
            .take(5)
            .subscribe(onNext: { values.append($0) })
        runLoop()
        XCTAssertEqual(values, [0, 1, 2, 3, 4])
    }

    func testDebounce_OnTheLoop() {
        let subject = PublishSubject<Int>()
        var values: [Int] = []
        var completed = false
        _ = subject.debounce(.milliseconds(30), scheduler: loop).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        // A burst of 1, 2, 3 within a few ms, then 4 after a pause, then completion.
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        _ = loop.scheduleRelative((), dueTime: .milliseconds(100)) { _ in
            subject.onNext(4)
            return Disposables.create()
        }
        _ = loop.scheduleRelative((), dueTime: .milliseconds(200)) { _ in
            subject.onCompleted()
            return Disposables.create()
        }
        runLoop()
        XCTAssertEqual(values, [3, 4])
        XCTAssertTrue(completed)
    }

    func testTimeout_OnTheLoop() {
        var failure: Error?
        _ = Observable<Int>.never()
            .timeout(.milliseconds(10), scheduler: loop)
            .subscribe(onError: { failure = $0 })
        runLoop()
        XCTAssertEqual(failure as? RxError, RxError.timeout)
    }

    func testDelay_OnTheLoopKeepsOrderAndSpacing() {
        var values: [Int] = []
        var times: [RxTime] = []
        let start = loop.now
        _ = Observable.of(1, 2, 3)
            .delay(.milliseconds(20), scheduler: loop)
            .subscribe(onNext: { [loop] value in
                values.append(value)
                times.append(loop!.now)
            })
        runLoop()
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertTrue(times.allSatisfy { $0.timeIntervalSince(start) >= .milliseconds(19) })
    }

    func testObserveOn_HopsFromAnotherThreadToTheLoop() {
        let loop = self.loop!
        let values = Box<[Int]>([])
        let onLoop = Box(true)
        var keepAlive: Disposable?
        keepAlive = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { _ in
            if values.value.count == 100 { keepAlive?.dispose() }
        })
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: loop).subscribe(onNext: { value in
            if !loop.isOnLoopThread { onLoop.value = false }
            values.value.append(value)
        })
        DispatchQueue.global().async {
            for value in 0..<100 { subject.onNext(value) }
        }
        runLoop(timeout: 30)
        subscription.dispose()
        XCTAssertEqual(values.value, Array(0..<100))
        XCTAssertTrue(onLoop.value)
    }
}
