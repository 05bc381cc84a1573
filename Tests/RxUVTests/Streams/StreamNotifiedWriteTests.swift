import Foundation
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `write(_:notifying:)`: a write with an observer and no `Completable`,
/// in order with the `Completable` writes, told its outcome once.
final class StreamNotifiedWriteTests: BridgeTestCase {
    /// Notified writes on the loop thread, of sizes the kernel takes at once
    /// and of 1 MiB ones it takes only in part (queued with `uv_write`),
    /// interleaved with `Completable` writes, arrive byte-exact and in
    /// order; each observer is told `completed` once.
    func testNotifiedWrites_ArriveInOrderWithCompletableWrites() {
        let server = startEchoServer(on: loop)
        let source = ByteBuffer(randomBytes(count: 3 << 20, seed: 11))
        let sizes = [1, 64, 1 << 20, 7, 4096, 1 << 20, 3]
        let outcomes = WriteOutcomes()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var completableWrites = 0
        var errors: [Error] = []
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            var offset = 0
            for (index, size) in sizes.enumerated() {
                let chunk = source.slice(at: offset, count: size)
                offset += size
                _ = client.write(chunk, notifying: outcomes.observer(index))
                chunk.withUnsafeBytes { expected.append(contentsOf: $0) }
                let marker = ByteBuffer(string: "<\(index)>")
                _ = client.write(marker).subscribe(onCompleted: { completableWrites += 1 }, onError: { errors.append($0) })
                expected += Array(marker)
            }
            finishEcho(
                client, server: server, received: { bytes in bytes.withUnsafeBytes { received.append(contentsOf: $0) } },
                failed: { errors.append($0) })
        })
        runLoop(timeout: 60)
        XCTAssertTrue(errors.isEmpty, "\(errors)")
        XCTAssertEqual(completableWrites, sizes.count)
        XCTAssertEqual(outcomes.events, Dictionary(uniqueKeysWithValues: sizes.indices.map { ($0, ["completed"]) }))
        XCTAssertEqual(received.count, expected.count)
        XCTAssertTrue(received == expected, "the echoed bytes differ")
    }

    /// Made while a read is handled, a second notified write is held with
    /// the read's other writes and told when they go out together.
    func testNotifiedWritesWhileHandlingARead_AreToldWhenTheBatchGoesOut() {
        let outcomes = WriteOutcomes()
        let echoed = Shared<[UInt8]>([])
        let listening = SerialDisposable()
        let onListening: @Sendable (SocketAddress) -> Void = { [loop] address in
            _ = loop.rx.connect(host: "127.0.0.1", port: address.port).subscribe(onSuccess: { client in
                _ = client.write(ByteBuffer(string: "ping")).subscribe()
                _ = client.rx.data.subscribe(
                    onNext: { bytes in echoed.value += Array(bytes) },
                    onError: { _ in listening.dispose() }, onCompleted: { listening.dispose() })
            })
        }
        listening.disposable = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: onListening)
            .subscribe(onNext: { connection in
                _ = connection.rx.data.subscribe(onNext: { bytes in
                    _ = connection.write(bytes, notifying: outcomes.observer(0))
                    _ = connection.write(ByteBuffer(string: "!"), notifying: outcomes.observer(1))
                    // Held, not yet told.
                    XCTAssertEqual(outcomes.events[1], nil)
                    connection.close(.afterWrites)
                })
            })
        runLoop()
        XCTAssertEqual(String(decoding: echoed.value, as: UTF8.self), "ping!")
        XCTAssertEqual(outcomes.events, [0: ["completed"], 1: ["completed"]])
    }

    /// On a closed connection the observer is told `ENOTCONN`, once.
    func testNotifiedWrite_OnAClosedConnectionIsToldENOTCONN() {
        let server = startEchoServer(on: loop)
        let outcomes = WriteOutcomes()
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { client in
            client.close()
            _ = client.write(ByteBuffer(string: "a"), notifying: outcomes.observer(0))
            server.subscription.dispose()
        })
        runLoop()
        XCTAssertEqual(outcomes.events, [0: ["error ENOTCONN"]])
    }

    /// From another thread the write is subscribed as `write(_:)` and goes
    /// out on the loop thread; the observer is told there.
    func testNotifiedWrite_FromAnotherThread() {
        let server = startEchoServer(on: loop)
        let outcomes = WriteOutcomes()
        var received = ""
        _ = loop.rx.connect(host: "127.0.0.1", port: server.address.port).subscribe(onSuccess: { [loop] client in
            _ = client.rx.data.subscribe(onNext: { bytes in
                received += String(decoding: Array(bytes), as: UTF8.self)
                if received == "from afar" {
                    client.close()
                    server.subscription.dispose()
                }
            })
            let sent = UncheckedBox(client)
            Thread.detachNewThread {
                _ = sent.value.write(ByteBuffer(string: "from afar"), notifying: outcomes.observer(0, expectingThreadOf: loop))
            }
        })
        runLoop()
        XCTAssertEqual(received, "from afar")
        XCTAssertEqual(outcomes.events, [0: ["completed"]])
        XCTAssertEqual(outcomes.offLoopThread, 0)
    }
}

/// What each notified write was told, by index.
private final class WriteOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int: [String]] = [:]
    private var strays = 0

    var events: [Int: [String]] {
        lock.withLock { recorded }
    }

    /// Events told off the loop thread they were expected on.
    var offLoopThread: Int {
        lock.withLock { strays }
    }

    func observer(_ index: Int, expectingThreadOf loop: Loop? = nil) -> AnyObserver<Never> {
        AnyObserver { [self] event in
            let text: String
            switch event {
            case .completed: text = "completed"
            case .error(let error): text = "error \((error as? UVError)?.code.name ?? "\(error)")"
            }
            let stray = loop.map { !$0.isOnLoopThread } ?? false
            lock.withLock {
                recorded[index, default: []].append(text)
                if stray { strays += 1 }
            }
        }
    }
}

/// A value handed to another thread in a test.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
