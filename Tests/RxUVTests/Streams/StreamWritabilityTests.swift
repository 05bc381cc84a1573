import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `rx.writable` and `isWritable`: the writability signal of a stream.
final class StreamWritabilityTests: BridgeTestCase {
    /// The server writes 16 MiB (more than loopback buffers hold) to a client
    /// that does not read: the stream turns unwritable past the high
    /// watermark; once the client reads, the queue drains and it turns
    /// writable again. The client gets every byte.
    func testWritable_PeerStopsReadingThenDrains() {
        let payload = randomBytes(count: 16 << 20)
        var writability: [Bool] = []
        var received: [UInt8] = []
        var writeCompleted = false
        var client: TCPConnection?
        var serverIsUnwritable = false
        var isReading = false
        // The client reads only once the server's stream is unwritable.
        func startReadingIfBlocked() {
            guard serverIsUnwritable, !isReading, let client else { return }
            isReading = true
            _ = client.rx.data.subscribe(
                onNext: { bytes in bytes.withUnsafeBytes { received.append(contentsOf: $0) } },
                onCompleted: {
                    client.close()
                    listener?.dispose()
                })
        }
        let port = Shared(0)
        var listener: Disposable?
        listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                _ = connection.rx.writable.subscribe(onNext: { writable in
                    writability.append(writable)
                    XCTAssertEqual(connection.isWritable, writable)
                    if !writable {
                        serverIsUnwritable = true
                        startReadingIfBlocked()
                    }
                })
                _ = connection.write(ByteBuffer(payload)).andThen(connection.shutdown())
                    .subscribe(onCompleted: {
                        writeCompleted = true
                        connection.close()
                    })
            })
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: {
            client = $0
            startReadingIfBlocked()
        })
        runLoop(timeout: 60)
        XCTAssertEqual(writability, [true, false, true])
        XCTAssertTrue(writeCompleted)
        XCTAssertEqual(received.count, payload.count)
        XCTAssertTrue(received == payload, "the bytes differ")
        client = nil
    }

    func testWritable_CompletesWhenTheStreamCloses() {
        let (client, listener) = connectedPair()
        var events: [String] = []
        _ = client.rx.writable.subscribe(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
        client.close()
        listener.dispose()
        runLoop()
        XCTAssertEqual(events, ["true", "completed"])
        // Subscribed after the close: completes at once, without a value.
        var late: [String] = []
        _ = client.rx.writable.subscribe(onNext: { late.append("\($0)") }, onCompleted: { late.append("completed") })
        XCTAssertEqual(late, ["completed"])
    }

    /// A client connected to a server that holds (and never reads) its end.
    private func connectedPair() -> (client: TCPConnection, listener: Disposable) {
        let port = Shared(0)
        var held: [TCPConnection] = []
        let listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { held.append($0) })
        var client: TCPConnection?
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client = $0 })
        while client == nil || held.isEmpty {
            loop.runOnce()
        }
        held.forEach { $0.close() }
        return (client!, listener)
    }
}
