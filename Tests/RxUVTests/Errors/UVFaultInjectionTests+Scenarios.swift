import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// The scenarios of the fault table: each runs a real piece of work on the
/// loop and returns the error that reached its subscriber (or the error
/// handler), if any.
extension UVFaultInjectionTests {
    func run(_ scenario: Scenario) -> Error? {
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
    func unixError(path: String, connect: Bool) -> Error? {
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
    func udpError(receive: Bool) -> Error? {
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
    func scratchFile() -> String {
        let path = "/tmp/rxuv-fault-\(getpid()).txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = write(descriptor, "old", 3)
        close(descriptor)
        return path
    }

    /// Whether an atomic write's temporary file (`.name.XXXXXX`) is in /tmp.
    func temporaryFileLeft() -> Bool {
        DirectoryListing.entries(of: "/tmp").contains { $0.hasPrefix(".rxuv-fault-\(getpid()).txt.") }
    }

    func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    /// `kill` on a running child fails; releasing the child then tears it
    /// down (with a `uv_kill` that works).
    func killError() -> Error? {
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

    func singleError<Element>(_ single: Single<Element>) -> Error? {
        var failure: Error?
        _ = single.subscribe(onFailure: { failure = $0 })
        runLoop()
        return failure
    }

    /// A served client whose accept fails once: the failure is reported,
    /// accepting pauses, and the client is then served all the same.
    func serveAcceptError() -> Error? {
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
    func standardOutputError() -> Error? {
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

    func listenError(host: String) -> Error? {
        var failure: Error?
        let subscription = loop.rx.listen(host: host, port: 0).subscribe(onError: { failure = $0 })
        runLoop()
        subscription.dispose()
        loop.runNoWait()
        return failure
    }

    /// A listener and one client; the server side fails to accept it.
    func acceptError() -> Error? {
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

    func connectError(host: String) -> Error? {
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
    func readError() -> Error? {
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
    func writeError(_ write: @escaping (TCPConnection) -> Completable) -> Error? {
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

    func shutdownError() -> Error? {
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

    func timerError() -> Error? {
        var failure: Error?
        var fired = false
        _ = loop.rx.timer(after: .milliseconds(1)).subscribe(onNext: { _ in fired = true }, onError: { failure = $0 })
        runLoop()
        XCTAssertFalse(fired)
        return failure
    }

    /// `Loop` as a scheduler has no error channel: a timer that cannot start
    /// goes to the loop's logger, and the scheduled action never runs.
    func schedulerTimerError() -> Error? {
        let reported = CapturedReports(on: loop)
        var fired = false
        let subscription = Observable<Int>.timer(.milliseconds(1), scheduler: loop).subscribe(onNext: { _ in fired = true })
        runLoop()
        subscription.dispose()
        XCTAssertFalse(fired)
        return reported.errors.first
    }

    func signalError() -> Error? {
        var failure: Error?
        let subscription = loop.rx.signal(SIGUSR2).subscribe(onError: { failure = $0 })
        runLoop()
        subscription.dispose()
        loop.runNoWait()
        return failure
    }

    func newLoopError() -> Error? {
        do {
            let other = try Loop()
            try other.close()
            return nil
        } catch {
            return error
        }
    }

    /// A forced `uv_loop_close` failure; the loop stays usable and closes on the next try.
    func loopCloseError() -> Error? {
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
