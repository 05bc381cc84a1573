import RxCore
import RxUV
import RxUVTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Unix-domain sockets: `loop.rx.listen(unixPath:)`, `listen(unixSocket:)`
/// and `connect(unixPath:)`, over file-system paths in a temporary directory
/// and over abstract names.
final class LoopUnixTests: BridgeTestCase {
    private var temporary: TemporaryDirectory!
    private var directory: String { temporary.path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        temporary = try TemporaryDirectory("rxuv-unix")
    }

    override func tearDownWithError() throws {
        temporary.remove()
        try super.tearDownWithError()
    }

    private func path(_ name: String) -> String {
        "\(directory)/\(name)"
    }

    /// An abstract name no other test run uses.
    private func abstractName() -> String {
        "\u{0}rxuv-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    // MARK: Echo

    func testEcho_OverAPathByteExactAndTheFileGoesWithTheListener() {
        let socketPath = path("echo.sock")
        let received = echo(randomBytes(count: 1 << 20), through: socketPath)
        XCTAssertEqual(received.count, 1 << 20)
        XCTAssertTrue(received == randomBytes(count: 1 << 20), "the echoed bytes differ")
        XCTAssertFalse(fileExists(socketPath), "libuv removes the socket file when the listener closes")
    }

    func testEcho_OverAnAbstractNameCreatesNoFile() {
        let name = abstractName()
        let received = echo(Array("over an abstract name".utf8), through: name)
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "over an abstract name")
        XCTAssertEqual(DirectoryListing.entries(of: directory), [])
    }

    /// Listens on `socketPath` with an echo, sends `bytes` from a client,
    /// half-closes, and returns what came back.
    private func echo(_ bytes: [UInt8], through socketPath: String) -> [UInt8] {
        var received: [UInt8] = []
        var errors: [String] = []
        let listener = SingleAssignmentDisposable()
        listener.setDisposable(
            loop.rx.listen(unixPath: socketPath).subscribe(
                onNext: { connection in
                    _ = connection.rx.data.subscribe(onNext: { _ = connection.write($0).subscribe() })
                }, onError: { errors.append("listen: \($0)") }))
        _ = loop.rx.connect(unixPath: socketPath).subscribe(
            onSuccess: { client in
                _ = client.write(ByteBuffer(bytes)).andThen(client.shutdown()).subscribe(onError: { errors.append("write: \($0)") })
                _ = client.rx.data.subscribe(
                    onNext: { chunk in chunk.withUnsafeBytes { received.append(contentsOf: $0) } },
                    onError: { errors.append("read: \($0)") },
                    onCompleted: { listener.dispose() })
            },
            onFailure: {
                errors.append("connect: \($0)")
                listener.dispose()
            })
        runLoop()
        XCTAssertEqual(errors, [])
        return received
    }

    // MARK: Paths

    func testListen_ReplacesAStaleSocketFile() throws {
        let socketPath = path("stale.sock")
        // A socket bound and closed without unlinking: what a crashed server leaves.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(bindUnix(descriptor, socketPath), 0)
        close(descriptor)
        XCTAssertTrue(fileExists(socketPath))
        let received = echo(Array("fresh".utf8), through: socketPath)
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "fresh")
    }

    func testListen_ALiveServersFileSurvivesASecondListen() {
        let socketPath = path("live.sock")
        let first = loop.rx.listen(unixPath: socketPath).subscribe(onNext: { $0.close() })
        var failure: UVError?
        _ = loop.rx.listen(unixPath: socketPath).subscribe(onError: { failure = $0 as? UVError })
        XCTAssertEqual(failure?.code, .addressInUse)
        XCTAssertTrue(fileExists(socketPath))
        // The first server still answers.
        var connected = false
        _ = loop.rx.connect(unixPath: socketPath).subscribe(onSuccess: { client in
            connected = true
            client.close()
            first.dispose()
        })
        runLoop()
        XCTAssertTrue(connected)
    }

    func testListen_AFileThatIsNotASocketIsLeftAlone() {
        let filePath = path("data.txt")
        let file = fopen(filePath, "w")
        fputs("keep me", file)
        fclose(file)
        var failure: UVError?
        _ = loop.rx.listen(unixPath: filePath).subscribe(onError: { failure = $0 as? UVError })
        runLoop()
        XCTAssertEqual(failure?.code, .addressInUse)
        var status = stat()
        XCTAssertEqual(stat(filePath, &status), 0)
        XCTAssertEqual(status.st_size, 7)
    }

    func testPaths_TooLongGiveENAMETOOLONG() {
        let long = path(String(repeating: "x", count: 200))
        var failures: [String] = []
        _ = loop.rx.listen(unixPath: long).subscribe(onError: { failures.append(($0 as? UVError)?.name ?? "\($0)") })
        _ = loop.rx.connect(unixPath: long).subscribe(onFailure: { failures.append(($0 as? UVError)?.name ?? "\($0)") })
        _ = loop.rx.listen(unixPath: "\u{0}" + String(repeating: "y", count: 200)).subscribe(onError: { failures.append(($0 as? UVError)?.name ?? "\($0)") })
        runLoop()
        XCTAssertEqual(failures, ["ENAMETOOLONG", "ENAMETOOLONG", "ENAMETOOLONG"])
        XCTAssertFalse(fileExists(long))
    }

    func testListen_ModeIsInPlaceBeforeAnyoneCanConnect() {
        let socketPath = path("private.sock")
        let modeAtListening = Shared<mode_t>(0)
        let listener = loop.rx.listen(
            unixPath: socketPath, mode: 0o600,
            onListening: { path in
                var status = stat()
                stat(path, &status)
                modeAtListening.value = status.st_mode & 0o777
            }
        ).subscribe()
        XCTAssertEqual(modeAtListening.value, 0o600)
        listener.dispose()
        runLoop()
    }

    func testConnect_NoSocketAndNobodyListening() {
        let stalePath = path("stale.sock")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(bindUnix(descriptor, stalePath), 0)
        close(descriptor)
        var missing: UVError?
        var stale: UVError?
        var abstract: UVError?
        _ = loop.rx.connect(unixPath: path("missing.sock")).subscribe(onFailure: { missing = $0 as? UVError })
        _ = loop.rx.connect(unixPath: stalePath).subscribe(onFailure: { stale = $0 as? UVError })
        _ = loop.rx.connect(unixPath: abstractName()).subscribe(onFailure: { abstract = $0 as? UVError })
        runLoop()
        XCTAssertEqual(missing?.code, .noSuchFileOrDirectory)
        XCTAssertTrue(missing?.description.contains("missing.sock: ENOENT") ?? false, "\(String(describing: missing))")
        XCTAssertEqual(stale?.code, .connectionRefused)
        XCTAssertEqual(abstract?.code, .connectionRefused)
        XCTAssertTrue(abstract?.description.contains("@rxuv-test-") ?? false, "\(String(describing: abstract))")
    }

    // MARK: Credentials and socket activation

    func testPeerCredentials_AreThisProcesssOnBothEnds() {
        let socketPath = path("creds.sock")
        var serverSees: PeerCredentials?
        var clientSees: PeerCredentials?
        var clientPeerPath: String?
        var serverLocalPath: String?
        let listener = SingleAssignmentDisposable()
        listener.setDisposable(
            loop.rx.listen(unixPath: socketPath).subscribe(onNext: { connection in
                serverSees = connection.peerCredentials
                serverLocalPath = connection.localPath
                connection.close()
                listener.dispose()
            }))
        _ = loop.rx.connect(unixPath: socketPath).subscribe(onSuccess: { client in
            clientSees = client.peerCredentials
            clientPeerPath = client.peerPath
            client.close()
        })
        runLoop()
        let me = PeerCredentials(processID: getpid(), userID: geteuid(), groupID: getegid())
        XCTAssertEqual(serverSees, me)
        XCTAssertEqual(clientSees, me)
        XCTAssertEqual(clientPeerPath, socketPath)
        XCTAssertEqual(serverLocalPath, socketPath)
    }

    func testListen_OnAnInheritedDescriptor() {
        let socketPath = path("activated.sock")
        // What a service manager hands over: bound and listening.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(bindUnix(descriptor, socketPath), 0)
        XCTAssertEqual(Glibc.listen(descriptor, 16), 0)
        var answered = ""
        let listener = SingleAssignmentDisposable()
        listener.setDisposable(
            loop.rx.listen(unixSocket: descriptor).subscribe(onNext: { connection in
                _ = connection.write("activated").andThen(connection.shutdown()).subscribe()
                _ = connection.rx.data.subscribe()
            }))
        _ = loop.rx.connect(unixPath: socketPath).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { answered += $0.string }, onCompleted: { listener.dispose() })
        })
        runLoop()
        XCTAssertEqual(answered, "activated")
        // The listener took the descriptor and closed it.
        XCTAssertEqual(fcntl(descriptor, F_GETFD), -1)
    }

    func testListen_AnInheritedDescriptorIsTakenOnce() {
        let socketPath = path("once.sock")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertEqual(bindUnix(descriptor, socketPath), 0)
        let listener = loop.rx.listen(unixSocket: descriptor)
        var second: UVError?
        let first = listener.subscribe()
        _ = listener.subscribe(onError: { second = $0 as? UVError })
        first.dispose()
        runLoop()
        XCTAssertEqual(second?.code, .badFileDescriptor)
        XCTAssertTrue(second?.description.contains("taken by an earlier subscription") ?? false, "\(String(describing: second))")
    }

    func testListen_ANonSocketDescriptorFails() {
        var failure: UVError?
        let descriptor = open("/dev/null", O_RDONLY)
        _ = loop.rx.listen(unixSocket: descriptor).subscribe(onError: { failure = $0 as? UVError })
        runLoop()
        XCTAssertNotNil(failure)
        XCTAssertEqual(failure?.operation, "listen")
        // The listener took the descriptor, failing or not, and closed it.
        XCTAssertEqual(fcntl(descriptor, F_GETFD), -1)
    }

    // MARK: Helpers

    private func fileExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private func bindUnix(_ descriptor: Int32, _ path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
