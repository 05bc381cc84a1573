import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The contract of the one handle-owning subscription, checked for every
/// bridge Observable that owns a handle or a request (one row each): dispose
/// before subscribe has reached the loop thread, from inside the
/// subscription's own callback, twice, and from 8 threads at once. After
/// each case every handle is closed and `Resources.total` is back at its
/// baseline (`assertNoLeaks`).
final class HandleSinkTests: BridgeTestCase {
    /// What a row subscribes to, with the fixtures it may use.
    private struct Fixture {
        let loop: Loop
        /// An echo server on 127.0.0.1.
        let server: SocketAddress
        /// A client connected to it, for the stream rows.
        let client: TCPConnection
        /// A Unix-domain echo server's abstract name.
        let unixPath: String
        /// A UDP socket on 127.0.0.1.
        let udp: UDPSocket
        /// An empty directory of this case's, for the file-event rows.
        let scratchDirectory: String
    }

    /// One bridge Observable.
    private struct Row {
        let name: String
        /// Subscribes; `event` runs (on the loop thread) at the
        /// subscription's first event of any kind. Returns the disposable.
        let subscribe: (_ fixture: Fixture, _ event: @escaping @Sendable () -> Void) -> Disposable
    }

    private enum Case: String, CaseIterable {
        case beforeSubscribeCompletes, insideOwnCallback, twice, fromEightThreads
    }

    private let rows: [Row] = [
        Row(name: "loop.rx.timer(after:)") { fixture, event in
            fixture.loop.rx.timer(after: .milliseconds(1)).subscribe { _ in event() }
        },
        Row(name: "loop.rx.timer(after:repeating:)") { fixture, event in
            fixture.loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe { _ in event() }
        },
        Row(name: "loop.rx.signal") { fixture, event in
            // SIGWINCH: ignored by default, so raising it while nobody
            // watches is harmless.
            let subscription = fixture.loop.rx.signal(SIGWINCH).subscribe { _ in event() }
            raise(SIGWINCH)
            return subscription
        },
        Row(name: "loop.rx.listen (numeric host)") { fixture, event in
            fixture.loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { connectAndHangUp(fixture.loop, $0) }).subscribe { _ in event() }
        },
        Row(name: "loop.rx.listen (host name)") { fixture, event in
            fixture.loop.rx.listen(host: "localhost", port: 0, onListening: { connectAndHangUp(fixture.loop, $0) }).subscribe { _ in event() }
        },
        Row(name: "loop.rx.listen(unixPath:)") { fixture, event in
            let path = "\u{0}rxuv-dispose-\(getpid())"
            return fixture.loop.rx.listen(unixPath: path, onListening: { connectAndHangUp(fixture.loop, unixPath: $0) }).subscribe { _ in event() }
        },
        Row(name: "loop.rx.connect(unixPath:)") { fixture, event in
            fixture.loop.rx.connect(unixPath: fixture.unixPath).subscribe { _ in event() }
        },
        Row(name: "loop.rx.bindUDP") { fixture, event in
            fixture.loop.rx.bindUDP(host: "127.0.0.1", port: 0).subscribe { _ in event() }
        },
        Row(name: "loop.rx.connectUDP") { fixture, event in
            fixture.loop.rx.connectUDP(host: "localhost", port: 9).subscribe { _ in event() }
        },
        Row(name: "socket.rx.datagrams") { fixture, event in
            let subscription = fixture.udp.rx.datagrams.subscribe { _ in event() }
            _ = fixture.udp.send(ByteBuffer(string: "to myself"), to: fixture.udp.localAddress!).subscribe()
            return subscription
        },
        Row(name: "socket.send") { fixture, event in
            fixture.udp.send(ByteBuffer(string: "x"), to: fixture.udp.localAddress!).subscribe { _ in event() }
        },
        Row(name: "loop.rx.connect (numeric host)") { fixture, event in
            fixture.loop.rx.connect(host: "127.0.0.1", port: fixture.server.port).subscribe { _ in event() }
        },
        Row(name: "loop.rx.connect (host name)") { fixture, event in
            fixture.loop.rx.connect(host: "localhost", port: fixture.server.port).subscribe { _ in event() }
        },
        Row(name: "loop.rx.resolve") { fixture, event in
            fixture.loop.rx.resolve(host: "localhost").subscribe { _ in event() }
        },
        Row(name: "loop.rx.work") { fixture, event in
            fixture.loop.rx.work { 42 }.subscribe { _ in event() }
        },
        Row(name: "loop.rx.spawn") { fixture, event in
            fixture.loop.rx.spawn(ProcessOptions("true")).subscribe { _ in event() }
        },
        Row(name: "child.exit") { fixture, event in
            fixture.loop.rx.spawn(ProcessOptions("sh", arguments: ["-c", "exit 0"])).asObservable()
                .flatMap { $0.exit.asObservable() }
                .subscribe { _ in event() }
        },
        Row(name: "child.stdout") { fixture, event in
            fixture.loop.rx.spawn(ProcessOptions("echo", arguments: ["out"])).asObservable()
                .flatMap { $0.stdout }
                .subscribe { _ in event() }
        },
        Row(name: "loop.rx.readFile") { fixture, event in
            fixture.loop.rx.readFile(path: "/etc/passwd").subscribe { _ in event() }
        },
        Row(name: "loop.rx.fileChunks") { fixture, event in
            fixture.loop.rx.fileChunks(path: "/etc/passwd", chunkSize: 16).subscribe { _ in event() }
        },
        Row(name: "connection.write(fileAt:)") { fixture, event in
            fixture.client.write(fileAt: "/etc/passwd").subscribe { _ in event() }
        },
        Row(name: "loop.rx.watch") { fixture, event in
            let subscription = fixture.loop.rx.watch(path: fixture.scratchDirectory).subscribe { _ in event() }
            // Queued behind the watch's start: touches the directory once it watches.
            _ = fixture.loop.rx.timer(after: .milliseconds(5)).subscribe(onNext: { _ in
                close(open("\(fixture.scratchDirectory)/touched", O_WRONLY | O_CREAT, 0o644))
            })
            return subscription
        },
        Row(name: "loop.rx.poll") { fixture, event in
            let path = "\(fixture.scratchDirectory)/polled"
            let subscription = fixture.loop.rx.poll(path: path, interval: .milliseconds(5)).subscribe { _ in event() }
            _ = fixture.loop.rx.timer(after: .milliseconds(30)).subscribe(onNext: { _ in
                close(open(path, O_WRONLY | O_CREAT, 0o644))
            })
            return subscription
        },
        Row(name: "loop.rx.reverseLookup") { fixture, event in
            fixture.loop.rx.reverseLookup(fixture.server).subscribe { _ in event() }
        },
        Row(name: "connection.rx.data") { fixture, event in
            let subscription = fixture.client.rx.data.subscribe { _ in event() }
            _ = fixture.client.write("ping").subscribe()
            return subscription
        },
        Row(name: "connection.write") { fixture, event in
            fixture.client.write([ByteBuffer(string: "a"), ByteBuffer(string: "b")]).subscribe { _ in event() }
        },
        Row(name: "connection.shutdown") { fixture, event in
            fixture.client.shutdown().subscribe { _ in event() }
        },
        Row(name: "connection.setKeepAlive") { fixture, event in
            fixture.client.setKeepAlive(true).subscribe { _ in event() }
        },
        Row(name: "loop.schedule") { fixture, event in
            fixture.loop.schedule(
                (),
                action: { _ in
                    event()
                    return Disposables.create()
                })
        },
        Row(name: "loop.scheduleRelative") { fixture, event in
            fixture.loop.scheduleRelative(
                (), dueTime: .milliseconds(1),
                action: { _ in
                    event()
                    return Disposables.create()
                })
        },
        Row(name: "loop.schedulePeriodic") { fixture, event in
            fixture.loop.schedulePeriodic((), startAfter: .milliseconds(1), period: .milliseconds(1), action: { _ in event() })
        },
    ]

    func testEveryHandleOwningObservable_DisposeContract() {
        for row in rows {
            for testCase in Case.allCases {
                check(row, testCase)
                assertNoLeaks("\(row.name), dispose \(testCase.rawValue)")
            }
        }
    }

    private func check(_ row: Row, _ testCase: Case) {
        let context = "\(row.name), dispose \(testCase.rawValue)"
        let (server, client) = makeFixture()
        let unixPath = "\u{0}rxuv-fixture-\(getpid())"
        let unixServer = loop.rx.listen(unixPath: unixPath).subscribe(onNext: { connection in
            _ = connection.rx.data.subscribe(onError: { _ in })
        })
        let udp = Box<UDPSocket?>(nil)
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: 0).subscribe(onSuccess: { udp.value = $0 })
        spin(until: { udp.value != nil })
        let scratch = try! TemporaryDirectory("rxuv-sink")
        defer { scratch.remove() }
        let fixture = Fixture(loop: loop, server: server.address, client: client, unixPath: unixPath, udp: udp.value!, scratchDirectory: scratch.path)
        let events = Counter()
        switch testCase {
        case .beforeSubscribeCompletes:
            // Subscribed and disposed on another thread: the dispose wins
            // over the start the subscribe queued for the loop thread.
            // The other thread's references go before the leak gate runs: a
            // block GCD released later would release them off the loop thread.
            let done = DispatchSemaphore(value: 0)
            // Two boxes, not a tuple: see `Loop.hop`.
            let boxedRow = Box<Row?>(row)
            let boxedFixture = Box<Fixture?>(fixture)
            DispatchQueue.global().async {
                let subscription = boxedRow.value!.subscribe(boxedFixture.value!) { events.increment() }
                subscription.dispose()
                done.signal()
            }
            done.wait()
            boxedRow.value = nil
            boxedFixture.value = nil
            spin(for: 0.05)
            XCTAssertEqual(events.current, 0, "\(context): an event after dispose")
        case .insideOwnCallback:
            let subscription = SingleAssignmentDisposable()
            subscription.setDisposable(
                row.subscribe(fixture) {
                    events.increment()
                    subscription.dispose()
                })
            spin(until: { events.current > 0 })
            spin(for: 0.02)
            XCTAssertEqual(events.current, 1, "\(context): events after dispose")
        case .twice:
            let subscription = row.subscribe(fixture) { events.increment() }
            subscription.dispose()
            subscription.dispose()
        case .fromEightThreads:
            let subscription = row.subscribe(fixture) { events.increment() }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in subscription.dispose() }
        }
        server.subscription.dispose()
        unixServer.dispose()
        client.close()
        udp.value?.close()
        spin(until: { loop.openHandleCount == 0 })
        XCTAssertEqual(loop.openHandleCount, 0, "\(context): handles still open")
    }

    /// An echo server and a client connected to it. The server ignores a
    /// client's reset: closing a client with echoed bytes unread resets.
    private func makeFixture() -> (server: (address: SocketAddress, subscription: Disposable), client: TCPConnection) {
        let address = Shared<SocketAddress?>(nil)
        let subscription = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { address.value = $0 })
            .subscribe(onNext: { connection in
                _ = connection.rx.data.subscribe(onNext: { _ = connection.write($0).subscribe(onError: { _ in }) }, onError: { _ in })
            })
        let server = (address: address.value!, subscription: subscription)
        let client = Box<TCPConnection?>(nil)
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client.value = $0 })
        spin(until: { client.value != nil })
        return (server, client.value!)
    }

    /// Runs the loop without blocking until `condition` holds (at most 5 s).
    private func spin(until condition: () -> Bool) {
        let deadline = DispatchTime.now() + 5
        while !condition() && DispatchTime.now() < deadline {
            loop.runNoWait()
            usleep(500)
        }
    }

    /// Runs the loop without blocking for `seconds`.
    private func spin(for seconds: Double) {
        let deadline = DispatchTime.now() + seconds
        spin(until: { DispatchTime.now() >= deadline })
    }
}

/// Connects to `address` and closes the connection at once (a listener's
/// event for the listen rows). The connect's subscription ends by itself.
private func connectAndHangUp(_ loop: Loop, _ address: SocketAddress) {
    _ = loop.rx.connect(host: address.host, port: address.port).subscribe(onSuccess: { $0.close() }, onFailure: { _ in })
}

/// Connects to the Unix-domain socket `path` and closes the connection at once.
private func connectAndHangUp(_ loop: Loop, unixPath path: String) {
    _ = loop.rx.connect(unixPath: path).subscribe(onSuccess: { $0.close() }, onFailure: { _ in })
}
