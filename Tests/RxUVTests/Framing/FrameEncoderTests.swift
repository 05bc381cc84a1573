import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `FrameEncoder` and its two encoders: what they append, what they refuse,
/// that every encoded stream decodes back to the frames whatever its cuts,
/// and a stream's `write(_:using:)` over a real connection.
final class FrameEncoderTests: BridgeTestCase {
    func testLineEncoder_AppendsTheLineAndItsDelimiterWithoutCopying() throws {
        let line = ByteBuffer(string: "hello")
        var buffers: [ByteBuffer] = []
        try LineEncoder().encode(line, into: &buffers)
        try LineEncoder(crlf: true).encode(line, into: &buffers)
        XCTAssertEqual(buffers.map(\.string), ["hello", "\n", "hello", "\r\n"])
        XCTAssertTrue(buffers[0].sharesStorage(with: line), "the line was copied")
    }

    func testLineEncoder_ALineFeedInsideIsAnErrorAndNothingIsAppended() {
        var buffers: [ByteBuffer] = []
        XCTAssertThrowsError(try LineEncoder().encode(ByteBuffer(string: "two\nlines"), into: &buffers)) { error in
            XCTAssertEqual(error as? FramingError, .delimiterInLine)
        }
        XCTAssertEqual(buffers, [])
    }

    func testLengthPrefixedEncoder_AppendsHeaderAndFrameOrNothing() throws {
        let frame = ByteBuffer(string: "abc")
        var buffers: [ByteBuffer] = []
        try LengthPrefixedFrameEncoder(header: .uint16(.big)).encode(frame, into: &buffers)
        XCTAssertEqual(buffers.map(Array.init), [[0, 3], Array("abc".utf8)])
        XCTAssertTrue(buffers[1].sharesStorage(with: frame), "the frame was copied")
        XCTAssertThrowsError(try LengthPrefixedFrameEncoder(header: .uint8).encode(ByteBuffer(randomBytes(count: 256)), into: &buffers))
        XCTAssertEqual(buffers.count, 2)
    }

    func testEncodeFrames_EveryCutDecodesBackToTheLines() throws {
        let lines = ["", "a", "two words", String(repeating: "x", count: 100)].map { ByteBuffer(string: $0) }
        for crlf in [false, true] {
            var encoded: [UInt8] = []
            _ = Observable.from(lines).encodeFrames(LineEncoder(crlf: crlf)).subscribe(onNext: { encoded += $0 })
            for chunks in everyCut(of: encoded) {
                let outcome = framing(chunks) { $0.lines(maxLength: 100) }
                XCTAssertEqual(outcome.frames, lines, "crlf \(crlf), \(chunks.count) chunks")
                XCTAssertTrue(outcome.completed)
            }
        }
    }

    func testEncodeFrames_AnUnencodableFrameEndsTheSequence() {
        var events: [String] = []
        _ = Observable.from(["ok", "not\nok", "never"].map { ByteBuffer(string: $0) })
            .encodeFrames(LineEncoder())
            .subscribe(onNext: { events.append($0.string) }, onError: { events.append("error: \($0)") })
        XCTAssertEqual(events, ["ok\n", "error: a line to write holds a line feed"])
    }

    /// Frames written with `write(_:using:)` by a client arrive whole at a
    /// server that decodes them; a frame the encoder refuses fails its
    /// write, writes nothing, and the connection goes on.
    func testWriteUsingEncoder_FramesArriveWholeOverTCP() {
        let port = Shared(0)
        var received: [String] = []
        var refused: Error?
        var listener: Disposable?
        listener = loop.rx.listen(host: "127.0.0.1", port: 0, onListening: { port.value = $0.port })
            .flatMap { $0.rx.data.lengthPrefixedFrames(header: .uint32(.big), maxFrameLength: 1 << 20) }
            .subscribe(onNext: { frame in
                received.append(frame.string)
                if received.count == 3 { listener?.dispose() }
            })
        let encoder = LengthPrefixedFrameEncoder(header: .uint32(.big))
        let big = String(repeating: "z", count: 300_000)
        _ = loop.rx.connect(host: "127.0.0.1", port: port.value).subscribe(onSuccess: { client in
            _ = client.write(ByteBuffer(string: "first"), using: encoder)
                .andThen(
                    client.write(ByteBuffer(randomBytes(count: 256)), using: LengthPrefixedFrameEncoder(header: .uint8)).catch { error in
                        refused = error
                        return .empty()
                    }
                )
                .andThen(client.write(ByteBuffer(string: big), using: encoder))
                .andThen(client.write(ByteBuffer(), using: encoder))
                .subscribe(onCompleted: { client.close(.afterWrites) })
        })
        runLoop()
        XCTAssertEqual(received.map(\.count), [5, 300_000, 0])
        XCTAssertEqual(refused as? FramingError, .frameTooLongForHeader(length: 256, headerBytes: 1))
    }
}
