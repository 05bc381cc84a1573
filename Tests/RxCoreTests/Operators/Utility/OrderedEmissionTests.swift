import Dispatch
@testable import RxCore
import RxTest
import XCTest

final class OrderedEmissionTests: RxCoreTestCase {
    func testOrderedEmission_FirstCallerBecomesTheEmitter() {
        var emission = OrderedEmission<Int>()
        XCTAssertEqual(emission.begin(1), 1)
        XCTAssertNil(emission.begin(2))
        XCTAssertNil(emission.begin(3))
        XCTAssertEqual(emission.next(), 2)
        XCTAssertEqual(emission.next(), 3)
        XCTAssertNil(emission.next())
        // The role was released: the next producer emits directly.
        XCTAssertEqual(emission.begin(4), 4)
        XCTAssertNil(emission.next())
    }

    func testOrderedEmission_TimerAndUpstreamNeverDeliverConcurrently() {
        // buffer(timeSpan:count:) emits from its upstream (full buffers) and from
        // timers on another thread (time-outs); both go through OrderedEmission.
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let subject = PublishSubject<Int>()
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        let done = DispatchSemaphore(value: 0)
        var flattened: [Int] = []
        let subscription = subject
            .buffer(timeSpan: .microseconds(200), count: 3, scheduler: scheduler)
            .subscribe(
                onNext: { buffer in
                    if inside.increment() != 1 { overlaps.increment() }
                    flattened.append(contentsOf: buffer)
                    inside.decrement()
                },
                onCompleted: { done.signal() }
            )
        let count = 20_000
        DispatchQueue.global().async {
            for value in 0..<count {
                subject.onNext(value)
            }
            subject.onCompleted()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(overlaps.current, 0)
        XCTAssertEqual(flattened, Array(0..<count))
        subscription.dispose()
    }
}
