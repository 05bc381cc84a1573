import RxCore
import RxUV
import RxUVTestSupport
import XCTest

/// `decodeFrames` when a frame's observer makes the source emit again
/// (a subject fed from its own subscriber): the bytes that arrive from
/// inside the observer come after the ones being decoded, in order, and
/// a completion from there ends the stream after them.
final class FrameDecoderTests: BridgeTestCase {
    func testDecodeFrames_BytesEmittedFromAFramesObserverComeAfter() {
        let source = PublishSubject<ByteBuffer>()
        var lines: [String] = []
        var completed = false
        let subscription = source.decodeFrames(LineDecoder(maxLength: 16)).subscribe(
            onNext: { line in
                lines.append(line.string)
                switch line.string {
                case "a": source.onNext(ByteBuffer(string: "c\nd"))
                case "bc": source.onNext(ByteBuffer(string: "e\n"))
                default: break
                }
            },
            onCompleted: { completed = true })
        // The stream is "a\nb", then "c\nd" (sent on seeing a), then "e\n"
        // (sent on seeing bc): all of it inside the first read's call.
        source.onNext(ByteBuffer(string: "a\nb"))
        XCTAssertEqual(lines, ["a", "bc", "de"])
        source.onNext(ByteBuffer(string: "f\n"))
        XCTAssertEqual(lines, ["a", "bc", "de", "f"])
        XCTAssertFalse(completed)
        subscription.dispose()
    }

    func testDecodeFrames_ACompletionFromAFramesObserverEndsAfterTheRead() {
        let source = PublishSubject<ByteBuffer>()
        var lines: [String] = []
        var completed = false
        _ = source.decodeFrames(LineDecoder(maxLength: 16)).subscribe(
            onNext: { line in
                lines.append(line.string)
                if line.string == "a" { source.onCompleted() }
            },
            onCompleted: { completed = true })
        source.onNext(ByteBuffer(string: "a\nb\nlast"))
        XCTAssertEqual(lines, ["a", "b", "last"], "the read's lines, then its unterminated last one")
        XCTAssertTrue(completed)
    }

    /// A decoder that counts its bytes and, at the end of the input, emits
    /// the count, or refuses an end that comes before `atLeast` bytes.
    private struct CountingDecoder: FrameDecoder {
        struct TooShort: Error, Equatable {}
        let atLeast: Int
        var seen = 0
        let endCalls: Shared<Int>

        mutating func decode(_ reader: inout ByteBuffer.Reader) throws -> Int? {
            guard reader.readableBytes > 0, let bytes = reader.readBytes(reader.readableBytes) else { return nil }
            seen += bytes.count
            return -bytes.count
        }

        mutating func endOfInput() throws -> Int? {
            endCalls.value += 1
            guard seen >= atLeast else { throw TooShort() }
            return seen
        }
    }

    /// `endOfInput` is asked once when the source completes: its frame
    /// comes before the completion, its error ends the stream; a stream
    /// that fails or is disposed never asks it.
    func testDecodeFrames_EndOfInputAskedOnceAtCompletion() {
        let calls = Shared(0)
        var frames: [Int] = []
        var error: (any Error)?
        var completed = false
        _ = Observable.from([ByteBuffer(string: "abc"), ByteBuffer(string: "de")])
            .decodeFrames(CountingDecoder(atLeast: 5, endCalls: calls))
            .subscribe(onNext: { frames.append($0) }, onError: { error = $0 }, onCompleted: { completed = true })
        XCTAssertEqual(frames, [-3, -2, 5])
        XCTAssertTrue(completed)
        XCTAssertNil(error)
        XCTAssertEqual(calls.value, 1)

        _ = Observable.from([ByteBuffer(string: "abc")])
            .decodeFrames(CountingDecoder(atLeast: 5, endCalls: calls))
            .subscribe(onError: { error = $0 })
        XCTAssertEqual(error as? CountingDecoder.TooShort, CountingDecoder.TooShort())
        XCTAssertEqual(calls.value, 2)

        _ = Observable<ByteBuffer>.error(FramingError.truncatedFrame(bytesLeft: 1))
            .decodeFrames(CountingDecoder(atLeast: 0, endCalls: calls))
            .subscribe(onError: { _ in })
        let source = PublishSubject<ByteBuffer>()
        let subscription = source.decodeFrames(CountingDecoder(atLeast: 0, endCalls: calls)).subscribe()
        subscription.dispose()
        source.onCompleted()
        XCTAssertEqual(calls.value, 2, "not asked after an error or a dispose")
    }
}
