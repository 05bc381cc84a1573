import Dispatch
import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// `_IOW('T', 0x31, int)` and `_IOR('T', 0x30, unsigned int)` on Linux: the
/// macros are function-like, so Swift does not import them.
private let tiocsptlck: UInt = 0x4004_5431
private let tiocgptn: UInt = 0x8004_5430

/// `Terminal` on a pseudo-terminal this test opens: raw mode and its
/// restoration, the size, resizes.
final class TerminalTests: BridgeTestCase {
    private var controller: Int32 = -1
    private var terminalDescriptor: Int32 = -1

    override func setUpWithError() throws {
        try super.setUpWithError()
        // posix_openpt, unlockpt and ptsname by hand: Glibc's module hides
        // them (they need _XOPEN_SOURCE); on Linux they are these calls.
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard controller >= 0, ioctl(controller, tiocsptlck, &unlock) == 0, ioctl(controller, tiocgptn, &number) == 0 else {
            // This machine and CI have /dev/ptmx: its absence is a failure.
            throw UVError(code: .noSuchFileOrDirectory, operation: "open /dev/ptmx")
        }
        terminalDescriptor = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(terminalDescriptor, 0)
    }

    override func tearDownWithError() throws {
        if terminalDescriptor >= 0 { close(terminalDescriptor) }
        if controller >= 0 { close(controller) }
        try super.tearDownWithError()
    }

    private func openTerminal() -> Terminal {
        var terminal: Terminal?
        _ = loop.rx.terminal(descriptor: terminalDescriptor).subscribe(onSuccess: { terminal = $0 }, onFailure: { XCTFail("\($0)") })
        let deadline = DispatchTime.now() + 5
        while terminal == nil && DispatchTime.now() < deadline {
            loop.runNoWait()
        }
        return terminal!
    }

    private var isCanonical: Bool {
        var attributes = termios()
        tcgetattr(terminalDescriptor, &attributes)
        return attributes.c_lflag & tcflag_t(ICANON) != 0
    }

    func testRawMode_IsSetAndRestoredOnClose() {
        let terminal = openTerminal()
        XCTAssertTrue(isCanonical)
        var events: [String] = []
        _ = terminal.setRawMode(true).subscribe(onCompleted: { events.append("raw") }, onError: { events.append("\($0)") })
        loop.runNoWait()
        XCTAssertEqual(events, ["raw"])
        XCTAssertFalse(isCanonical)
        terminal.close()
        XCTAssertTrue(isCanonical)
        _ = terminal.setRawMode(true).subscribe(onError: { events.append(($0 as? UVError)?.name ?? "\($0)") })
        runLoop()
        XCTAssertEqual(events, ["raw", "EBADF"])
    }

    func testRawMode_IsRestoredWhenTheTerminalIsReleased() {
        var terminal: Terminal? = openTerminal()
        _ = terminal!.setRawMode(true).subscribe()
        loop.runNoWait()
        XCTAssertFalse(isCanonical)
        terminal = nil
        runLoop()
        XCTAssertTrue(isCanonical)
    }

    func testSizeAndResizes() {
        setWindowSize(columns: 100, rows: 30)
        let terminal = openTerminal()
        var single: TerminalSize?
        _ = terminal.size().subscribe(onSuccess: { single = $0 })
        var sizes: [TerminalSize] = []
        let resizes = terminal.rx.resizes.subscribe(onNext: { size in
            sizes.append(size)
            if sizes.count == 1 {
                self.setWindowSize(columns: 120, rows: 40)
                raise(SIGWINCH)
            }
        })
        let deadline = DispatchTime.now() + 5
        while sizes.count < 2 && DispatchTime.now() < deadline {
            loop.runNoWait()
            usleep(1000)
        }
        resizes.dispose()
        terminal.close()
        runLoop()
        XCTAssertEqual(single, TerminalSize(columns: 100, rows: 30))
        XCTAssertEqual(sizes, [TerminalSize(columns: 100, rows: 30), TerminalSize(columns: 120, rows: 40)])
    }

    func testANonTerminalFailsWithENOTTY() {
        var failure: UVError?
        let pipeEnds = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { pipeEnds.deallocate() }
        XCTAssertEqual(pipe(pipeEnds), 0)
        _ = loop.rx.terminal(descriptor: pipeEnds[0]).subscribe(onFailure: { failure = $0 as? UVError })
        runLoop()
        close(pipeEnds[0])
        close(pipeEnds[1])
        XCTAssertEqual(failure?.name, "ENOTTY")
    }

    /// Fault rows: the terminal's libuv calls failing deliver their error.
    func testFaults_InitAndSetModeDeliverTheirErrors() {
        defer { UVFaultInjection.removeAll() }
        var failures: [String] = []
        UVFaultInjection.inject(UVError.Code.tooManyOpenFiles.rawValue, into: "uv_tty_init")
        _ = loop.rx.terminal(descriptor: terminalDescriptor).subscribe(onFailure: { failures.append(($0 as? UVError).map { "\($0.operation) \($0.name)" } ?? "\($0)") })
        loop.runNoWait()
        let terminal = openTerminal()
        UVFaultInjection.inject(UVError.Code.ioError.rawValue, into: "uv_tty_set_mode")
        _ = terminal.setRawMode(true).subscribe(onError: { failures.append(($0 as? UVError).map { "\($0.operation) \($0.name)" } ?? "\($0)") })
        loop.runNoWait()
        terminal.close()
        runLoop()
        XCTAssertEqual(failures, ["uv_tty_init EMFILE", "uv_tty_set_mode EIO"])
        XCTAssertTrue(isCanonical)
    }

    private func setWindowSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        XCTAssertEqual(ioctl(controller, UInt(TIOCSWINSZ), &size), 0)
    }
}
