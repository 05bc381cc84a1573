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
}
