import Foundation
import RxCoreTestSupport
import RxFoundation
import RxTest
import Synchronization
import XCTest

/// RxSwift 6.10 code that needs Foundation's types or RxSwift's newer API,
/// written as RxSwift's suite writes it: `import RxSwift` became
/// `import RxFoundation`, nothing else changed.
final class RxSwift610CompatibilityTests: RxCoreTestCase {
    // MARK: HistoricalScheduler and Date

    func testHistoricalScheduler_IntervalOnADateClock() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var ticks: [Date] = []
        let subscription = Observable<Int>.interval(.seconds(1), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { _ in ticks.append(scheduler.now) })
        scheduler.start()
        XCTAssertEqual(ticks, [start + 1, start + 2, start + 3])
        XCTAssertEqual(scheduler.now, start + 3)
        subscription.dispose()
    }

    func testHistoricalScheduler_AdvanceToADate() {
        let scheduler = HistoricalScheduler()
        var fired: [TimeInterval] = []
        _ = Observable<Int>.timer(.seconds(5), scheduler: scheduler)
            .subscribe(onNext: { _ in fired.append(scheduler.now.timeIntervalSince1970) })
        scheduler.advanceTo(Date(timeIntervalSince1970: 4))
        XCTAssertEqual(fired, [])
        scheduler.advanceTo(Date(timeIntervalSince1970: 5))
        XCTAssertEqual(fired, [5])
    }

    // MARK: asCompletable

    func testAsCompletable_OnlyForNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.ignoreElements().asCompletable() }
        XCTAssertEqual(res.events, [.completed(250)])

        let never: Observable<Never> = .empty()
        let emptyScheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(emptyScheduler.start { never.asCompletable() }.events, [.completed(200)])
    }

    // MARK: decode

    private struct Item: Codable, Equatable {
        let id: Int
    }

    func testDecode_JSONDecoder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"id":1}"#.utf8)),
            .next(220, Data(#"{"id":2}"#.utf8)),
            .next(230, Data("not json".utf8)),
            .next(240, Data(#"{"id":4}"#.utf8)),
        ])
        let res = scheduler.start { xs.decode(type: Item.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.map(\.time), [210, 220, 230])
        XCTAssertEqual(res.events.compactMap(\.value.element), [Item(id: 1), Item(id: 2)])
        XCTAssertTrue(res.events.last?.value.error is DecodingError)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDecode_PropertyListDecoder() throws {
        let data = try PropertyListEncoder().encode(Item(id: 7))
        var items: [Item] = []
        _ = Observable.just(data).decode(type: Item.self, decoder: PropertyListDecoder()).subscribe(onNext: { items.append($0) })
        XCTAssertEqual(items, [Item(id: 7)])
    }

    // MARK: Hooks

    func testHooks_DefaultErrorHandlerWithCallStack() {
        let previousHandler = Hooks.defaultErrorHandler
        let previousCapture = Hooks.customCaptureSubscriptionCallstack
        defer {
            Hooks.defaultErrorHandler = previousHandler
            Hooks.customCaptureSubscriptionCallstack = previousCapture
            Hooks.recordCallStackOnError = false
        }
        let reports = ReportLog()
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["testHooks_DefaultErrorHandlerWithCallStack"] }
        Hooks.defaultErrorHandler = { subscriptionCallStack, error in
            reports.append("\(subscriptionCallStack.joined()): \(error)")
        }
        _ = Observable<Int>.error(RxError.unknown).subscribe(onNext: { _ in })
        XCTAssertEqual(reports.all, ["testHooks_DefaultErrorHandlerWithCallStack: Unknown error occurred."])
    }

    // MARK: Binder and rx key paths

    private final class Label: ReactiveCompatible {
        var text: String?
        var history: [String?] = []
        var isHidden = false {
            didSet { history.append("hidden \(isHidden)") }
        }
    }

    func testBinder_KeyPathOnTheMainThread() {
        let scheduler = TestScheduler(initialClock: 0)
        let label = Label()
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        var texts: [Recorded<String?>] = []
        let subscription = xs.map { Optional($0) }.bind(to: label.rx.text)
        let probe = xs.subscribe(onNext: { _ in texts.append(Recorded(time: scheduler.clock, value: label.text)) })
        scheduler.start()
        // MainScheduler runs the binding at once on the main thread: the
        // label has each value when the element is emitted.
        XCTAssertEqual(texts, [Recorded(time: 210, value: "a"), Recorded(time: 220, value: "b")])
        XCTAssertEqual(label.text, "b")
        subscription.dispose()
        probe.dispose()
    }

    func testBinder_OnAScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let label = Label()
        let xs = scheduler.createHotObservable([.next(210, true), .next(220, false), .completed(230)])
        var timeline: [Recorded<Bool>] = []
        let binder = Binder(label, scheduler: scheduler) { label, hidden in
            label.isHidden = hidden
            timeline.append(Recorded(time: scheduler.clock, value: hidden))
        }
        let res = scheduler.start { xs.asObservable().do(onNext: { binder.onNext($0) }) }
        // TestScheduler runs scheduled work one tick later.
        XCTAssertEqual(timeline, [Recorded(time: 211, value: true), Recorded(time: 221, value: false)])
        XCTAssertEqual(label.history, ["hidden true", "hidden false"])
        XCTAssertEqual(res.events.count, 3)
    }

    func testBinder_TargetIsWeakAndErrorsGoToTheHook() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        let reports = ReportLog()
        Hooks.defaultErrorHandler = { _, error in reports.append("\(error)") }

        var label: Label? = Label()
        let binder = label!.rx.text
        binder.onNext("before")
        XCTAssertEqual(label?.text, "before")
        weak let weakLabel = label
        label = nil
        XCTAssertNil(weakLabel)
        binder.onNext("after") // dropped: the label is gone
        binder.on(.error(RxError.unknown))
        binder.onCompleted()
        XCTAssertEqual(reports.all, ["Unknown error occurred."])
    }

    // MARK: MainScheduler

    func testMainScheduler_ObserveOnFromTheMainThreadIsImmediate() {
        var log: [String] = []
        let subscription = Observable.of(1, 2)
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { value in
                MainScheduler.ensureExecutingOnScheduler()
                log.append("\(value)")
            })
        log.append("subscribed")
        XCTAssertEqual(log, ["1", "2", "subscribed"])
        subscription.dispose()
    }

    func testMainScheduler_ObserveOnFromAnotherThreadArrivesOnTheMainThread() {
        let arrived = expectation(description: "elements on the main thread")
        let onMain = ReportLog()
        let subscription = Observable.of(1, 2, 3)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .subscribe(
                onNext: { value in onMain.append("\(value) main: \(Thread.isMainThread)") },
                onCompleted: { arrived.fulfill() }
            )
        // XCTest's wait runs the main run loop, which services the main queue.
        wait(for: [arrived], timeout: 5)
        XCTAssertEqual(onMain.all, ["1 main: true", "2 main: true", "3 main: true"])
        subscription.dispose()
    }

    func testMainScheduler_AsyncInstanceAlwaysQueues() {
        let ran = expectation(description: "ran on the main queue")
        let log = ReportLog()
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            log.append("action")
            ran.fulfill()
            return Disposables.create()
        }
        log.append("scheduled")
        wait(for: [ran], timeout: 5)
        XCTAssertEqual(log.all, ["scheduled", "action"])
    }

    func testMainScheduler_DelayedWork() {
        let fired = expectation(description: "timer on the main queue")
        let log = ReportLog()
        let subscription = Observable.just(1)
            .delay(.milliseconds(10), scheduler: MainScheduler.instance)
            .subscribe(
                onNext: { value in log.append("\(value) main: \(Thread.isMainThread)") },
                onCompleted: { fired.fulfill() }
            )
        wait(for: [fired], timeout: 5)
        XCTAssertEqual(log.all, ["1 main: true"])
        subscription.dispose()
    }

    // MARK: AsyncSequence.asObservable(priority:)

    func testAsyncSequence_AsObservableWithPriority() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try await stream.asObservable(priority: .high).toArray().value
        XCTAssertEqual(values, [1, 2, 3])
    }
}

/// Lines recorded from whichever thread reports them.
private final class ReportLog: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var all: [String] {
        lines.withLock { $0 }
    }
}
