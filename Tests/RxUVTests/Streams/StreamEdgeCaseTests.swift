import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// Edge cases of the stream layer: a vectored write cut after its first
/// buffers, writes disposed before they reach the loop thread, a read
/// subscription disposed before it started.
final class StreamEdgeCaseTests: BridgeTestCase {
    /// A small header and large bodies: the kernel takes more than the first
    /// buffers at once, so the rest is queued from inside a later buffer.
    func testVectoredWrite_CutPastItsFirstBuffers_ArrivesByteExact() {
        let server = startEchoServer(on: loop)
        let body = ByteBuffer(randomBytes(count: 4 << 20, seed: 3))
        let parts = [ByteBuffer(string: "header-10!"), ByteBuffer(randomBytes(count: 100, seed: 4)), body, ByteBuffer(string: "end"), body]
        var expected: [UInt8] = []
        for _ in 0..<3 {
            for part in parts { part.withUnsafeBytes { expected.append(contentsOf: $0) } }
        }
        var received: [UInt8] = []
        var errors: [Error] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            for _ in 0..<3 {
                _ = client.write(parts).subscribe(onError: { errors.append($0) })
            }
            finishEcho(
                client, server: server, received: { chunk in chunk.withUnsafeBytes { received.append(contentsOf: $0) } },
                failed: { errors.append($0) })
        })
        runLoop(timeout: 60)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(received.count, expected.count)
        XCTAssertTrue(received == expected, "the echoed bytes differ")
    }

    /// Writes subscribed on another thread, the first disposed at once: all
    /// three still go out, in order (a write cannot be taken back; disposing
    /// only stops its notification).
    func testWrites_DisposedBeforeReachingTheLoopThread_StillGoOutInOrder() {
        let server = startEchoServer(on: loop)
        var client: TCPConnection?
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client = $0 })
        while client == nil { loop.runOnce() }
        let connection = client!
        var received = ""
        _ = connection.rx.data.subscribe(onNext: { chunk in
            received += chunk.string
            if received.count >= 9 {
                connection.close()
                server.subscription.dispose()
            }
        })
        onAnotherThread(connection) { connection in
            connection.write("one").subscribe().dispose()
            _ = connection.write("two").subscribe()
            _ = connection.write("six").subscribe()
        }
        runLoop()
        XCTAssertEqual(received, "onetwosix")
    }

    /// A `data` subscription disposed before it reached the loop thread still
    /// ends the connection, as its documentation says: the peer sees EOF.
    func testData_DisposedBeforeItStarted_ClosesTheConnection() {
        let port = Shared(0)
        var peerSawEnd = false
        var held: [TCPConnection] = []
        let listener = SingleAssignmentDisposable()
        listener.setDisposable(
            loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port }).subscribe(onNext: { accepted in
                held.append(accepted)
                _ = accepted.rx.data.subscribe(onCompleted: {
                    peerSawEnd = true
                    listener.dispose()
                })
            }))
        var client: TCPConnection?
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client = $0 })
        while client == nil { loop.runOnce() }
        let connection = client!
        onAnotherThread(connection) { connection in
            connection.rx.data.subscribe().dispose()
        }
        runLoop()
        XCTAssertTrue(peerSawEnd)
        XCTAssertTrue(connection.isClosed)
        held.removeAll()
    }

    /// Runs `body` with `connection` on another thread and waits for it. The
    /// other thread's reference is dropped before this returns (a block
    /// that GCD released later would release the connection off the loop
    /// thread after the test, racing the leak gate).
    private func onAnotherThread(_ connection: TCPConnection, _ body: @escaping @Sendable (TCPConnection) -> Void) {
        let box = Box<TCPConnection?>(connection)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body(box.value!)
            done.signal()
        }
        done.wait()
        box.value = nil
    }

    /// Ports outside 0...65535 fail with EINVAL instead of being truncated.
    func testPortsOutOfRange_FailWithEINVAL() {
        var failures: [String] = []
        let record: (Error) -> Void = { failures.append(($0 as? UVError).map { "\($0.operation) \($0.name)" } ?? "\($0)") }
        _ = loop.rx.listen(host: "127.0.0.1", port: 70_000).subscribe(onError: record)
        _ = loop.rx.listen(host: "localhost", port: -1).subscribe(onError: record)
        _ = loop.rx.connect(host: "127.0.0.1", port: 65_536).subscribe(onFailure: record)
        _ = loop.rx.bindUDP(host: "127.0.0.1", port: 70_000).subscribe(onFailure: record)
        _ = loop.rx.resolve(host: "localhost", port: 99_999).subscribe(onFailure: record)
        runLoop()
        XCTAssertEqual(failures, ["bind EINVAL", "bind EINVAL", "uv_tcp_connect EINVAL", "uv_udp_bind EINVAL", "uv_getaddrinfo EINVAL"])
    }
}
