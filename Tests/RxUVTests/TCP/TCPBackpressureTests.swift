import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class TCPBackpressureTests: BridgeTestCase {
    /// A client sends 8 MiB but reads nothing for a while: the echo server's
    /// write queue stays near its high watermark (reads paused), and once the
    /// client reads, everything arrives byte-exact.
    func testBackpressure_PeerThatDoesNotReadHoldsBoundedMemory() {
        var serverConnection: TCPConnection?
        var maximumQueue = 0
        let server = startEchoServer(on: loop) { connection in
            serverConnection = connection
        }
        // Sample the server's queue every millisecond while the test runs.
        let sampler = loop.rx.timer(after: .milliseconds(1), repeating: .milliseconds(1)).subscribe(onNext: { _ in
            maximumQueue = max(maximumQueue, serverConnection?.writeQueueSize ?? 0)
        })
        let payload = randomBytes(count: 8 << 20)
        var received: [UInt8] = []
        received.reserveCapacity(payload.count)
        var queueWhileNotReading = 0
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            _ = client.write(payload).andThen(client.shutdown()).subscribe()
            // Start reading only after 300 ms.
            _ = self.loop.rx.timer(after: .milliseconds(300)).subscribe(onNext: { _ in
                queueWhileNotReading = maximumQueue
                _ = client.rx.data.subscribe(
                    onNext: { received.append(contentsOf: $0) },
                    onCompleted: {
                        sampler.dispose()
                        server.subscription.dispose()
                    })
            })
        })
        runLoop(timeout: 60)
        XCTAssertEqual(received.count, payload.count)
        XCTAssertTrue(received == payload, "echoed bytes differ")
        // The queue may pass the high watermark by at most one read (64 KiB).
        let bound = 64 * 1024 + 64 * 1024
        XCTAssertGreaterThan(queueWhileNotReading, 0, "the server never queued: the test did not exercise backpressure")
        XCTAssertLessThanOrEqual(queueWhileNotReading, bound)
        XCTAssertLessThanOrEqual(maximumQueue, bound)
    }
}
