import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

/// The loop's timer queue through its internal API: restarts, releases from
/// inside callbacks, `closeAll`, and the shared handle's lifetime.
final class LoopTimerQueueTests: BridgeTestCase {
    /// Records expiries and can act on them.
    private final class Recorder: UVTimerTarget {
        let name: String
        var fired: (String) -> Void
        var onFire: () -> Void = {}

        init(_ name: String, fired: @escaping (String) -> Void) {
            self.name = name
            self.fired = fired
        }

        func timerFired() {
            fired(name)
            onFire()
        }
    }

    private func timer(_ name: String, into log: Box<[String]>) -> (LoopTimer, Recorder) {
        let timer = LoopTimer(loop: loop)
        let recorder = Recorder(name) { log.value.append($0) }
        timer.target = recorder
        return (timer, recorder)
    }

    /// Restarting a running timer moves it: it fires once, at its new due
    /// time, after timers started before the restart that are due then too.
    func testRestart_MovesTheTimer() throws {
        let log = Box<[String]>([])
        let (a, _) = timer("a", into: log)
        let (b, _) = timer("b", into: log)
        try a.start(milliseconds: 1, periodMilliseconds: 0)
        try b.start(milliseconds: 10, periodMilliseconds: 0)
        try a.start(milliseconds: 10, periodMilliseconds: 0)
        XCTAssertEqual(loop.openHandleCount, 2)
        XCTAssertEqual(loop.timers.count, 2)
        runLoop()
        XCTAssertEqual(log.value, ["b", "a"])
        XCTAssertEqual(loop.openHandleCount, 0)
        XCTAssertFalse(a.isRunning)
        XCTAssertNil(a.target)
    }

    /// A one-shot timer started again from its own callback runs again; a
    /// repeating timer released from its own callback stops.
    func testCallbacks_RestartAndRelease() throws {
        let log = Box<[String]>([])
        let (once, onceRecorder) = timer("once", into: log)
        let (ticker, tickerRecorder) = timer("tick", into: log)
        var restarts = 0
        onceRecorder.onFire = {
            restarts += 1
            guard restarts < 3 else { return }
            do {
                try once.start(milliseconds: 1, periodMilliseconds: 0)
            } catch {
                XCTFail("restart: \(error)")
            }
        }
        var ticks = 0
        tickerRecorder.onFire = {
            ticks += 1
            if ticks == 4 { ticker.release() }
        }
        try once.start(milliseconds: 1, periodMilliseconds: 0)
        try ticker.start(milliseconds: 1, periodMilliseconds: 1)
        runLoop()
        XCTAssertEqual(log.value.filter { $0 == "once" }.count, 3)
        XCTAssertEqual(ticks, 4)
        XCTAssertEqual(loop.openHandleCount, 0)
        XCTAssertEqual(loop.timers.count, 0)
    }

    /// `closeAll` releases every running timer without firing it; the loop
    /// then has nothing to run.
    func testCloseAll_DiscardsTimers() throws {
        let log = Box<[String]>([])
        let timers = (0..<5).map { timer("t\($0)", into: log).0 }
        for (index, timer) in timers.enumerated() {
            try timer.start(milliseconds: UInt64(1_000 + index), periodMilliseconds: 0)
        }
        XCTAssertEqual(loop.openHandleCount, 5)
        XCTAssertEqual(loop.closeAll(), 5)
        XCTAssertEqual(loop.openHandleCount, 0)
        runLoop()
        XCTAssertEqual(log.value, [])
        XCTAssertTrue(timers.allSatisfy { !$0.isRunning && $0.target == nil })
    }

    /// A seeded run of 5,000 starts, restarts and releases on 200 timers:
    /// after each step the queue holds exactly the running timers, and in
    /// the end each running one fires once, in (due, last start) order.
    func testRandomOperations_KeepTheHeapExact() throws {
        var generator = SeededGenerator(seed: 0x71_4E5)
        let log = Box<[String]>([])
        let pairs = (0..<200).map { timer("\($0)", into: log) }
        var due: [Int: (UInt64, Int)] = [:]
        for step in 0..<5_000 {
            let index = Int(generator.next() % 200)
            if generator.next() % 3 == 0 {
                pairs[index].0.release()
                pairs[index].0.target = pairs[index].1
                due[index] = nil
            } else {
                let milliseconds = generator.next() % 50
                try pairs[index].0.start(milliseconds: milliseconds, periodMilliseconds: 0)
                due[index] = (milliseconds, step)
            }
            XCTAssertEqual(loop.timers.count, due.count)
        }
        XCTAssertEqual(loop.openHandleCount, due.count)
        runLoop()
        let expected = due.sorted { ($0.value.0, $0.value.1) < ($1.value.0, $1.value.1) }.map { "\($0.key)" }
        XCTAssertEqual(log.value, expected)
        XCTAssertEqual(loop.openHandleCount, 0)
    }
}
