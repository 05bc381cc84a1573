import RxUVTestSupport
import XCTest

@testable import RxUV

/// `LoopHealth` from two samples: the window's arithmetic, with the clock
/// given (no loop, no real time).
final class LoopHealthTests: BridgeTestCase {
    private static func sample(at milliseconds: Int64, idle: UInt64, iterations: UInt64, fired: UInt64 = 0, lateness: UInt64 = 0, waiting: Int = 0, handles: [UVHandleKind: Int] = [:]) -> LoopSample {
        var open = Array(repeating: 0, count: UVHandleKind.allCases.count)
        for (kind, count) in handles { open[kind.rawValue] = count }
        return LoopSample(
            time: milliseconds * 1_000_000, idleNanoseconds: idle * 1_000_000, iterations: iterations, timersFired: fired,
            timerLatenessMilliseconds: lateness, waitingWork: waiting, openHandles: open)
    }

    func testAWindow_BusyShareTurnsTimerLagWaitingWorkAndHandles() {
        let start = Self.sample(at: 1_000, idle: 400, iterations: 10, fired: 3, lateness: 6, handles: [.tcp: 1])
        let end = Self.sample(at: 1_200, idle: 550, iterations: 70, fired: 7, lateness: 14, waiting: 5, handles: [.tcp: 3, .timer: 2, .udp: 0])
        let health = LoopHealth(from: start, to: end)
        XCTAssertEqual(health.interval, .milliseconds(200))
        // 150 ms of the 200 idle: busy a quarter of the window.
        XCTAssertEqual(health.utilization, 0.25, accuracy: 1e-9)
        XCTAssertEqual(health.iterations, 60)
        XCTAssertEqual(health.timersFired, 4)
        // 8 ms late over 4 timers.
        XCTAssertEqual(health.timerLag, .milliseconds(2))
        XCTAssertEqual(health.waitingWork, 5)
        XCTAssertEqual(health.openHandles, ["tcp": 3, "timer": 2])
    }

    func testAnIdleWindow_IsZeroBusy_ABusyOneIsOne_NoTimerNoLag() {
        let idle = LoopHealth(from: Self.sample(at: 0, idle: 0, iterations: 0), to: Self.sample(at: 100, idle: 100, iterations: 1))
        XCTAssertEqual(idle.utilization, 0)
        XCTAssertEqual(idle.timerLag, .zero)
        XCTAssertEqual(idle.timersFired, 0)
        let busy = LoopHealth(from: Self.sample(at: 0, idle: 7, iterations: 0), to: Self.sample(at: 100, idle: 7, iterations: 5_000))
        XCTAssertEqual(busy.utilization, 1)
        XCTAssertEqual(busy.openHandles, [:])
    }

    func testAWindowOfNoLength_OrIdleTimeAheadOfTheClock_StaysWithinZeroAndOne() {
        let same = Self.sample(at: 50, idle: 10, iterations: 2)
        XCTAssertEqual(LoopHealth(from: same, to: same).utilization, 0)
        XCTAssertEqual(LoopHealth(from: same, to: same).interval, .zero)
        // The idle time is read a moment before the clock: it may run ahead by a hair.
        let ahead = LoopHealth(from: Self.sample(at: 0, idle: 0, iterations: 0), to: Self.sample(at: 100, idle: 101, iterations: 1))
        XCTAssertEqual(ahead.utilization, 0)
    }

    func testProgress_ATurnOrWaitingForIOOrALoopNotRunning_NoneOfThemIsAStall() {
        let before = Self.sample(at: 0, idle: 5, iterations: 9)
        XCTAssertTrue(Self.sample(at: 50, idle: 5, iterations: 10).showsProgress(since: before), "it turned")
        var waiting = Self.sample(at: 50, idle: 5, iterations: 9)
        waiting.activity = .waitingForIO
        XCTAssertTrue(waiting.showsProgress(since: before), "it waits for I/O")
        var notRunning = Self.sample(at: 50, idle: 5, iterations: 9)
        notRunning.isRunning = false
        XCTAssertTrue(notRunning.showsProgress(since: before), "outside run() a loop is not stuck")
        var stuck = Self.sample(at: 50, idle: 5, iterations: 9)
        stuck.activity = LoopActivity(.tcp)
        XCTAssertFalse(stuck.showsProgress(since: before), "stuck in one callback")
    }

    func testActivities_SayWhatTheLoopRan() {
        XCTAssertEqual(LoopActivity(.tcp).description, "a tcp handle's callback")
        XCTAssertEqual(LoopActivity(.timer).description, "a timer handle's callback")
        XCTAssertEqual(LoopActivity.job.description, "a job of Swift concurrency")
        XCTAssertEqual(LoopActivity.closure.description, "a closure queued to the loop")
        XCTAssertEqual(LoopActivity.none.description, "no callback yet")
        XCTAssertEqual(LoopActivity.waitingForIO.description, "nothing: waiting for I/O")
        XCTAssertEqual(LoopActivity(reading: LoopActivity(.udp).code), LoopActivity(.udp))
    }

    func testAStall_InWords() {
        let stall = LoopStall(loop: "1", duration: .milliseconds(262.7), running: "a tcp handle's callback", isOver: false)
        XCTAssertEqual(stall.description, "loop 1 stalled: it has not turned for 262 ms, running a tcp handle's callback")
        let over = LoopStall(loop: "1", duration: .milliseconds(503), running: "a tcp handle's callback", isOver: true)
        XCTAssertEqual(over.description, "loop 1 turned again after a stall of 503 ms (running a tcp handle's callback)")
    }
}
