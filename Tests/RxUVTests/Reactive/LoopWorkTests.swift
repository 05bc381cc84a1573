import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `loop.rx.work`: closures on libuv's thread pool, results on the loop thread.
final class LoopWorkTests: BridgeTestCase {
    private struct Failure: Error, Equatable {}

    func testResultAndError_ArriveOnTheLoopThread_WorkRunsOffIt() {
        let ranOnLoopThread = Shared<Bool?>(nil)
        let loop = self.loop!
        var value: Int?
        var failure: Error?
        var deliveredOnLoopThread: [Bool] = []
        _ = loop.rx.work { () -> Int in
            ranOnLoopThread.value = loop.isOnLoopThread
            return 6 * 7
        }.subscribe(onSuccess: {
            value = $0
            deliveredOnLoopThread.append(loop.isOnLoopThread)
        })
        _ = loop.rx.work { () throws -> Int in throw Failure() }.subscribe(onFailure: {
            failure = $0
            deliveredOnLoopThread.append(loop.isOnLoopThread)
        })
        runLoop()
        XCTAssertEqual(value, 42)
        XCTAssertEqual(failure as? Failure, Failure())
        XCTAssertEqual(ranOnLoopThread.value, false)
        XCTAssertEqual(deliveredOnLoopThread, [true, true])
    }

    /// 1,000 items, every other one disposed at once: those deliver nothing
    /// (cancelled, or run with the result dropped), the others all deliver.
    func testThousandItems_HalfDisposedEarly_DeliverNothingAndLeakNothing() {
        var delivered: [Int] = []
        for index in 0..<1000 {
            let subscription = loop.rx.work { index }.subscribe(onSuccess: { delivered.append($0) })
            if index % 2 == 1 {
                subscription.dispose()
            }
        }
        runLoop(timeout: 30)
        XCTAssertEqual(delivered.sorted(), Array(stride(from: 0, to: 1000, by: 2)))
    }

    /// With the pool's other threads held by long work, a name lookup still
    /// gets the last one and answers before the long work ends.
    func testLookups_StillAnswer_WhileLongWorkHoldsTheOtherThreads() {
        // The default pool has 4 threads; 3 are held here.
        let release = Mutex(false)
        let started = Counter()
        var order: [String] = []
        for _ in 0..<3 {
            _ = loop.rx.work { () -> Int in
                started.increment()
                while !release.withLock({ $0 }) { usleep(1000) }
                return 0
            }.subscribe(onSuccess: { _ in order.append("long work") })
        }
        let deadline = DispatchTime.now() + 5
        while started.current < 3 && DispatchTime.now() < deadline { usleep(1000) }
        _ = loop.rx.resolve(host: "localhost").subscribe(onSuccess: { _ in
            order.append("lookup")
            release.withLock { $0 = true }
        })
        runLoop()
        XCTAssertEqual(order, ["lookup", "long work", "long work", "long work"])
    }
}
