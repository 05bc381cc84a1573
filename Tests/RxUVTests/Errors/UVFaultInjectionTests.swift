import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// Table-driven fault injection: each row forces one libuv call to fail with
/// a chosen status (`UVFaultInjection`), runs a real scenario on the loop,
/// and checks the error the Observable delivers (code and operation), that
/// the fault fired exactly as often as planned, and that no handle or object
/// leaked.
final class UVFaultInjectionTests: BridgeTestCase {
    /// One row of the table.
    struct Fault {
        /// The libuv function forced to fail.
        let operation: String
        /// The error it returns instead.
        let status: UVError.Code
        /// Calls of `operation` that run normally before the failing one.
        var after = 0
        /// What is exercised: it runs the loop and returns the error that
        /// reached the subscriber (or the error handler), if any.
        let scenario: Scenario
    }

    enum Scenario: String {
        case listen, listenOnName, accept, connect, connectToName, read, write, vectoredWrite, queuedWrite, shutdown,
            timer, schedulerTimer, signal, newLoop, loopClose, resolve, reverseLookup, unixListen, unixListenAbstract,
            unixConnect, unixConnectAbstract, udpBind, udpConnect, udpReceive, udpSend, work, spawn, kill, readFile,
            writeFile, writeFileInPlace, stat, fileChunks, watch, watchFile, poll, serve, serveUnix, serveAccept,
            standardOutputToFile
    }

    override func tearDownWithError() throws {
        UVFaultInjection.removeAll()
        try super.tearDownWithError()
    }

    private let faults: [Fault] = [
        // loop.rx.listen and Server share one bind and accept path.
        Fault(operation: "socket", status: .tooManyOpenFiles, scenario: .listen),
        Fault(operation: "bind", status: .addressInUse, scenario: .listen),
        Fault(operation: "listen", status: .addressInUse, scenario: .listen),
        Fault(operation: "uv_poll_init", status: .tooManyOpenFiles, scenario: .listen),
        Fault(operation: "uv_poll_start", status: .invalidArgument, scenario: .listen),
        Fault(operation: "uv_getaddrinfo", status: .unknownHost, scenario: .listenOnName),
        // A failure to accept that is not for want of resources ends the listener.
        Fault(operation: "accept", status: .invalidArgument, scenario: .accept),
        // The client's socket (1st), then the accepted one (2nd).
        Fault(operation: "uv_tcp_init", status: .invalidArgument, after: 1, scenario: .accept),
        Fault(operation: "uv_tcp_open", status: .badFileDescriptor, scenario: .accept),
        Fault(operation: "uv_tcp_init", status: .tooManyOpenFiles, scenario: .connect),
        Fault(operation: "uv_tcp_connect", status: .connectionRefused, scenario: .connect),
        Fault(operation: "uv_tcp_connect", status: .networkUnreachable, scenario: .connectToName),
        Fault(operation: "uv_getaddrinfo", status: .unknownHost, scenario: .connectToName),
        Fault(operation: "uv_read_start", status: .notConnected, scenario: .read),
        Fault(operation: "uv_write", status: .brokenPipe, scenario: .write),
        Fault(operation: "uv_write", status: .brokenPipe, scenario: .vectoredWrite),
        // The try-write takes part of 8 MiB (1st call), the uv_write of the rest fails.
        Fault(operation: "uv_write", status: .outOfMemory, after: 1, scenario: .queuedWrite),
        Fault(operation: "uv_shutdown", status: .notConnected, scenario: .shutdown),
        Fault(operation: "uv_timer_init", status: .outOfMemory, scenario: .timer),
        Fault(operation: "uv_timer_start", status: .invalidArgument, scenario: .timer),
        Fault(operation: "uv_timer_init", status: .outOfMemory, scenario: .schedulerTimer),
        Fault(operation: "uv_timer_start", status: .invalidArgument, scenario: .schedulerTimer),
        Fault(operation: "uv_signal_init", status: .invalidArgument, scenario: .signal),
        Fault(operation: "uv_signal_start", status: .invalidArgument, scenario: .signal),
        Fault(operation: "uv_loop_init", status: .outOfMemory, scenario: .newLoop),
        Fault(operation: "uv_async_init", status: .tooManyOpenFiles, scenario: .newLoop),
        Fault(operation: "uv_loop_close", status: .busy, scenario: .loopClose),
        Fault(operation: "uv_getaddrinfo", status: .lookupOutOfMemory, scenario: .resolve),
        Fault(operation: "uv_getnameinfo", status: .lookupOutOfMemory, scenario: .reverseLookup),
        Fault(operation: "uv_queue_work", status: .invalidArgument, scenario: .work),
        Fault(operation: "socket", status: .tooManyOpenFiles, scenario: .unixListen),
        Fault(operation: "bind", status: .permissionDenied, scenario: .unixListen),
        Fault(operation: "listen", status: .addressInUse, scenario: .unixListen),
        Fault(operation: "bind", status: .addressInUse, scenario: .unixListenAbstract),
        Fault(operation: "uv_pipe_init", status: .tooManyOpenFiles, scenario: .unixConnect),
        Fault(operation: "uv_pipe_connect", status: .connectionRefused, scenario: .unixConnect),
        Fault(operation: "uv_pipe_open", status: .outOfMemory, scenario: .unixConnectAbstract),
        Fault(operation: "uv_udp_init_ex", status: .tooManyOpenFiles, scenario: .udpBind),
        Fault(operation: "uv_udp_bind", status: .addressInUse, scenario: .udpBind),
        Fault(operation: "uv_udp_connect", status: .networkUnreachable, scenario: .udpConnect),
        Fault(operation: "uv_udp_recv_start", status: .outOfMemory, scenario: .udpReceive),
        Fault(operation: "uv_udp_send", status: .noBufferSpace, scenario: .udpSend),
        Fault(operation: "uv_spawn", status: .outOfMemory, scenario: .spawn),
        Fault(operation: "uv_spawn", status: .permissionDenied, scenario: .spawn),
        // stdin's pipe (1st), then stdout's: the first is closed again.
        Fault(operation: "uv_pipe_init", status: .tooManyOpenFiles, after: 1, scenario: .spawn),
        Fault(operation: "uv_kill", status: .notPermitted, scenario: .kill),
        Fault(operation: "uv_fs_open", status: .tooManyOpenFiles, scenario: .readFile),
        Fault(operation: "uv_fs_fstat", status: .ioError, scenario: .readFile),
        Fault(operation: "uv_fs_read", status: .ioError, scenario: .readFile),
        Fault(operation: "uv_fs_stat", status: .permissionDenied, scenario: .writeFile),
        Fault(operation: "uv_fs_mkstemp", status: .noSpaceLeft, scenario: .writeFile),
        Fault(operation: "uv_fs_write", status: .noSpaceLeft, scenario: .writeFile),
        Fault(operation: "uv_fs_fchmod", status: .permissionDenied, scenario: .writeFile),
        Fault(operation: "uv_fs_fsync", status: .ioError, scenario: .writeFile),
        Fault(operation: "uv_fs_rename", status: .crossDeviceLink, scenario: .writeFile),
        Fault(operation: "uv_fs_open", status: .readOnlyFileSystem, scenario: .writeFileInPlace),
        Fault(operation: "uv_fs_write", status: .noSpaceLeft, scenario: .writeFileInPlace),
        Fault(operation: "uv_fs_stat", status: .permissionDenied, scenario: .stat),
        Fault(operation: "uv_fs_open", status: .tooManyOpenFiles, scenario: .fileChunks),
        Fault(operation: "uv_fs_read", status: .ioError, scenario: .fileChunks),
        Fault(operation: "uv_fs_event_init", status: .tooManyOpenFiles, scenario: .watch),
        Fault(operation: "uv_fs_event_start", status: .noSpaceLeft, scenario: .watch),
        Fault(operation: "uv_fs_event_start", status: .noSpaceLeft, scenario: .watchFile),
        Fault(operation: "uv_fs_poll_init", status: .outOfMemory, scenario: .poll),
        Fault(operation: "uv_fs_poll_start", status: .outOfMemory, scenario: .poll),
        // A Server's own socket calls, through the system-call choke point.
        Fault(operation: "socket", status: .tooManyOpenFiles, scenario: .serve),
        Fault(operation: "setsockopt", status: .invalidArgument, scenario: .serve),
        Fault(operation: "bind", status: .addressInUse, scenario: .serve),
        Fault(operation: "listen", status: .addressInUse, scenario: .serve),
        Fault(operation: "getsockname", status: .noBufferSpace, scenario: .serve),
        Fault(operation: "socket", status: .tooManyOpenFiles, scenario: .serveUnix),
        Fault(operation: "bind", status: .permissionDenied, scenario: .serveUnix),
        Fault(operation: "chmod", status: .notPermitted, scenario: .serveUnix),
        Fault(operation: "listen", status: .addressInUse, scenario: .serveUnix),
        // Reported, accepting pauses, then the client is served.
        Fault(operation: "accept", status: .tooManyOpenFiles, scenario: .serveAccept),
        // Standard output on a regular file: a duplicate of the descriptor.
        Fault(operation: "dup", status: .tooManyOpenFiles, scenario: .standardOutputToFile),
    ]

    func testFaultInjection_EveryRowFailsCleanly() {
        for fault in faults {
            let row = "\(fault.operation) → \(fault.status.name) in \(fault.scenario.rawValue)"
            UVFaultInjection.inject(fault.status.rawValue, into: fault.operation, after: fault.after)
            let error = run(fault.scenario)
            let fired = UVFaultInjection.firedCount(fault.operation)
            UVFaultInjection.removeAll()

            XCTAssertEqual(fired, 1, "\(row): the fault fired \(fired) times")
            guard let failure = error as? UVError else {
                XCTFail("\(row): expected a UVError, got \(String(describing: error))")
                continue
            }
            XCTAssertEqual(failure.code, fault.status, "\(row): \(failure)")
            XCTAssertEqual(failure.operation, fault.operation, "\(row): \(failure)")
            if fault.scenario == .writeFile {
                XCTAssertEqual(contents(of: "/tmp/rxuv-fault-\(getpid()).txt"), "old", "\(row): the failed atomic write damaged the file")
                XCTAssertFalse(temporaryFileLeft(), "\(row): the temporary file was left behind")
            }
            unlink("/tmp/rxuv-fault-\(getpid()).txt")
            assertNoLeaks(row)
        }
    }
}
