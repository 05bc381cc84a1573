import Dispatch
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

/// A stream that is not a libuv handle: it wraps another stream and XORs
/// every byte with `key`, both ways.
private final class XORStream: ForwardingStream, @unchecked Sendable {
    let key: UInt8

    init(_ inner: any ByteStream, key: UInt8) {
        self.key = key
        super.init(inner)
    }

    private func xored(_ bytes: ByteBuffer) -> ByteBuffer {
        ByteBuffer(bytes.map { $0 ^ key })
    }

    override var receivedData: Observable<ByteBuffer> {
        let key = self.key
        return inner.receivedData.map { bytes in ByteBuffer(bytes.map { $0 ^ key }) }
    }
    override func startWrite<Observer: ObserverType>(_ payload: StreamWritePayload, notifying observer: Observer) -> Disposable where Observer.Element == Never {
        switch payload {
        case .one(let bytes): inner.startWrite(.one(xored(bytes)), notifying: observer)
        case .many(let buffers): inner.startWrite(.many(buffers.map(xored)), notifying: observer)
        }
    }

    /// Readers of the inner stream that XOR what it reads, by the reader
    /// they read for. Loop thread.
    private var readers: [ObjectIdentifier: XORReader] = [:]

    override func beginReading(_ reader: any ByteStreamReader) {
        let xoring = XORReader(reader, key: key)
        readers[ObjectIdentifier(reader)] = xoring
        inner.beginReading(xoring)
    }

    override func endReading(_ reader: any ByteStreamReader) {
        guard let xoring = readers.removeValue(forKey: ObjectIdentifier(reader)) else { return }
        inner.endReading(xoring)
    }
}

/// Reads the inner stream of an `XORStream` for one of its readers.
private final class XORReader: ByteStreamReader {
    let outer: any ByteStreamReader
    let key: UInt8

    init(_ outer: any ByteStreamReader, key: UInt8) {
        self.outer = outer
        self.key = key
    }

    func received(_ bytes: ByteBuffer) {
        outer.received(ByteBuffer(bytes.map { $0 ^ key }))
    }

    func readComplete() {
        outer.readComplete()
    }

    func ended(_ error: (any Error)?) {
        outer.ended(error)
    }
}

/// The stream face proven with a second implementation: a `Server` on two
/// loops serves `XORStream`s made by its per-connection factory, the
/// handler frames them with `lines`, clients speak XOR too, and a graceful
/// shutdown drains them; nothing outside this file knows the type.
final class XORStreamTests: BridgeTestCase {
    private static let key: UInt8 = 0x5A

    func testXORStream_ServedOnTwoLoops_FramedByLines_DrainedGracefully() throws {
        let group = try LoopGroup(threads: 2)
        defer { XCTAssertNoThrow(try group.shutdown()) }
        let shutdown = group.rx.gracefulShutdown(on: [], deadline: .seconds(5))
        let perLoop = Mutex([0, 0])
        let loops = group.loops
        let started = DispatchSemaphore(value: 0)
        let port = Shared(0)
        _ = group.rx.serve(
            host: "127.0.0.1", port: 0,
            connection: { XORStream($0, key: Self.key) },
            handler: { served in
                let index = loops.firstIndex { $0 === served.loop } ?? 0
                perLoop.withLock { $0[index] += 1 }
                return served.connection.rx.data
                    .lines(maxLength: 1024)
                    .take(until: served.quiesce)
                    .concatMap { line in served.connection.write("echo: \(line.string)\n").asObservable() }
                    .asCompletable()
            }
        ).subscribe(onSuccess: { server in
            shutdown.add(server)
            port.value = server.address.port
            started.signal()
        })
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)

        // Clients on the test's loop, XOR on their side too: each sends two
        // lines, reads both answers, then waits for the drain to end it.
        let clients = 8
        var answers: [[String]] = Array(repeating: [], count: clients)
        var ended = 0
        var connections: [XORStream] = []
        for client in 0..<clients {
            _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { connection in
                let stream = XORStream(connection, key: Self.key)
                connections.append(stream)
                _ = stream.rx.data.lines(maxLength: 1024).subscribe(
                    onNext: { line in
                        answers[client].append(line.string)
                        if answers.allSatisfy({ $0.count == 2 }) {
                            shutdown.begin()
                        }
                    },
                    onCompleted: { ended += 1 })
                _ = stream.write([ByteBuffer(string: "hello \(client)\n"), ByteBuffer(string: "bye \(client)\n")]).subscribe()
            })
        }
        runLoop()
        let done = DispatchSemaphore(value: 0)
        _ = shutdown.completed.subscribe(onCompleted: { done.signal() })
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "the graceful shutdown did not complete")
        connections.removeAll()

        for client in 0..<clients {
            XCTAssertEqual(answers[client], ["echo: hello \(client)", "echo: bye \(client)"])
        }
        XCTAssertEqual(ended, clients, "a client was not ended by the drain")
        XCTAssertEqual(perLoop.withLock { $0 }.reduce(0, +), clients)
        XCTAssertTrue(perLoop.withLock { $0 }.allSatisfy { $0 > 0 }, "\(perLoop.withLock { $0 })")
    }
}
