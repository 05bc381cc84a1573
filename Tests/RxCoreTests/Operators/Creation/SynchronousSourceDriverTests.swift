import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

/// Forwards to `CurrentThreadScheduler.instance` without being it, so the
/// synchronous sources take their general `scheduleRecursive` path: the order
/// RxSwift produces, against which the loop on `CurrentThreadScheduler` is checked.
struct RecursiveTrampolineScheduler: ImmediateSchedulerType {
    func schedule<StateType>(_ state: StateType, action: @escaping @Sendable (StateType) -> Disposable) -> Disposable {
        CurrentThreadScheduler.instance.schedule(state, action: action)
    }
}

final class SynchronousSourceDriverTests: RxCoreTestCase {
    /// Subscribes two `of` sources from inside trampoline work and logs what they emit.
    private func twoSourcesInsideTrampoline(_ scheduler: ImmediateSchedulerType) -> [String] {
        nonisolated(unsafe) var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.of(1, 2, scheduler: scheduler).subscribe(
                onNext: { log.append("a\($0)") },
                onCompleted: { log.append("a|") }
            )
            _ = Observable.of(3, 4, scheduler: scheduler).subscribe(
                onNext: { log.append("b\($0)") },
                onCompleted: { log.append("b|") }
            )
            log.append("action end")
            return Disposables.create()
        }
        return log
    }

    func testDriver_TwoSourcesInsideTrampolineInterleave() {
        let expected = ["action end", "a1", "b3", "a2", "b4", "a|", "b|"]
        XCTAssertEqual(twoSourcesInsideTrampoline(RecursiveTrampolineScheduler()), expected)
        XCTAssertEqual(twoSourcesInsideTrampoline(CurrentThreadScheduler.instance), expected)
    }

    /// Work scheduled on the trampoline from inside `onNext` runs before the next element.
    private func workScheduledFromOnNext(_ scheduler: ImmediateSchedulerType) -> [String] {
        nonisolated(unsafe) var log: [String] = []
        _ = Observable.of(1, 2, 3, scheduler: scheduler).subscribe(
            onNext: { value in
                log.append("\(value)")
                if value == 1 {
                    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                        log.append("x")
                        return Disposables.create()
                    }
                }
            },
            onCompleted: { log.append("|") }
        )
        return log
    }

    func testDriver_WorkScheduledFromOnNextRunsBeforeNextElement() {
        let expected = ["1", "x", "2", "3", "|"]
        XCTAssertEqual(workScheduledFromOnNext(RecursiveTrampolineScheduler()), expected)
        XCTAssertEqual(workScheduledFromOnNext(CurrentThreadScheduler.instance), expected)
    }

    /// A source subscribed from inside another source's `onNext` interleaves with it.
    private func nestedSubscription(_ scheduler: ImmediateSchedulerType) -> [String] {
        var log: [String] = []
        let bag = DisposeBag()
        Observable.of(1, 2, scheduler: scheduler).subscribe(
            onNext: { outer in
                log.append("o\(outer)")
                Observable.of(10, 20, scheduler: scheduler).subscribe(
                    onNext: { log.append("i\(outer).\($0)") },
                    onCompleted: { log.append("i\(outer)|") }
                ).disposed(by: bag)
            },
            onCompleted: {
                log.append("o|")
            }
        ).disposed(by: bag)
        return log
    }

    func testDriver_NestedSubscriptionOrderMatchesRecursiveScheduling() {
        let expected = nestedSubscription(RecursiveTrampolineScheduler())
        XCTAssertEqual(expected, ["o1", "i1.10", "o2", "i1.20", "i2.10", "o|", "i1|", "i2.20", "i2|"])
        XCTAssertEqual(nestedSubscription(CurrentThreadScheduler.instance), expected)
    }

    /// Disposing from inside `onNext` stops the source in both paths.
    private func disposeFromOnNext(_ scheduler: ImmediateSchedulerType) -> [Int] {
        nonisolated(unsafe) var received: [Int] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            var subscription: Disposable?
            subscription = Observable.range(start: 0, count: 10, scheduler: scheduler).subscribe(onNext: { value in
                received.append(value)
                if value == 2 {
                    subscription?.dispose()
                }
            })
            return Disposables.create()
        }
        return received
    }

    func testDriver_DisposeFromInsideOnNextStops() {
        XCTAssertEqual(disposeFromOnNext(RecursiveTrampolineScheduler()), [0, 1, 2])
        XCTAssertEqual(disposeFromOnNext(CurrentThreadScheduler.instance), [0, 1, 2])
    }

    func testDriver_DisposeBeforeFirstStepEmitsNothing() {
        for scheduler: ImmediateSchedulerType in [RecursiveTrampolineScheduler(), CurrentThreadScheduler.instance] {
            nonisolated(unsafe) var received: [Int] = []
            nonisolated(unsafe) var completed = false
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                let subscription = Observable.of(1, 2, scheduler: scheduler).subscribe(
                    onNext: { received.append($0) },
                    onCompleted: { completed = true }
                )
                subscription.dispose()
                return Disposables.create()
            }
            XCTAssertEqual(received, [])
            XCTAssertFalse(completed)
        }
    }

    func testDriver_InterleavedLongSourcesDoNotOverflowTheStack() {
        for scheduler: ImmediateSchedulerType in [RecursiveTrampolineScheduler(), CurrentThreadScheduler.instance] {
            nonisolated(unsafe) var first = 0
            nonisolated(unsafe) var second = 0
            nonisolated(unsafe) var order: [Int] = []
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                _ = Observable.range(start: 0, count: 100_000, scheduler: scheduler).subscribe(onNext: { value in
                    first += 1
                    if value < 2 { order.append(value) }
                })
                _ = Observable.range(start: 0, count: 100_000, scheduler: scheduler).subscribe(onNext: { value in
                    second += 1
                    if value < 2 { order.append(100 + value) }
                })
                return Disposables.create()
            }
            XCTAssertEqual(first, 100_000)
            XCTAssertEqual(second, 100_000)
            XCTAssertEqual(order, [0, 100, 1, 101])
        }
    }
}
