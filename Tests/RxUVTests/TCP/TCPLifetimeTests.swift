import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class TCPLifetimeTests: BridgeTestCase {
    func testData_EOFCompletes() {
        let port = Shared(0)
        var server: Disposable?
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { connection in
            _ = connection.write("bye").subscribe(onCompleted: { connection.close() })
            server?.dispose()
        })
        var received = ""
        var completed = false
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { received += $0.string }, onCompleted: { completed = true })
        })
        runLoop()
        XCTAssertEqual(received, "bye")
        XCTAssertTrue(completed)
    }

    func testHalfClose_ShutdownThenStillRead() {
        // The server answers only after the client's FIN: it counts bytes
        // until EOF and then writes the count back.
        let port = Shared(0)
        var server: Disposable?
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { connection in
            server?.dispose()
            var total = 0
            let reader = connection.rx.data.subscribe(
                onNext: { total += $0.count },
                onCompleted: {
                    _ = connection.write("\(total)").subscribe()
                })
            _ = reader
        })
        var answer = ""
        var completed = false
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { answer += $0.string }, onCompleted: { completed = true })
            _ = client.write(randomBytes(count: 100_000)).andThen(client.shutdown()).subscribe()
        })
        runLoop()
        XCTAssertEqual(answer, "100000")
        XCTAssertTrue(completed)
    }

    func testDispose_ListenInsideItsOwnEventAndTwice() {
        let port = Shared(0)
        var accepted = 0
        var server: Disposable?
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { connection in
            accepted += 1
            connection.close()
            server?.dispose()
            server?.dispose()
        })
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { $0.close() })
        runLoop()
        XCTAssertEqual(accepted, 1)
        // The port is free again: listening on it succeeds.
        var failure: Error?
        let again = loop.rx.listen(host: "127.0.0.1", port: port.value).subscribe(onError: { failure = $0 })
        XCTAssertNil(failure)
        again.dispose()
        runLoop()
    }

    func testDispose_ListenFromAnotherThread() {
        let port = Shared(0)
        let server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe()
        XCTAssertNotEqual(port.value, 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.dispose()
            server.dispose()
            done.signal()
        }
        done.wait()
        runLoop()
        XCTAssertEqual(loop.openHandleCount, 0)
    }

    func testDispose_ConnectInFlight() {
        let server = startEchoServer(on: loop)
        var events = 0
        let connecting = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { _ in events += 1 }, onFailure: { _ in events += 1 })
        connecting.dispose()
        connecting.dispose()
        server.subscription.dispose()
        runLoop()
        XCTAssertEqual(events, 0)
    }

    func testDispose_ConnectDuringLookup() {
        var events = 0
        let connecting = loop.rx.connect(host: "localhost", port: 9).subscribe(onSuccess: { _ in events += 1 }, onFailure: { _ in events += 1 })
        connecting.dispose()
        runLoop(timeout: 30)
        XCTAssertEqual(events, 0)
    }

    func testDispose_ConnectFromAnotherThread() {
        let server = startEchoServer(on: loop)
        let loop = self.loop!
        let subscribed = DispatchSemaphore(value: 0)
        let events = Box(0)
        DispatchQueue.global().async {
            let connecting = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(
                onSuccess: { connection in
                    events.value += 1
                    connection.close()
                }, onFailure: { _ in events.value += 1 })
            connecting.dispose()
            loop.execute { server.subscription.dispose() }
            subscribed.signal()
        }
        subscribed.wait()
        runLoop()
        XCTAssertEqual(events.value, 0)
    }

    func testDispose_ReadInsideOnNextClosesTheConnection() {
        var serverSideClosed = false
        let server = startEchoServer(on: loop)
        var chunks = 0
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            var reading: Disposable?
            reading = client.rx.data.subscribe(onNext: { _ in
                chunks += 1
                reading?.dispose()
                reading?.dispose()
                serverSideClosed = client.isClosed
                server.subscription.dispose()
            })
            _ = client.write("ping").subscribe()
        })
        runLoop()
        XCTAssertEqual(chunks, 1)
        XCTAssertTrue(serverSideClosed)
    }

    func testDispose_ReadFromAnotherThread() {
        let server = startEchoServer(on: loop)
        let received = Box(0)
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            let reading = client.rx.data.subscribe(onNext: { _ in received.value += 1 })
            _ = client.write("ping").subscribe(onCompleted: {
                DispatchQueue.global().async {
                    reading.dispose()
                }
            })
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertLessThanOrEqual(received.value, 1)
    }

    func testConnection_DroppedWithoutReadingIsClosed() {
        let server = startEchoServer(on: loop)
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { _ in
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(loop.openHandleCount, 0)
    }
}
