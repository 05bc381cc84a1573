import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class LoopSignalTests: BridgeTestCase {
    func testSignal_DeliveryToTwoSubscribers() {
        var first: [Int32] = []
        var second: [Int32] = []
        var subscriptions: [Disposable] = []
        func disposeWhenBothReceived() {
            if !first.isEmpty && !second.isEmpty {
                subscriptions.forEach { $0.dispose() }
            }
        }
        subscriptions.append(
            loop.rx.signal(SIGUSR1).subscribe(onNext: { signum in
                first.append(signum)
                disposeWhenBothReceived()
            }))
        subscriptions.append(
            loop.rx.signal(SIGUSR1).subscribe(onNext: { signum in
                second.append(signum)
                disposeWhenBothReceived()
            }))
        XCTAssertEqual(loop.openHandleCount, 2)
        raise(SIGUSR1)
        runLoop()
        XCTAssertEqual(first, [SIGUSR1])
        XCTAssertEqual(second, [SIGUSR1])
    }

    func testSignal_DisposeStopsWatching() {
        var received = 0
        let subscription = loop.rx.signal(SIGUSR2).subscribe(onNext: { _ in received += 1 })
        subscription.dispose()
        runLoop()
        XCTAssertEqual(received, 0)
        XCTAssertEqual(loop.openHandleCount, 0)
    }

    func testSignal_InvalidSignalIsAnError() {
        var failure: UVError?
        _ = loop.rx.signal(-5).subscribe(onError: { failure = $0 as? UVError })
        runLoop()
        XCTAssertEqual(failure?.name, "EINVAL")
        XCTAssertEqual(failure?.operation, "uv_signal_start")
    }
}
