import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class TCPErrorTests: BridgeTestCase {
    /// A loopback port on which nobody listens: bound, then released.
    private func closedPort() -> Int {
        let port = Shared(0)
        let subscription = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe()
        subscription.dispose()
        loop.runNoWait()
        return port.value
    }

    func testConnect_Refused() {
        let port = closedPort()
        var failure: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: port).subscribe(onSuccess: { _ in XCTFail("connected") }, onFailure: { failure = $0 as? UVError })
        runLoop()
        XCTAssertEqual(failure?.name, "ECONNREFUSED")
        XCTAssertEqual(failure?.operation, "uv_tcp_connect")
        XCTAssertEqual(failure?.address, "127.0.0.1:\(port)")
    }

    func testConnect_BadHostAndPort() {
        var failures: [String] = []
        _ = loop.rx.connect(host: "no-such-host.invalid", port: 80).subscribe(onFailure: { failures.append(($0 as? UVError)?.operation ?? "\($0)") })
        _ = loop.rx.connect(host: "127.0.0.1", port: 70_000).subscribe(onFailure: { failures.append(($0 as? UVError)?.name ?? "\($0)") })
        runLoop(timeout: 30)
        XCTAssertEqual(failures.sorted(), ["EINVAL", "uv_getaddrinfo"])
    }

    func testConnect_ResolvesLocalhost() {
        let server = startEchoServer(on: loop)
        var connected = false
        _ = loop.rx.connect(host: "localhost", port: server.address.port).subscribe(
            onSuccess: { client in
                connected = true
                client.close()
                server.subscription.dispose()
            },
            onFailure: { error in
                server.subscription.dispose()
                XCTFail("localhost failed: \(error)")
            })
        runLoop(timeout: 30)
        XCTAssertTrue(connected)
    }

    func testListen_AddressInUseIsSynchronousError() {
        let server = startEchoServer(on: loop)
        var failure: UVError?
        _ = loop.rx.listen(host: "127.0.0.1", port: server.address.port).subscribe(onError: { failure = $0 as? UVError })
        XCTAssertEqual(failure?.name, "EADDRINUSE")
        XCTAssertEqual(failure?.address, server.address.description)
        server.subscription.dispose()
        runLoop()
    }

    func testListen_AddressNotAvailable() {
        var failure: UVError?
        _ = loop.rx.listen(host: "192.0.2.1", port: 0).subscribe(onError: { failure = $0 as? UVError })
        runLoop()
        XCTAssertEqual(failure?.name, "EADDRNOTAVAIL")
    }

    func testRead_PeerResetIsAnError() {
        let port = Shared(0)
        var resetServer: Disposable?
        // The server resets the connection once the client's first bytes arrive.
        resetServer = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { connection in
            _ = connection.rx.data.subscribe(onNext: { _ in
                connection.reset()
                resetServer?.dispose()
            })
        })
        var failure: UVError?
        var completed = false
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onError: { failure = $0 as? UVError }, onCompleted: { completed = true })
            _ = client.write("hello").subscribe(onError: { _ in })
        })
        runLoop()
        XCTAssertFalse(completed)
        XCTAssertEqual(failure?.name, "ECONNRESET")
        XCTAssertEqual(failure?.operation, "uv_read")
    }

    func testWrite_ToClosedPeerIsAnErrorAndTheProcessLives() {
        let port = Shared(0)
        var server: Disposable?
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { connection in
            connection.close()
            server?.dispose()
        })
        var writeError: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            // Wait until the peer's close arrives, then keep writing.
            _ = client.rx.data.subscribe(onCompleted: {
                let chunk = ByteBuffer(randomBytes(count: 64 * 1024))
                func writeAgain(_ remaining: Int) {
                    guard remaining > 0 else { return }
                    _ = client.write(chunk).subscribe(onCompleted: { writeAgain(remaining - 1) }, onError: { writeError = $0 as? UVError })
                }
                writeAgain(100)
            })
        })
        runLoop(timeout: 30)
        XCTAssertNotNil(writeError)
        XCTAssertTrue(["EPIPE", "ECONNRESET", "ENOTCONN", "ECANCELED"].contains(writeError?.name ?? ""), "\(String(describing: writeError))")
    }

    func testWrite_AfterCloseIsNotConnected() {
        let server = startEchoServer(on: loop)
        var failure: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            client.close()
            client.close()
            _ = client.write("late").subscribe(onError: { failure = $0 as? UVError })
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(failure?.name, "ENOTCONN")
    }

    func testData_SecondReaderIsBusy() {
        let server = startEchoServer(on: loop)
        var failure: UVError?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            let first = client.rx.data.subscribe()
            _ = client.rx.data.subscribe(onError: { failure = $0 as? UVError })
            first.dispose()
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(failure?.name, "EBUSY")
    }
}
