import Dispatch
import RxCore
import RxUV
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
}
