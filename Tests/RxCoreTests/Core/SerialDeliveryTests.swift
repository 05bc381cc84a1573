import Dispatch
import RxCoreTestSupport
import RxTest
import XCTest

@testable import RxCore

final class SerialDeliveryTests: RxCoreTestCase {
    func testSerialDelivery_FirstCallerBecomesTheEmitter() {
        var emission = SerialDelivery<Int>()
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

    func testSerialDelivery_AcceptRefusesEverythingAfterATerminalEvent() {
        var delivery = SerialDelivery<Event<Int>>()
        XCTAssertEqual(delivery.accept(.next(1)), .next(1))
        XCTAssertNil(delivery.accept(.completed))
        XCTAssertTrue(delivery.isStopped)
        XCTAssertNil(delivery.accept(.next(2)))
        // The terminal event queued before the stop is still handed out, last.
        XCTAssertEqual(delivery.next(), .completed)
        XCTAssertNil(delivery.next())
        XCTAssertNil(delivery.accept(.next(3)))
        XCTAssertNil(delivery.next())
    }

    func testSerialDelivery_StopKeepsQueuedItemsAndRemovePendingDropsThem() {
        var delivery = SerialDelivery<Int>()
        XCTAssertEqual(delivery.begin(1), 1)
        XCTAssertNil(delivery.begin(2))
        delivery.stop()
        XCTAssertNil(delivery.begin(3))
        XCTAssertEqual(delivery.next(), 2)
        XCTAssertNil(delivery.next())

        var other = SerialDelivery<Int>()
        XCTAssertEqual(other.begin(1), 1)
        XCTAssertNil(other.begin(2))
        other.removePending()
        XCTAssertNil(other.next())
        XCTAssertEqual(other.begin(4), 4)
    }

    func testSerialDelivery_DrainDeliversWhatIsQueuedReentrantlyInOrder() {
        var delivery = SerialDelivery<Int>()
        var delivered: [Int] = []
        let first = delivery.begin(1)
        drainSerially(first, next: { delivery.next() }) { item in
            delivered.append(item)
            if item < 3 {
                // A re-entrant send: queued for the current emitter.
                XCTAssertNil(delivery.begin(item + 1))
            }
        }
        XCTAssertEqual(delivered, [1, 2, 3])
        XCTAssertEqual(delivery.begin(9), 9)
    }

    func testSerialDelivery_TimerAndUpstreamNeverDeliverConcurrently() {
        // buffer(timeSpan:count:) emits from its upstream (full buffers) and from
        // timers on another thread (time-outs); both go through SerialDelivery.
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let subject = PublishSubject<Int>()
        let inside = ManagedCounter()
        let overlaps = ManagedCounter()
        let done = DispatchSemaphore(value: 0)
        var flattened: [Int] = []
        let subscription =
            subject
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
