import Dispatch
import RxCore
import RxCoreTestSupport
import RxUV
import RxUVTestSupport
import XCTest

/// The in-memory pair against the `ByteStream` contract, one row per rule:
/// each row's steps run on the loop thread, each followed by a run of the
/// loop until nothing moves, and the row's transcript (what each end saw,
/// in order) must be exactly the one expected, on every run. After each
/// row the leak gate: no handle open, no object left.
final class InMemoryStreamTests: BridgeTestCase {
    private typealias Log = Box<[String]>
    private typealias Step = @Sendable (InMemoryStreamPair, Log) -> Void

    private struct Row {
        let name: String
        var options = InMemoryStreamOptions()
        let steps: [Step]
        let expected: [String]
    }

    /// The name a transcript gives an error: libuv's (`EPIPE`).
    private static func name(_ error: any Error) -> String {
        (error as? UVError)?.name ?? "\(error)"
    }

    /// Reads `stream` as `who`: each read, the end, the error.
    @discardableResult
    private static func read(_ stream: any ByteStream, _ who: String, _ log: Log, take count: Int? = nil) -> Disposable {
        let data = count.map { stream.receivedData.take($0) } ?? stream.receivedData
        return data.subscribe(
            onNext: { log.value.append("\(who) read \($0.string)") },
            onError: { log.value.append("\(who) failed \(name($0))") },
            onCompleted: { log.value.append("\(who) completed") })
    }

    /// Writes `text` from `stream` as `who`: its completion or error.
    @discardableResult
    private static func write(_ stream: any ByteStream, _ text: String, _ who: String, _ log: Log) -> Disposable {
        stream.write(text).subscribe(
            onCompleted: { log.value.append("\(who) wrote \(text)") },
            onError: { log.value.append("\(who) write \(text) failed \(name($0))") })
    }

    private static func shutdown(_ stream: any ByteStream, _ who: String, _ log: Log) {
        _ = stream.shutdown().subscribe(
            onCompleted: { log.value.append("\(who) shutdown") },
            onError: { log.value.append("\(who) shutdown failed \(name($0))") })
    }

    private static func watch(_ stream: any ByteStream, _ who: String, _ log: Log) {
        _ = stream.writability.subscribe(
            onNext: { log.value.append("\(who) writable \($0)") },
            onCompleted: { log.value.append("\(who) writability completed") })
    }

    private static let rows: [Row] = [
        Row(
            name: "writes arrive in order, a read per write, on a later turn",
            steps: [
                { pair, log in
                    read(pair.server, "s", log)
                    write(pair.client, "ab", "c", log)
                    write(pair.client, "cd", "c", log)
                    log.value.append("returned")
                }
            ],
            expected: ["c wrote ab", "c wrote cd", "returned", "s read ab", "s read cd"]),
        Row(
            name: "maxReadSize cuts a write into reads",
            options: InMemoryStreamOptions(maxReadSize: 2),
            steps: [
                { pair, log in
                    read(pair.server, "s", log)
                    write(pair.client, "abcde", "c", log)
                }
            ],
            expected: ["c wrote abcde", "s read ab", "s read cd", "s read e"]),
        Row(
            name: "a second reader fails with EBUSY, the first reads on",
            steps: [
                { pair, log in
                    read(pair.server, "s1", log)
                    read(pair.server, "s2", log)
                    write(pair.client, "x", "c", log)
                }
            ],
            expected: ["s2 failed EBUSY", "c wrote x", "s1 read x"]),
        Row(
            name: "bytes written before the reader came wait for it",
            steps: [
                { pair, log in write(pair.client, "early", "c", log) },
                { pair, log in read(pair.server, "s", log) },
            ],
            expected: ["c wrote early", "s read early"]),
        Row(
            name: "a reader that stops leaves the rest to the next",
            steps: [
                { pair, log in
                    read(pair.server, "s1", log, take: 1)
                    write(pair.client, "a", "c", log)
                    write(pair.client, "b", "c", log)
                },
                { pair, log in read(pair.server, "s2", log) },
            ],
            expected: ["c wrote a", "c wrote b", "s1 read a", "s1 completed", "s2 read b"]),
        Row(
            name: "holdReading keeps the bytes unread until it lets go",
            steps: [
                { pair, log in
                    _ = pair.server.receivedData.subscribe(onNext: { bytes in
                        log.value.append("s read \(bytes.string)")
                        pair.server.holdReading(true)
                    })
                    write(pair.client, "a", "c", log)
                    write(pair.client, "bc", "c", log)
                },
                { pair, log in
                    log.value.append("unread \(pair.server.unreadByteCount), held \(pair.server.isReadingHeld)")
                    pair.server.holdReading(false)
                },
            ],
            expected: ["c wrote a", "c wrote bc", "s read a", "unread 2, held true", "s read bc"]),
        Row(
            name: "shutdown: the peer reads to the end, then end of input; the shut end reads on; its writes fail with EPIPE",
            steps: [
                { pair, log in
                    read(pair.server, "s", log)
                    read(pair.client, "c", log)
                    write(pair.client, "request", "c", log)
                    shutdown(pair.client, "c", log)
                    write(pair.client, "late", "c", log)
                },
                { pair, log in write(pair.server, "answer", "s", log) },
            ],
            expected: ["c wrote request", "c shutdown", "c write late failed EPIPE", "s read request", "s completed", "s wrote answer", "c read answer"]),
        Row(
            name: "a closed end: its reader, writes and shutdown fail with ENOTCONN",
            steps: [
                { pair, log in
                    pair.client.close(.now)
                    log.value.append("closed \(pair.client.isClosed)")
                    read(pair.client, "c", log)
                    write(pair.client, "x", "c", log)
                    shutdown(pair.client, "c", log)
                }
            ],
            expected: ["closed true", "c failed ENOTCONN", "c write x failed ENOTCONN", "c shutdown failed ENOTCONN"]),
        Row(
            name: "close(.now): queued writes fail with ECANCELED, the reader and rx.writable complete; the peer reads what was handed on, then the end",
            options: InMemoryStreamOptions(receiveBufferSize: 4),
            steps: [
                { pair, log in
                    read(pair.client, "c", log)
                    watch(pair.client, "c", log)
                    write(pair.client, "abcd", "c", log)
                    write(pair.client, "efgh", "c", log)
                    pair.client.close(.now)
                    read(pair.server, "s", log)
                }
            ],
            expected: ["c writable true", "c wrote abcd", "c write efgh failed ECANCELED", "c completed", "c writability completed", "s read abcd", "s completed"]),
        Row(
            name: "close(.afterWrites): closed at once, the queue goes on as the peer reads, then the end",
            options: InMemoryStreamOptions(receiveBufferSize: 4),
            steps: [
                { pair, log in
                    write(pair.client, "abcd", "c", log)
                    write(pair.client, "efgh", "c", log)
                    pair.client.close(.afterWrites)
                    log.value.append("closed \(pair.client.isClosed)")
                },
                { pair, log in read(pair.server, "s", log) },
            ],
            expected: ["c wrote abcd", "closed true", "s read abcd", "c wrote efgh", "s read efgh", "s completed"]),
        Row(
            name: "close(.reset): the peer's unread bytes are dropped, its reader and writes fail with ECONNRESET",
            steps: [
                { pair, log in
                    write(pair.client, "abc", "c", log)
                    pair.client.close(.reset)
                    write(pair.server, "x", "s", log)
                },
                { pair, log in read(pair.server, "s", log) },
            ],
            expected: ["c wrote abc", "s write x failed ECONNRESET", "s failed ECONNRESET"]),
        Row(
            name: "a closed peer: writes fail with EPIPE",
            steps: [
                { pair, log in
                    pair.server.close(.now)
                    write(pair.client, "x", "c", log)
                }
            ],
            expected: ["c write x failed EPIPE"]),
        Row(
            name: "writability against the watermarks, with a full receive buffer",
            options: InMemoryStreamOptions(receiveBufferSize: 10),
            steps: [
                { pair, log in
                    pair.client.highWatermark = 16
                    pair.client.lowWatermark = 8
                    watch(pair.client, "c", log)
                    write(pair.client, "0123456789", "c", log)
                    write(pair.client, "abcdefghij", "c", log)
                    write(pair.client, "klmnopqrst", "c", log)
                    log.value.append("queue \(pair.client.writeQueueSize), writable \(pair.client.isWritable)")
                },
                { pair, log in read(pair.server, "s", log) },
            ],
            expected: [
                "c writable true", "c wrote 0123456789", "c writable false", "queue 20, writable false",
                "s read 0123456789", "c wrote abcdefghij", "s read abcdefghij", "c wrote klmnopqrst", "c writable true", "s read klmnopqrst",
            ]),
        Row(
            name: "disposing a write's notification does not take the write back",
            options: InMemoryStreamOptions(receiveBufferSize: 2),
            steps: [
                { pair, log in
                    write(pair.client, "ab", "c", log)
                    write(pair.client, "cd", "c", log).dispose()
                    read(pair.server, "s", log)
                }
            ],
            expected: ["c wrote ab", "s read ab", "s read cd"]),
    ]

    /// Runs `row` on a pair of its own and returns its transcript; then
    /// closes both ends (what that tells is not in the transcript) and
    /// lets the pair go.
    private func run(_ row: Row) -> [String] {
        let log = Log([])
        let pair = InMemoryStream.pair(on: loop, options: row.options)
        for step in row.steps {
            loop.execute { step(pair, log) }
            runLoop()
        }
        let transcript = log.value
        pair.client.close(.now)
        pair.server.close(.now)
        runLoop()
        return transcript
    }

    func testContract_EachRule() {
        for row in Self.rows {
            XCTAssertEqual(run(row), row.expected, row.name)
            assertNoLeaks(row.name)
        }
    }

    /// The rows again, three times over: the transcripts are the same on
    /// every run (nothing depends on timing).
    func testContract_SameTranscriptEveryRun() {
        let runs = (0..<3).map { _ in Self.rows.map { run($0) } }
        XCTAssertEqual(runs, Array(repeating: Self.rows.map(\.expected), count: 3))
        assertNoLeaks()
    }

    /// The leak gate sees a pair that is still held (debug builds count
    /// both ends), and passes once it is let go.
    func testLeakGate_SeesAPairAlive() {
        var pair: InMemoryStreamPair? = InMemoryStream.pair(on: loop)
        if LiveObjectCount.isCounting {
            XCTAssertNotNil(leakReport(), "the gate did not see a live pair")
        }
        XCTAssertFalse(pair?.client.isClosed ?? true)
        pair = nil
        runLoop()
        XCTAssertNil(leakReport())
    }

    /// An end nobody holds closes: its peer reads what was handed on, then
    /// the end, and its writes fail with `EPIPE`.
    func testReleasedEnd_ClosesLikeAHandle() {
        let log = Log([])
        var client: InMemoryStream? = nil
        let server: InMemoryStream
        do {
            let pair = InMemoryStream.pair(on: loop)
            client = pair.client
            server = pair.server
        }
        XCTAssertEqual(client?.peerDescription, "in-memory server")
        XCTAssertEqual(server.peerDescription, "in-memory client")
        loop.execute { [client] in Self.write(client!, "bye", "c", log) }
        runLoop()
        client = nil
        loop.execute {
            Self.read(server, "s", log)
            Self.write(server, "x", "s", log)
        }
        runLoop()
        XCTAssertEqual(log.value, ["c wrote bye", "s write x failed EPIPE", "s read bye", "s completed"])
        server.close()
        runLoop()
    }

    /// Writes from another thread enter the loop in order: the peer reads
    /// them in the order they were made, and each completes.
    func testWritesFromAnotherThread_ArriveInOrder() {
        let pair = InMemoryStream.pair(on: loop)
        let recording = StreamRecording(of: pair.server)
        let completed = Counter()
        let writer = DispatchQueue(label: "writer")
        let done = DispatchSemaphore(value: 0)
        writer.async {
            for index in 0..<100 {
                _ = pair.client.write("\(index),").subscribe(onCompleted: { completed.increment() })
            }
            pair.client.close(.afterWrites)
            done.signal()
        }
        done.wait()
        runLoop()
        XCTAssertEqual(recording.string, (0..<100).map { "\($0)," }.joined())
        XCTAssertEqual(recording.reads, 100)
        XCTAssertTrue(recording.completed)
        XCTAssertEqual(completed.current, 100)
        pair.server.close()
        runLoop()
    }
}
