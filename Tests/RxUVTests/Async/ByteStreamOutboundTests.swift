import RxCore
import RxUVTestSupport
import Synchronization
import XCTest

@testable import RxUV

/// `ByteStream.outbound`: `async` writes that suspend above the high
/// watermark, and write failures that are thrown or reported, never lost;
/// against real peers (python's socket) on 127.0.0.1.
final class ByteStreamOutboundTests: BridgeTestCase {
    /// A python client that connects to argv[1], waits half a second
    /// before reading, then reads to EOF and prints the byte count and a
    /// checksum.
    private static let slowReader = """
        import socket, sys, time, zlib
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        time.sleep(0.5)
        total, crc = 0, 0
        while True:
            data = s.recv(1 << 20)
            if not data:
                break
            total += len(data)
            crc = zlib.crc32(data, crc)
        print(total, crc)
        """

    /// 16 MiB written in 64 KiB pieces to a peer that does not read at
    /// first: each `write` returns with the queue at most the high
    /// watermark plus one piece, the stream turned unwritable (so writes
    /// suspended) and writable again, `finish` ends the stream, and the
    /// peer gets every byte.
    func testWrite_AboveTheHighWatermark_SuspendsUntilTheQueueDrains() throws {
        let piece = 64 << 10
        let pieces = 256
        let high = 256 << 10
        let bytes = randomBytes(count: piece)
        let (ends, endOf) = AsyncStream<Result<(Int, Int), any Error>>.makeStream()
        let (peer, result) = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0) { served in
                Completable.create(executorPreference: served.loop) {
                    let connection = served.connection
                    connection.highWatermark = high
                    connection.lowWatermark = high / 4
                    let turnedUnwritable = Mutex(0)
                    let watching = connection.rx.writable.subscribe(onNext: { writable in
                        if !writable { turnedUnwritable.withLock { $0 += 1 } }
                    })
                    defer { watching.dispose() }
                    let outbound = connection.outbound
                    var mostQueued = 0
                    do {
                        for _ in 0..<pieces {
                            try await outbound.write(ByteBuffer(bytes))
                            mostQueued = max(mostQueued, connection.writeQueueSize)
                        }
                        try await outbound.finish()
                        endOf.yield(.success((mostQueued, turnedUnwritable.withLock { $0 })))
                    } catch {
                        endOf.yield(.failure(error))
                    }
                }
            }.value
            let output = try await loop.rx.run(ProcessOptions("python3", arguments: ["-c", Self.slowReader, "\(server.address.port)"])).value
            var iterator = ends.makeAsyncIterator()
            let end = await iterator.next()
            let result = try XCTUnwrap(end).get()
            try await server.drain(deadline: .seconds(2)).value
            return (String(decoding: Array(output.standardOutput), as: UTF8.self), result)
        }
        var crc = CRC32()
        for _ in 0..<pieces { crc.update(bytes) }
        XCTAssertEqual(peer.split(separator: " ").map(String.init), ["\(piece * pieces)", "\(crc.value)\n"])
        XCTAssertLessThanOrEqual(result.0, high + piece)
        XCTAssertGreaterThan(result.1, 0, "the stream never turned unwritable")
    }

    /// Writing to a peer that reset throws the write's error (`EPIPE` or
    /// `ECONNRESET`), and a write to the closed stream throws `ENOTCONN`.
    func testWrite_ToAPeerThatReset_Throws() throws {
        let resetter = """
            import socket, struct, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.recv(1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            """
        let (ends, endOf) = AsyncStream<[String]>.makeStream()
        let names = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0) { served in
                Completable.create(executorPreference: served.loop) {
                    let outbound = served.connection.outbound
                    var names: [String] = []
                    for _ in 0..<1000 where names.isEmpty {
                        do {
                            try await outbound.write(ByteBuffer(string: "x"))
                            try await Task.sleep(for: .milliseconds(5))
                        } catch let error as UVError {
                            names.append(error.name)
                        }
                    }
                    served.connection.close()
                    do {
                        try await outbound.write(ByteBuffer(string: "late"))
                    } catch let error as UVError {
                        names.append(error.name)
                    }
                    endOf.yield(names)
                }
            }.value
            _ = try await loop.rx.run(ProcessOptions("python3", arguments: ["-c", resetter, "\(server.address.port)"])).value
            var iterator = ends.makeAsyncIterator()
            let names = await iterator.next()
            try await server.drain(deadline: .seconds(2)).value
            return names ?? []
        }
        XCTAssertEqual(names.count, 2, "\(names)")
        XCTAssertTrue(["EPIPE", "ECONNRESET"].contains(names.first ?? ""), "\(names)")
        XCTAssertEqual(names.last, "ENOTCONN")
    }

    /// A `write` suspended above the high watermark (a peer that does not
    /// read) throws `CancellationError` when its Task is cancelled; its
    /// bytes stay queued, and when the connection then closes their
    /// failure (`ECANCELED`) is reported once the writer is gone.
    func testWrite_SuspendedAboveTheHighWatermark_ThrowsWhenItsTaskIsCancelled() throws {
        let reported = CapturedReports(on: loop)
        let (ends, endOf) = AsyncStream<String>.makeStream()
        let outcome = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0) { served in
                Completable.create(executorPreference: served.loop) {
                    let connection = served.connection
                    connection.highWatermark = 64 << 10
                    connection.lowWatermark = 16 << 10
                    let writing = Task(executorPreference: served.loop) {
                        let outbound = connection.outbound
                        try await outbound.write(ByteBuffer(randomBytes(count: 32 << 20)))
                    }
                    try? await Task.sleep(for: .milliseconds(100))
                    writing.cancel()
                    let outcome: String
                    do {
                        try await writing.value
                        outcome = "returned (writable: \(connection.isWritable))"
                    } catch is CancellationError {
                        outcome = "cancelled"
                    } catch {
                        outcome = "\(error)"
                    }
                    connection.close()
                    endOf.yield(outcome)
                }
            }.value
            // A client that connects and never reads.
            let client = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            var iterator = ends.makeAsyncIterator()
            let outcome = await iterator.next()
            client.close()
            try await server.drain(deadline: .seconds(2)).value
            return outcome
        }
        XCTAssertEqual(outcome, "cancelled")
        XCTAssertEqual(reported.names, ["ECANCELED"])
    }

    /// A queued write's failure that no `write` threw: the next `write`
    /// throws it; once the writer is gone, it is reported. The peer is
    /// written out for the reports only.
    func testParkedFailure_ThrownByTheNextWrite_ReportedOnceTheWriterIsGone() throws {
        let reported = CapturedReports(on: loop)
        let peerAsked = Atomic<Int>(0)

        let parked = ParkedWriteFailure(loop: loop) {
            peerAsked.add(1, ordering: .relaxed)
            return "127.0.0.1:1"
        }
        parked.park(UVError(code: .brokenPipe, operation: "uv_write"))
        XCTAssertThrowsError(try parked.throwParked()) { XCTAssertEqual(($0 as? UVError)?.code, .brokenPipe) }
        XCTAssertNoThrow(try parked.throwParked(), "thrown once")
        XCTAssertEqual(peerAsked.load(ordering: .relaxed), 0, "the peer was written out for nothing")
        parked.park(UVError(code: .connectionReset, operation: "uv_write"))
        parked.writerReleased()
        parked.park(UVError(code: .brokenPipe, operation: "uv_write"))
        XCTAssertEqual(reported.names, ["ECONNRESET", "EPIPE"])
        XCTAssertEqual(peerAsked.load(ordering: .relaxed), 2)
    }
}

/// CRC-32 (IEEE), as python's `zlib.crc32`.
struct CRC32 {
    private(set) var value: UInt32 = 0
    private static let table: [UInt32] = (0..<256).map { index in
        var entry = UInt32(index)
        for _ in 0..<8 { entry = entry & 1 != 0 ? 0xEDB8_8320 ^ (entry >> 1) : entry >> 1 }
        return entry
    }

    mutating func update(_ bytes: [UInt8]) {
        var crc = ~value
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        value = ~crc
    }
}
