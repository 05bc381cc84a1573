import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

/// A read reuses the previous read's storage once nothing holds it: an echo
/// that writes each read back at once allocates no new buffer per read.
final class TCPReadStorageTests: BridgeTestCase {
    /// Echoes the first connection to the returned port, showing each read
    /// to `read` before it writes it back.
    private func echoFirstConnection(read: @escaping (ByteBuffer) -> Void) -> Int {
        var server: Disposable?
        let port = Shared(0)
        server = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .subscribe(onNext: { connection in
                _ = connection.rx.data
                    .flatMap { bytes -> Completable in
                        read(bytes)
                        return connection.write(bytes)
                    }
                    .subscribe()
                server?.dispose()
            })
        return port.value
    }

    func testRead_ReusesReleasedStorage() {
        var storages: [ObjectIdentifier] = []
        let port = echoFirstConnection { storages.append(ObjectIdentifier($0.storage)) }
        var echoes = 0
        _ = loop.rx.connect(host: "127.0.0.1", port: port).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { _ in
                echoes += 1
                if echoes == 4 {
                    client.close()
                } else {
                    _ = client.write("ping \(echoes)").subscribe()
                }
            })
            _ = client.write("ping 0").subscribe()
        })
        runLoop()
        XCTAssertEqual(echoes, 4)
        XCTAssertEqual(storages.count, 4)
        XCTAssertEqual(Set(storages).count, 1, "each read allocated new storage")
    }

    /// A large read (half the loop's 64 KiB read buffer or more) keeps the
    /// buffer it landed in instead of being copied out; the loop takes that
    /// buffer back for a later read once nothing holds it. The bytes stay
    /// exact, also while some reads are still held when later ones arrive.
    func testRead_LargeReadsKeepTheirBuffer_TakenBackOnceReleased_BytesExact() {
        let payload = randomBytes(count: 4 << 20)
        var largeReads = 0
        var largeStorages: Set<ObjectIdentifier> = []
        var held: [ByteBuffer] = []
        let port = echoFirstConnection { bytes in
            if bytes.count >= 32 * 1024 {
                largeReads += 1
                XCTAssertGreaterThanOrEqual(bytes.storage.capacity, 64 * 1024, "a large read was copied")
                largeStorages.insert(ObjectIdentifier(bytes.storage))
            }
            // Every third read is held a while: its buffer must not be
            // taken back under it.
            if largeReads % 3 == 0 { held.append(bytes) }
            if held.count > 4 { held.removeFirst() }
        }
        var received: [UInt8] = []
        received.reserveCapacity(payload.count)
        _ = loop.rx.connect(host: "127.0.0.1", port: port).subscribe(onSuccess: { client in
            _ = client.rx.data.subscribe(onNext: { bytes in
                received.append(contentsOf: bytes)
                if received.count == payload.count { client.close() }
            })
            _ = client.write(payload).subscribe()
        })
        runLoop(timeout: 30)
        held = []
        XCTAssertEqual(received.count, payload.count)
        XCTAssertTrue(received == payload, "the echoed bytes differ")
        XCTAssertGreaterThan(largeReads, 0, "no read of 32 KiB or more")
        XCTAssertLessThan(largeStorages.count, largeReads, "no read buffer was taken back")
    }
}
