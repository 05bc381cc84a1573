import Dispatch
import RxUVTestSupport
import Synchronization
import XCTest

@testable import RxUV

final class LoopStepTests: BridgeTestCase {
    /// A vocabulary as a product writes one: a payload of its own, packed
    /// by hand.
    private enum CounterStep: LoopStep, Equatable {
        case add(UInt64)
        case reset

        var packed: PackedLoopStep {
            switch self {
            case .add(let amount): PackedLoopStep(tag: 0, argument: amount)
            case .reset: PackedLoopStep(tag: 1)
            }
        }

        init(packed: PackedLoopStep) {
            self = packed.tag == 0 ? .add(packed.argument) : .reset
        }
    }

    /// A loop-confined object outside the bridge's own: it takes its own
    /// steps through the loop's door.
    private final class Counter: LoopConfined, Sendable {
        let loop: Loop
        let steps = Mutex<[CounterStep]>([])

        init(loop: Loop) {
            self.loop = loop
        }

        func runOnLoopThread(_ step: CounterStep) {
            assertConfined()
            steps.withLock { $0.append(step) }
        }
    }

    private func assertRoundTrip<Step: LoopStep & Equatable>(_ steps: [Step], file: StaticString = #filePath, line: UInt = #line) {
        for step in steps {
            XCTAssertEqual(Step(packed: step.packed), step, file: file, line: line)
        }
        let tags = Set(steps.map { "\($0.packed.tag).\($0.packed.argument)" })
        XCTAssertEqual(tags.count, steps.count, "two steps pack alike", file: file, line: line)
    }

    func testLoopStep_EveryVocabularyUnpacksWhatItPacks() {
        assertRoundTrip([SubscriptionStep.open, .close])
        assertRoundTrip([HandleStep.close])
        assertRoundTrip([StreamStep.closeStream(.afterWrites), .closeStream(.now), .closeStream(.reset), .holdReading(true), .holdReading(false)])
        assertRoundTrip([ServerShardStep.adopt(0), .adopt(7), .adopt(Int32.max), .adopt(-1), .finish(0), .finish(UInt64.max), .quiesce, .reset])
        assertRoundTrip([ServerStep.countChanged, .countsDrained])
        assertRoundTrip([ProcessCoreStep.childReleased, .outputStarted, .outputEnded])
        assertRoundTrip([CounterStep.add(0), .add(UInt64.max), .reset])
    }

    /// On the loop thread the step runs at once; from another thread it is
    /// queued, packed, and runs typed, with its argument, on the loop's next
    /// turn, in order.
    func testLoopStep_AProductsStepsGoThroughTheDoor() {
        let counter = Counter(loop: loop)
        XCTAssertTrue(loop.enter(counter, .add(1)))
        XCTAssertEqual(counter.steps.withLock { $0 }, [.add(1)])

        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [loop] in
            for amount in [UInt64.max, 2, 3] {
                XCTAssertTrue(loop!.enter(counter, .add(amount)))
            }
            XCTAssertTrue(loop!.enter(counter, .reset))
            sent.signal()
        }
        sent.wait()
        XCTAssertEqual(counter.steps.withLock { $0 }, [.add(1)])
        runLoop()
        XCTAssertEqual(counter.steps.withLock { $0 }, [.add(1), .add(UInt64.max), .add(2), .add(3), .reset])
    }
}
