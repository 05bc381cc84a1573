import RxCore
import RxCoreTestSupport
import RxTest
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits `<seconds>.<milliseconds>: <rest>` and checks the timestamp's shape.
private func withoutTimestamp(_ line: String, file: StaticString = #filePath, line lineNumber: UInt = #line) -> String {
    guard let separator = line.range(of: ": ") else {
        XCTFail("no timestamp in \(line)", file: file, line: lineNumber)
        return line
    }
    let stamp = line[..<separator.lowerBound]
    let parts = stamp.split(separator: ".", omittingEmptySubsequences: false)
    let wellFormed =
        parts.count == 2
        && !parts[0].isEmpty && parts[0].allSatisfy(\.isNumber)
        && parts[1].count == 3 && parts[1].allSatisfy(\.isNumber)
    XCTAssertTrue(wellFormed, "bad timestamp \(stamp)", file: file, line: lineNumber)
    return String(line[separator.upperBound...])
}

final class DebugTests: RxCoreTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>> = .completed(250)) -> TestableObservable<Int> {
        scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            end,
        ])
    }

    func testDebug_Values() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var res: TestableObserver<Int>?
        let lines = captureOutput(of: STDOUT_FILENO) {
            res = scheduler.start { xs.debug("x") }
        }
        XCTAssertEqual(res?.events ?? [], [.next(210, 2), .next(220, 3), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "x -> subscribed",
                "x -> Event next(2)",
                "x -> Event next(3)",
                "x -> Event completed",
                "x -> isDisposed",
            ])
    }

    func testDebug_Error() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(250, testError))
        var res: TestableObserver<Int>?
        let lines = captureOutput(of: STDOUT_FILENO) {
            res = scheduler.start { xs.debug("x") }
        }
        XCTAssertEqual(res?.events ?? [], [.next(210, 2), .next(220, 3), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "x -> subscribed",
                "x -> Event next(2)",
                "x -> Event next(3)",
                "x -> Event error(dummy)",
                "x -> isDisposed",
            ])
    }

    func testDebug_Never() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        var res: TestableObserver<Int>?
        let lines = captureOutput(of: STDOUT_FILENO) {
            res = scheduler.start { xs.debug("x") }
        }
        XCTAssertEqual(res?.events ?? [], [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(lines.map { withoutTimestamp($0) }, ["x -> subscribed", "x -> isDisposed"])
    }

    func testDebug_Dispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var res: TestableObserver<Int>?
        let lines = captureOutput(of: STDOUT_FILENO) {
            res = scheduler.start(disposed: 215) { xs.debug("x") }
        }
        XCTAssertEqual(res?.events ?? [], [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "x -> subscribed",
                "x -> Event next(2)",
                "x -> isDisposed",
            ])
    }

    func testDebug_DefaultIdentifier() {
        var line: UInt = 0
        let lines = captureOutput(of: STDOUT_FILENO) {
            line = #line + 1
            _ = Observable.just(1).debug().subscribe()
        }
        let identifier = "DebugTests.swift:\(line) (testDebug_DefaultIdentifier())"
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "\(identifier) -> subscribed",
                "\(identifier) -> Event next(1)",
                "\(identifier) -> Event completed",
                "\(identifier) -> isDisposed",
            ])
    }

    func testDebug_TrimOutput() {
        let long = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
        let lines = captureOutput(of: STDOUT_FILENO) {
            _ = Observable.just(long).debug("t", trimOutput: true).subscribe()
            _ = Observable.just(long).debug("f").subscribe()
        }
        // "next(aaa...bbb)" is 66 characters: the first and last 20 are kept.
        let trimmed = "next(" + String(repeating: "a", count: 15) + "..." + String(repeating: "b", count: 19) + ")"
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "t -> subscribed",
                "t -> Event \(trimmed)",
                "t -> Event completed",
                "t -> isDisposed",
                "f -> subscribed",
                "f -> Event next(\(long))",
                "f -> Event completed",
                "f -> isDisposed",
            ])
    }

    func testDebug_DisposeFromInsideOnNext() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let lines = captureOutput(of: STDOUT_FILENO) {
            var subscription: Disposable?
            subscription = subject.debug("x").subscribe(onNext: { value in
                received.append(value)
                subscription?.dispose()
                subscription?.dispose()
            })
            subject.onNext(1)
            subject.onNext(2)
        }
        XCTAssertEqual(received, [1])
        XCTAssertFalse(subject.hasObservers)
        XCTAssertEqual(
            lines.map { withoutTimestamp($0) },
            [
                "x -> subscribed",
                "x -> Event next(1)",
                "x -> isDisposed",
            ])
    }
}
