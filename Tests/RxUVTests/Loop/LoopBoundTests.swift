import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class LoopBoundTests: BridgeTestCase {
    /// A session as a user writes one: its state in one `LoopBound`, the
    /// session itself `Sendable` with no `@unchecked`.
    private final class Session: Sendable {
        struct State {
            var lines: [String] = []
            var count = 0
        }
        let state: LoopBound<State>

        init(loop: Loop) {
            state = LoopBound(State(), loop: loop)
        }

        func handle(_ line: String) {
            state.value.lines.append(line)
            state.value.count += 1
        }
    }

    func testLoopBound_ReadsAndModifiesInPlaceOnTheLoopThread() {
        let session = Session(loop: loop)
        session.handle("a")
        session.handle("b")
        XCTAssertEqual(session.state.value.lines, ["a", "b"])
        XCTAssertEqual(session.state.value.count, 2)
        session.state.value = Session.State()
        XCTAssertEqual(session.state.value.count, 0)
        XCTAssertTrue(session.state.loop === loop)
    }

    /// Made on another thread (the value is handed over), used from other
    /// threads only through the loop: every change lands, in order.
    func testLoopBound_MadeAnywhereUsedThroughTheLoop() {
        let made = DispatchSemaphore(value: 0)
        let box = Shared<Session?>(nil)
        DispatchQueue.global().async { [loop] in
            box.mutate { $0 = Session(loop: loop!) }
            made.signal()
        }
        made.wait()
        let session = box.value!
        let sent = DispatchGroup()
        for index in 0..<100 {
            sent.enter()
            DispatchQueue.global().async { [loop] in
                loop!.execute { session.handle("\(index)") }
                sent.leave()
            }
        }
        sent.wait()
        runLoop()
        XCTAssertEqual(session.state.value.count, 100)
        XCTAssertEqual(Set(session.state.value.lines), Set((0..<100).map { "\($0)" }))
    }
}
