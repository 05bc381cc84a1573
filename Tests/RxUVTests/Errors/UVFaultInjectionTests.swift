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
    private struct Fault {
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

    private enum Scenario: String {
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

    // MARK: After a fault, the same objects go on working

    func testFaultInjection_WriteFailureLeavesTheConnectionUsable() {
        let server = startEchoServer(on: loop)
        var errors: [String] = []
        var echoed: [UInt8] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            UVFaultInjection.inject(-EPIPE, into: "uv_write")
            _ = client.write("lost").subscribe(onError: { errors.append(($0 as? UVError)?.name ?? "\($0)") })
            _ = client.write("kept").andThen(client.shutdown()).subscribe(onError: { errors.append("\($0)") })
            _ = client.rx.data.subscribe(onNext: { echoed += $0 }, onCompleted: { server.subscription.dispose() })
        })
        runLoop()
        XCTAssertEqual(errors, ["EPIPE"])
        XCTAssertEqual(String(decoding: echoed, as: UTF8.self), "kept")
    }

    func testFaultInjection_AcceptFailureEndsTheListenerAndRetryListensAgain() {
        let port = Shared(0)
        var events: [String] = []
        var served: [TCPConnection] = []
        // Listen on a fixed port, so that after the failure `retry` binds the same one.
        _ = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe().dispose()
        loop.runNoWait()
        UVFaultInjection.inject(-EINVAL, into: "accept")
        let listener = loop.rx.listen(host: "127.0.0.1", port: port.value)
            .do(onError: { events.append("listen error: \(($0 as? UVError)?.description ?? "\($0)")") })
            .retry(2)
            .subscribe(onNext: { connection in
                served.append(connection)
                events.append("accepted")
                connection.close()
            })
        func connectOnce(then next: @escaping () -> Void) {
            _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(
                onSuccess: { client in
                    _ = client.rx.data.subscribe(onError: { _ in next() }, onCompleted: next)
                }, onFailure: { _ in next() })
        }
        connectOnce {
            connectOnce { listener.dispose() }
        }
        runLoop()
        XCTAssertEqual(events, ["listen error: accept 127.0.0.1:\(port.value): EINVAL (invalid argument)", "accepted"])
        XCTAssertEqual(served.count, 1)
        served.removeAll()
    }

    /// Work the loop thread queues for itself runs on the loop's next turn
    /// through its idle handle; when that handle cannot start, the wake-up
    /// handle runs it instead, in order, and `run()` still returns once it
    /// has run.
    func testLoopThreadWork_RunsThroughTheWakeupWhenTheIdleHandleCannotStart() {
        let ran = Box<[Int]>([])
        UVFaultInjection.inject(-EINVAL, into: "uv_idle_start", times: 2)
        loop.execute { ran.value.append(1) }
        loop.execute { ran.value.append(2) }
        runLoop()
        XCTAssertEqual(ran.value, [1, 2])
        XCTAssertEqual(UVFaultInjection.firedCount("uv_idle_start"), 2)
        // The idle handle starts again next time.
        loop.execute { ran.value.append(3) }
        runLoop()
        XCTAssertEqual(ran.value, [1, 2, 3])
    }

    /// Out of descriptors while accepting: reported once, accepting pauses,
    /// and the waiting client is served after the pause, as is the next.
    func testFaultInjection_TransientAcceptFailureKeepsListening() {
        let reported = CapturedReports(on: loop)
        let server = startEchoServer(on: loop)
        UVFaultInjection.inject(-EMFILE, into: "accept")
        var echoed: [String] = []
        func echo(_ line: String, then next: @escaping () -> Void) {
            _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
                var received = ""
                _ = client.rx.data.subscribe(
                    onNext: { received += $0.string },
                    onCompleted: {
                        echoed.append(received)
                        next()
                    })
                _ = client.write(line).andThen(client.shutdown()).subscribe()
            })
        }
        echo("after the pause") {
            echo("still here") { server.subscription.dispose() }
        }
        runLoop()
        XCTAssertEqual(reported.names, ["EMFILE"])
        XCTAssertEqual(echoed, ["after the pause", "still here"])
        XCTAssertEqual(UVFaultInjection.firedCount("accept"), 1)
    }

    // MARK: Scenarios

    private func run(_ scenario: Scenario) -> Error? {
        switch scenario {
        case .listen: return listenError(host: "127.0.0.1")
        case .listenOnName: return listenError(host: "localhost")
        case .accept: return acceptError()
        case .connect: return connectError(host: "127.0.0.1")
        case .connectToName: return connectError(host: "localhost")
        case .read: return readError()
        case .write: return writeError { $0.write("x") }
        case .vectoredWrite: return writeError { $0.write([ByteBuffer(string: "x"), ByteBuffer(string: "y")]) }
        case .queuedWrite: return writeError { $0.write(ByteBuffer(randomBytes(count: 8 << 20))) }
        case .shutdown: return shutdownError()
        case .timer: return timerError()
        case .schedulerTimer: return schedulerTimerError()
        case .signal: return signalError()
        case .newLoop: return newLoopError()
        case .loopClose: return loopCloseError()
        case .unixListen: return unixError(path: "/tmp/rxuv-fault-\(getpid()).sock", connect: false)
        case .unixListenAbstract: return unixError(path: "\u{0}rxuv-fault-\(getpid())", connect: false)
        case .unixConnect: return unixError(path: "/tmp/rxuv-fault-\(getpid()).sock", connect: true)
        case .unixConnectAbstract: return unixError(path: "\u{0}rxuv-fault-\(getpid())", connect: true)
        case .udpBind: return singleError(loop.rx.bindUDP(host: "127.0.0.1", port: 0))
        case .udpConnect: return singleError(loop.rx.connectUDP(host: "127.0.0.1", port: 9))
        case .udpReceive, .udpSend: return udpError(receive: scenario == .udpReceive)
        case .work: return singleError(loop.rx.work { 1 })
        case .spawn: return singleError(loop.rx.spawn(ProcessOptions("true")))
        case .kill: return killError()
        case .readFile: return singleError(loop.rx.readFile(path: scratchFile()))
        case .writeFile: return singleError(loop.rx.writeFile(path: scratchFile(), bytes: ByteBuffer(string: "new")).andThen(Single.just(())))
        case .writeFileInPlace:
            return singleError(loop.rx.writeFile(path: scratchFile(), bytes: ByteBuffer(string: "new"), atomic: false).andThen(Single.just(())))
        case .stat: return singleError(loop.rx.stat(path: scratchFile()))
        case .fileChunks: return singleError(loop.rx.fileChunks(path: scratchFile()).toArray())
        case .watch: return singleError(loop.rx.watch(path: "/tmp").take(1).asSingle())
        case .watchFile:
            let error = singleError(loop.rx.watchFile(path: scratchFile()).take(1).asSingle())
            XCTAssertTrue("\(String(describing: error))".contains("inotify watch limit"), "\(String(describing: error))")
            return error
        case .poll: return singleError(loop.rx.poll(path: "/tmp", interval: .seconds(1)).map { _ in () }.take(1).asSingle())
        case .serve: return singleError(loop.rx.serve(host: "127.0.0.1", port: 0) { _ in .empty() })
        case .serveUnix:
            return singleError(loop.rx.serve(unixPath: "/tmp/rxuv-fault-\(getpid()).sock", mode: 0o600) { _ in .empty() })
        case .serveAccept: return serveAcceptError()
        case .standardOutputToFile: return standardOutputError()
        case .resolve: return singleError(loop.rx.resolve(host: "localhost"))
        case .reverseLookup: return singleError(loop.rx.reverseLookup(try! SocketAddress(ip: "127.0.0.1", port: 80)))
        }
    }

    /// A Unix-domain listener on `path` and, with `connect`, a client: the
    /// first error either reports.
    private func unixError(path: String, connect: Bool) -> Error? {
        var failure: Error?
        let listener = SingleAssignmentDisposable()
        listener.setDisposable(loop.rx.listen(unixPath: path).subscribe(onNext: { $0.close() }, onError: { failure = $0 }))
        if connect {
            _ = loop.rx.connect(unixPath: path).subscribe(
                onSuccess: { client in
                    client.close()
                    listener.dispose()
                },
                onFailure: { error in
                    failure = failure ?? error
                    listener.dispose()
                })
        } else {
            listener.dispose()
        }
        runLoop()
        return failure
    }

    /// A bound UDP socket that receives or sends to itself: the error.
    private func udpError(receive: Bool) -> Error? {
        var failure: Error?
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: 0).subscribe(onSuccess: { socket in
            if receive {
                _ = socket.rx.datagrams.subscribe(onError: { failure = $0 })
                socket.close()
            } else {
                _ = socket.send(ByteBuffer(string: "x"), to: socket.localAddress!).subscribe(
                    onCompleted: { socket.close() },
                    onError: { error in
                        failure = error
                        socket.close()
                    })
            }
        })
        runLoop()
        return failure
    }

    /// The error a Single fails with.
    /// A file of this test's in /tmp holding "old", made anew for each row.
    /// A failed atomic write must leave it whole, with nothing beside it.
    private func scratchFile() -> String {
        let path = "/tmp/rxuv-fault-\(getpid()).txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = write(descriptor, "old", 3)
        close(descriptor)
        return path
    }

    /// Whether an atomic write's temporary file (`.name.XXXXXX`) is in /tmp.
    private func temporaryFileLeft() -> Bool {
        DirectoryListing.entries(of: "/tmp").contains { $0.hasPrefix(".rxuv-fault-\(getpid()).txt.") }
    }

    private func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    /// `kill` on a running child fails; releasing the child then tears it
    /// down (with a `uv_kill` that works).
    private func killError() -> Error? {
        var failure: Error?
        var child: ChildProcess?
        _ = loop.rx.spawn(ProcessOptions("sleep", arguments: ["5"])).subscribe(onSuccess: { spawned in
            child = spawned
            _ = spawned.kill().subscribe(onError: {
                failure = $0
                child = nil
            })
        })
        runLoop()
        XCTAssertNil(child)
        return failure
    }

    private func singleError<Element>(_ single: Single<Element>) -> Error? {
        var failure: Error?
        _ = single.subscribe(onFailure: { failure = $0 })
        runLoop()
        return failure
    }

    /// A served client whose accept fails once: the failure is reported,
    /// accepting pauses, and the client is then served all the same.
    private func serveAcceptError() -> Error? {
        let reported = CapturedReports(on: loop)
        var echoed = ""
        _ = loop.rx.serve(host: "127.0.0.1", port: 0) { served in
            served.connection.rx.data.flatMap { served.connection.write($0) }.asCompletable()
        }.subscribe(onSuccess: { server in
            _ = self.loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
                _ = client.rx.data.subscribe(
                    onNext: { echoed += $0.string },
                    onCompleted: { _ = server.drain(deadline: .seconds(1)).subscribe() })
                _ = client.write("served").andThen(client.shutdown()).subscribe()
            })
        })
        runLoop()
        XCTAssertEqual(echoed, "served", "the client was not served after the pause")
        return reported.errors.first
    }

    /// Standard output on a regular file, written once: the write's error.
    private func standardOutputError() -> Error? {
        let path = scratchFile()
        let descriptor = open(path, O_WRONLY | O_APPEND)
        defer { close(descriptor) }
        let output = StandardOutput(loop: loop, descriptor: descriptor)
        var failure: Error?
        _ = output.write("x").subscribe(onCompleted: { output.close() }, onError: { failure = $0 })
        runLoop()
        output.close()
        loop.runNoWait()
        return failure
    }

    private func listenError(host: String) -> Error? {
        var failure: Error?
        let subscription = loop.rx.listen(host: host, port: 0).subscribe(onError: { failure = $0 })
        runLoop()
        subscription.dispose()
        loop.runNoWait()
        return failure
    }

    /// A listener and one client; the server side fails to accept it.
    private func acceptError() -> Error? {
        let port = Shared(0)
        var failure: Error?
        var accepted: [TCPConnection] = []
        let listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(
                onNext: { connection in
                    accepted.append(connection)
                    connection.close()
                }, onError: { failure = $0 })
        var clientEnded = false
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(
            onSuccess: { client in
                // The listener's close drops the connection it could not accept.
                _ = client.rx.data.subscribe(onError: { _ in clientEnded = true }, onCompleted: { clientEnded = true })
            }, onFailure: { _ in clientEnded = true })
        runLoop()
        listener.dispose()
        XCTAssertTrue(clientEnded, "the client of a failed accept was left hanging")
        XCTAssertTrue(accepted.isEmpty)
        accepted.removeAll()
        return failure
    }

    private func connectError(host: String) -> Error? {
        let server = startEchoServer(on: loop)
        var failure: Error?
        _ = loop.rx.connect(host: host, port: server.address.port).subscribe(
            onSuccess: { client in
                client.close()
                server.subscription.dispose()
            },
            onFailure: { error in
                failure = error
                server.subscription.dispose()
            })
        runLoop(timeout: 30)
        return failure
    }

    /// A server that holds its connections without reading; the client's read fails.
    private func readError() -> Error? {
        var held: [TCPConnection] = []
        let port = Shared(0)
        var failure: Error?
        var listener: Disposable?
        listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { held.append($0) })
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(
                onError: { error in
                    failure = error
                    held.forEach { $0.close() }
                    listener?.dispose()
                },
                onCompleted: {
                    held.forEach { $0.close() }
                    listener?.dispose()
                })
        })
        runLoop()
        held.removeAll()
        return failure
    }

    /// A client connected to an echo server makes the `write`.
    private func writeError(_ write: @escaping (TCPConnection) -> Completable) -> Error? {
        let server = startEchoServer(on: loop)
        var failure: Error?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            _ = write(client).subscribe(
                onCompleted: {
                    client.close()
                    server.subscription.dispose()
                },
                onError: { error in
                    failure = error
                    client.close()
                    server.subscription.dispose()
                })
        })
        runLoop()
        return failure
    }

    private func shutdownError() -> Error? {
        let server = startEchoServer(on: loop)
        var failure: Error?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            _ = client.shutdown().subscribe(
                onCompleted: {
                    client.close()
                    server.subscription.dispose()
                },
                onError: { error in
                    failure = error
                    client.close()
                    server.subscription.dispose()
                })
        })
        runLoop()
        return failure
    }

    private func timerError() -> Error? {
        var failure: Error?
        var fired = false
        _ = loop.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in fired = true }, onError: { failure = $0 })
        runLoop()
        XCTAssertFalse(fired)
        return failure
    }

    /// `Loop` as a scheduler has no error channel: a timer that cannot start
    /// goes to the loop's logger, and the scheduled action never runs.
    private func schedulerTimerError() -> Error? {
        let reported = CapturedReports(on: loop)
        var fired = false
        let subscription = Observable<Int>.timer(.milliseconds(1), scheduler: loop).subscribe(onNext: { _ in fired = true })
        runLoop()
        subscription.dispose()
        XCTAssertFalse(fired)
        return reported.errors.first
    }

    private func signalError() -> Error? {
        var failure: Error?
        let subscription = loop.rx.signal(SIGUSR2).subscribe(onError: { failure = $0 })
        runLoop()
        subscription.dispose()
        loop.runNoWait()
        return failure
    }

    private func newLoopError() -> Error? {
        do {
            let other = try Loop()
            try other.close()
            return nil
        } catch {
            return error
        }
    }

    /// A forced `uv_loop_close` failure; the loop stays usable and closes on the next try.
    private func loopCloseError() -> Error? {
        var failure: Error?
        do {
            let other = try Loop()
            do {
                try other.close()
            } catch {
                failure = error
            }
            var ticks = 0
            _ = other.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in ticks += 1 })
            other.run()
            XCTAssertEqual(ticks, 1, "the loop did not work after a failed close")
            XCTAssertNoThrow(try other.close())
        } catch {
            XCTFail("Loop(): \(error)")
        }
        return failure
    }
}
