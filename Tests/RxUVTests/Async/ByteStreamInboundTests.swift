import Foundation
import RxCore
import RxUV
import RxUVTestSupport
import Synchronization
import XCTest

/// A stream that counts what its reader is handed and how often reading
/// is held back, around a real connection.
private final class CountingStream: ForwardingStream, @unchecked Sendable {
    struct Counts {
        var delivered = 0
        var consumed = 0
        var mostAhead = 0
        var holds = 0
        var releases = 0
    }

    let counts = Mutex(Counts())

    override var receivedData: Observable<ByteBuffer> {
        inner.receivedData.do(onNext: { [self] bytes in
            counts.withLock { $0.delivered += bytes.count }
        })
    }
    override func holdReading(_ held: Bool) {
        counts.withLock { counts in
            if held { counts.holds += 1 } else { counts.releases += 1 }
        }
        inner.holdReading(held)
    }

    /// The consumer took `count` bytes: records how far the reads ran
    /// ahead of it.
    func consumed(_ count: Int) {
        counts.withLock { counts in
            counts.mostAhead = max(counts.mostAhead, counts.delivered - counts.consumed)
            counts.consumed += count
        }
    }
}

/// `ByteStream.inbound`: reads as an `AsyncSequence`, with the read gate
/// closed while the consumer is behind, against real peers (python's
/// socket) on 127.0.0.1.
final class ByteStreamInboundTests: BridgeTestCase {
    /// A python client that connects to the port in argv[1], sends argv[2]
    /// bytes of a known pattern and closes.
    private static let sender = """
        import socket, sys
        port, size = int(sys.argv[1]), int(sys.argv[2])
        block = bytes((i * 7 + 3) % 251 for i in range(65536))
        s = socket.create_connection(("127.0.0.1", port))
        sent = 0
        while sent < size:
            n = min(len(block), size - sent)
            s.sendall(block[:n])
            sent += n
        s.close()
        """

    /// A consumer that sleeps per read while a peer sends 32 MiB: the reads
    /// never run more than the high watermark plus one read ahead of it,
    /// reading resumes each time, every byte arrives in order, and the
    /// memory in use (`memoryInUse()`) stays within a bound. `RXUV_INBOUND_MIB` and
    /// `RXUV_INBOUND_SLEEP_MS` set the size and the sleep (32 and 1 here;
    /// Documentation/Benchmarks/2026-11-28-fourth-performance-round.md
    /// quotes a run with 256 and 10).
    func testInbound_SlowConsumer_BoundsWhatIsBufferedAndResumes() throws {
        let environment = ProcessInfo.processInfo.environment
        let size = (environment["RXUV_INBOUND_MIB"].flatMap { Int($0) } ?? 32) << 20
        let sleep = environment["RXUV_INBOUND_SLEEP_MS"].flatMap { Int($0) } ?? 1
        let high = 256 << 10
        let low = 64 << 10
        let (ends, endOf) = AsyncStream<Result<CountingStream, any Error>>.makeStream()
        let before = memoryInUse()
        let mostResident = Mutex(before)
        let checked = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0) { served in
                Completable.create(executorPreference: served.loop) {
                    let counted = CountingStream(served.connection)
                    var offset = 0
                    var inOrder = true
                    do {
                        for try await chunk in counted.inbound(highWatermark: high, lowWatermark: low) {
                            counted.consumed(chunk.count)
                            // The pattern depends on the offset: a lost, doubled
                            // or reordered read shows at its ends.
                            for index in [0, chunk.count - 1] where chunk[index] != UInt8(((offset + index) % 65536 * 7 + 3) % 251) {
                                inOrder = false
                            }
                            offset += chunk.count
                            mostResident.withLock { $0 = max($0, memoryInUse()) }
                            try await Task.sleep(for: .milliseconds(sleep))
                        }
                        endOf.yield(inOrder ? .success(counted) : .failure(UVError(code: .invalidArgument, operation: "bytes out of order")))
                    } catch {
                        endOf.yield(.failure(error))
                    }
                }
            }.value
            let output = try await loop.rx.run(ProcessOptions("python3", arguments: ["-c", Self.sender, "\(server.address.port)", "\(size)"])).value
            XCTAssertEqual(output.status, .exited(0), String(decoding: Array(output.standardError), as: UTF8.self))
            var iterator = ends.makeAsyncIterator()
            let end = await iterator.next()
            try await server.drain(deadline: .seconds(2)).value
            return try XCTUnwrap(end).get().counts.withLock { $0 }
        }
        XCTAssertEqual(checked.consumed, size)
        XCTAssertEqual(checked.delivered, size)
        XCTAssertLessThanOrEqual(checked.mostAhead, high + 64 * 1024)
        XCTAssertGreaterThan(checked.holds, 0, "the consumer never fell behind")
        XCTAssertGreaterThanOrEqual(checked.releases, checked.holds - 1)
        let grown = mostResident.withLock { $0 } - before
        print("inbound: \(size >> 20) MiB through a slow consumer; reads ahead at most \(checked.mostAhead) bytes, held back \(checked.holds) times, memory in use grew \(grown >> 10) KiB")
        XCTAssertLessThan(grown, 16 << 20)
    }

    /// The iteration ends at the peer's EOF, a stream on its own closes
    /// when the loop leaves early, and a second iteration at once is
    /// refused with `EBUSY`.
    func testInbound_EndsAtEOF_BreakCloses_SecondIterationIsBusy() throws {
        let server = startEchoServer(on: loop)
        let outcome = try loop.run { [loop = loop!] in
            let connection = try await loop.rx.connect(host: "127.0.0.1", port: server.address.port).value
            try await connection.write("ping").value
            var first = connection.inbound.makeAsyncIterator()
            let echoed = try await first.next()
            var second = connection.inbound.makeAsyncIterator()
            var busy: UVError?
            do {
                _ = try await second.next()
            } catch let error as UVError {
                busy = error
            }
            // Leaving the first iteration (dropping it) ends the read, and
            // the stream, on its own, closes.
            first = connection.inbound.makeAsyncIterator()
            _ = first
            server.subscription.dispose()
            return (echoed.map { Array($0) }, busy?.code, connection)
        }
        XCTAssertEqual(outcome.0, Array("ping".utf8))
        XCTAssertEqual(outcome.1, .busy)
        XCTAssertTrue(outcome.2.isClosed)
    }

    /// A peer that resets ends the iteration with its error, thrown.
    func testInbound_PeerReset_ThrowsTheReadError() throws {
        let resetter = """
            import socket, struct, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"bye")
            s.recv(1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            """
        let (ends, endOf) = AsyncStream<String>.makeStream()
        let ending = try loop.run { [loop = loop!] in
            let server = try await loop.rx.serve(host: "127.0.0.1", port: 0) { served in
                Completable.create(executorPreference: served.loop) {
                    var received = 0
                    do {
                        for try await chunk in served.connection.inbound {
                            received += chunk.count
                            try await served.connection.write("!").value
                        }
                        endOf.yield("ended after \(received)")
                    } catch let error as UVError {
                        endOf.yield(error.name)
                    }
                }
            }.value
            _ = try await loop.rx.run(ProcessOptions("python3", arguments: ["-c", resetter, "\(server.address.port)"])).value
            var iterator = ends.makeAsyncIterator()
            let ending = await iterator.next()
            try await server.drain(deadline: .seconds(2)).value
            return ending
        }
        XCTAssertEqual(ending, "ECONNRESET")
    }
}
