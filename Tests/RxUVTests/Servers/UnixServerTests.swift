import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `serve(unixPath:)`: a `Server` on a Unix-domain socket, spread over a
/// `LoopGroup` of 2, with clients on the test's own loop.
final class UnixServerTests: BridgeTestCase {
    private var group: LoopGroup!
    private var temporary: TemporaryDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        group = try LoopGroup(threads: 2)
        temporary = try TemporaryDirectory("rxuv-unix-server")
    }

    override func tearDownWithError() throws {
        XCTAssertNoThrow(try group.shutdown())
        group = nil
        temporary.remove()
        try super.tearDownWithError()
    }

    private func path(_ name: String) -> String {
        "\(temporary.path)/\(name)"
    }

    /// An echo that stops reading when the server quiesces, counting each
    /// connection's loop and checking the connection it was handed.
    private func echo(perLoop: Shared<[Int]>, socketPath: String) -> @Sendable (ServedConnection<UnixConnection>) -> Completable {
        let loops = group.loops
        return { served in
            let index = loops.firstIndex { $0 === served.loop } ?? 0
            perLoop.mutate { $0[index] += 1 }
            XCTAssertTrue(served.loop.isOnLoopThread)
            XCTAssertEqual(served.connection.localPath, socketPath)
            XCTAssertEqual(served.connection.peerCredentials?.processID, getpid())
            return served.connection.rx.data
                .take(until: served.quiesce)
                .flatMap { served.connection.write($0).asObservable() }
                .asCompletable()
        }
    }

    /// Serves on `socketPath` and waits for the result.
    private func serve(
        _ socketPath: String, mode: mode_t? = nil, options: ServerOptions = ServerOptions(),
        handler: @escaping @Sendable (ServedConnection<UnixConnection>) -> Completable
    ) -> Result<Server, UVError> {
        let result = Shared<Result<Server, UVError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        _ = group.rx.serve(unixPath: socketPath, mode: mode, options: options, handler: handler).subscribe(
            onSuccess: {
                result.value = .success($0)
                done.signal()
            },
            onFailure: {
                result.value = .failure($0 as! UVError)
                done.signal()
            })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        return result.value ?? .failure(UVError(code: .timedOut, operation: "serve"))
    }

    private func drain(_ server: Server) {
        let done = DispatchSemaphore(value: 0)
        _ = server.drain(deadline: .seconds(0)).subscribe(onCompleted: { done.signal() })
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the drain did not end")
    }

    /// `count` clients of `socketPath`, each checking its echo.
    private func echoClients(_ count: Int, socketPath: String) -> Int {
        echoClients(count, maxConcurrent: 100, timeout: 30) { $0.rx.connect(unixPath: socketPath) }
    }

    func testUnixServer_SpreadsOverLoopsEchoesAndRemovesItsFile() throws {
        let socketPath = path("echo.sock")
        let perLoop = Shared([0, 0])
        let server = try serve(socketPath, handler: echo(perLoop: perLoop, socketPath: socketPath)).get()
        XCTAssertEqual(server.address, ServerAddress.unix(socketPath))
        XCTAssertEqual(server.address.description, "unix:\(socketPath)")
        XCTAssertEqual(server.address.port, 0)
        XCTAssertEqual(echoClients(400, socketPath: socketPath), 400)
        XCTAssertEqual(server.servedCount, 400)
        drain(server)
        let counts = perLoop.value
        XCTAssertEqual(counts.reduce(0, +), 400)
        XCTAssertEqual(counts, [200, 200], "round robin over two loops")
        XCTAssertEqual(temporary.entries, [], "the socket file goes when the server stops accepting")
    }

    func testUnixServer_MaxConnectionsRefusesTheOneTooMany() throws {
        let socketPath = path("limit.sock")
        var options = ServerOptions()
        options.maxConnections = 1
        let server = try serve(socketPath, options: options, handler: echo(perLoop: Shared([0, 0]), socketPath: socketPath)).get()
        var firstEcho = ""
        var secondEnded = false
        var first: UnixConnection?
        _ = loop.rx.connect(unixPath: socketPath).subscribe(onSuccess: { client in
            first = client
            // The first keeps reading, so it stays open (ending its read
            // subscription would close it) until the second has been refused.
            _ = client.rx.data.subscribe(onNext: { bytes in
                guard firstEcho.isEmpty else { return }
                firstEcho = bytes.string
                // With the first one held open, the second is one too many.
                _ = self.loop.rx.connect(unixPath: socketPath).asObservable()
                    .flatMap { $0.rx.data }
                    .subscribe(
                        onError: { _ in
                            secondEnded = true
                            first?.close()
                        },
                        onCompleted: {
                            secondEnded = true
                            first?.close()
                        })
            })
            _ = client.write("held\n").subscribe()
        })
        runLoop(timeout: 10)
        XCTAssertEqual(firstEcho, "held\n")
        XCTAssertTrue(secondEnded, "the refused client sees its connection end")
        XCTAssertEqual(server.refusedCount, 1)
        first = nil
        drain(server)
    }

    func testUnixServer_StaleSocketIsReplacedALiveOneAndAFileAreNot() throws {
        let socketPath = path("stale.sock")
        // A socket file nobody listens on any more.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        close(stale)

        let server = try serve(socketPath, handler: echo(perLoop: Shared([0, 0]), socketPath: socketPath)).get()
        XCTAssertEqual(echoClients(4, socketPath: socketPath), 4)
        guard case .failure(let live) = serve(socketPath, handler: { _ in .empty() }) else {
            return XCTFail("a second server on a live socket")
        }
        XCTAssertEqual(live.code, .addressInUse)
        drain(server)

        let regular = path("regular")
        let file = open(regular, O_CREAT | O_WRONLY, 0o600)
        close(file)
        guard case .failure(let notSocket) = serve(regular, handler: { _ in .empty() }) else {
            return XCTFail("a server over a regular file")
        }
        XCTAssertEqual(notSocket.code, .addressInUse)
        XCTAssertEqual(temporary.entries, ["regular"], "the regular file is left alone")
    }

    func testUnixServer_ModeIsSetBeforeItListens() throws {
        let socketPath = path("private.sock")
        let server = try serve(socketPath, mode: 0o600, handler: { _ in .empty() }).get()
        var status = stat()
        XCTAssertEqual(lstat(socketPath, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        drain(server)
    }

    func testUnixServer_AbstractNameAndBadPaths() throws {
        let name = "\u{0}rxuv-server-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let server = try serve(name, handler: echo(perLoop: Shared([0, 0]), socketPath: name)).get()
        XCTAssertEqual(echoClients(10, socketPath: name), 10)
        drain(server)
        XCTAssertEqual(temporary.entries, [])

        var reusePort = ServerOptions()
        reusePort.distribution = .reusePort
        let cases: [(String, ServerOptions, UVError.Code)] = [
            (path("reuse.sock"), reusePort, .invalidArgument),
            ("", ServerOptions(), .invalidArgument),
            (path(String(repeating: "x", count: 200)), ServerOptions(), .nameTooLong),
            ("/nonexistent-directory/x.sock", ServerOptions(), .noSuchFileOrDirectory),
        ]
        for (socketPath, options, code) in cases {
            guard case .failure(let error) = serve(socketPath, options: options, handler: { _ in .empty() }) else {
                XCTFail("\(socketPath): served")
                continue
            }
            XCTAssertEqual(error.code, code, "\(socketPath): \(error)")
        }
    }
}
