import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `LoopGroup`: loops on threads of their own (named after them), round
/// robin, shutdown and its diagnostics.
final class LoopGroupTests: BridgeTestCase {
    func testEachLoopRunsOnItsOwnThread_NextTakesThemInTurn() throws {
        let group = try LoopGroup(threads: 4)
        XCTAssertEqual(group.loops.count, 4)
        let threads = Shared<[Int: UInt]>([:])
        let done = DispatchSemaphore(value: 0)
        for (index, loop) in group.loops.enumerated() {
            XCTAssertFalse(loop.isOnLoopThread)
            XCTAssertTrue(
                loop.execute {
                    XCTAssertTrue(loop.isOnLoopThread)
                    threads.mutate { $0[index] = UInt(bitPattern: Int(bitPattern: pthread_self())) }
                    XCTAssertEqual(Self.threadName(), "rxuv-loop-\(index)", "the thread is named after its loop")
                    done.signal()
                })
        }
        for _ in 0..<4 { XCTAssertEqual(done.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(Set(threads.value.values).count, 4)
        let order = (0..<8).map { _ in group.next() }
        for index in 0..<8 {
            XCTAssertTrue(order[index] === group.loops[index % 4])
        }
        try group.shutdown()
        try group.shutdown()
        // A loop whose group shut down takes no more work.
        XCTAssertFalse(group.loops[0].execute {})
    }

    /// The calling thread's name, as the kernel keeps it.
    private static func threadName() -> String {
        let descriptor = open("/proc/thread-self/comm", O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &bytes, bytes.count)
        var name = String(decoding: bytes[..<max(count, 0)], as: UTF8.self)
        if name.hasSuffix("\n") { name.removeLast() }
        return name
    }

    func testIdleLoops_KeepRunning_TimersFireOnTheirThreads() throws {
        let group = try LoopGroup(threads: 2)
        let fired = Shared<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for loop in group.loops {
            _ = loop.rx.timer(after: .milliseconds(20)).subscribe(onNext: { _ in
                fired.mutate { $0.append(loop.isOnLoopThread) }
                done.signal()
            })
        }
        for _ in 0..<2 { XCTAssertEqual(done.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(fired.value, [true, true])
        try group.shutdown()
    }

    /// A handle left open: shutdown names it, loop by loop; the loop can then
    /// be finished on another thread.
    func testShutdown_WithHandlesOpen_NamesThem() throws {
        let group = try LoopGroup(threads: 2)
        let timer = group.loops[1].rx.timer(after: .seconds(60), repeating: .seconds(60)).subscribe()
        let started = DispatchSemaphore(value: 0)
        group.loops[1].execute { started.signal() }
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        XCTAssertThrowsError(try group.shutdown()) { error in
            XCTAssertEqual((error as? UVError)?.code, .busy)
            XCTAssertTrue("\(error)".contains("loop 1: 1 open handle: timer"), "\(error)")
        }
        // A loop that could not close refuses work: nothing is promised that
        // will never run.
        let stranded = group.loops[1]
        XCTAssertFalse(stranded.execute {})
        // Its thread is gone; this thread takes it over to close it by hand.
        stranded.runNoWait()
        XCTAssertTrue(stranded.isOnLoopThread)
        XCTAssertEqual(stranded.closeAll(), 1)
        stranded.runNoWait()
        timer.dispose()
        XCTAssertNoThrow(try stranded.close())
    }

    func testGroupOfOne_BehavesLikeALoop() throws {
        let group = try LoopGroup(threads: 1)
        let value = Shared<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        _ = group.next().rx.work { 6 * 7 }.subscribe(onSuccess: {
            value.value = $0
            done.signal()
        })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(value.value, 42)
        try group.shutdown()
    }
}
