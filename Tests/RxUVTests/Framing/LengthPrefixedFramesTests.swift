import PropertyBased
import RxCore
import RxUV
import RxUVTestSupport
import XCTest

final class LengthPrefixedFramesTests: BridgeTestCase {
    private let headers: [LengthHeader] = [.uint8, .uint16(.big), .uint16(.little), .uint32(.big), .uint32(.little), .uint64(.big), .uint64(.little)]

    func testLengthPrefixed_HeaderBytesInBothOrders() throws {
        let frame = ByteBuffer(string: "abc")
        XCTAssertEqual(Array(try LengthPrefixedFrameEncoder(header: .uint8).encode(frame)), [3] + Array("abc".utf8))
        XCTAssertEqual(Array(try LengthPrefixedFrameEncoder(header: .uint16(.big)).encode(frame).prefix(2)), [0, 3])
        XCTAssertEqual(Array(try LengthPrefixedFrameEncoder(header: .uint32(.little)).encode(frame).prefix(4)), [3, 0, 0, 0])
        XCTAssertEqual(Array(try LengthPrefixedFrameEncoder(header: .uint64(.big)).encode(frame).prefix(8)), [0, 0, 0, 0, 0, 0, 0, 3])
    }

    func testLengthPrefixed_EveryHeaderEveryCutRoundTrips() throws {
        let frames = ["", "a", "hello", String(repeating: "x", count: 200)].map { ByteBuffer(string: $0) }
        for header in headers {
            let encoder = LengthPrefixedFrameEncoder(header: header)
            let bytes = try frames.flatMap { Array(try encoder.encode($0)) }
            for chunks in everyCut(of: bytes) {
                let outcome = framing(chunks) { $0.lengthPrefixedFrames(header: header, maxFrameLength: 200) }
                XCTAssertEqual(outcome.frames, frames, "\(header), cut \(chunks.count) chunks")
                XCTAssertTrue(outcome.completed)
            }
        }
    }

    func testLengthPrefixed_EncoderOperatorFeedsTheDecoder() {
        let frames = ["one", "two", "three"].map { ByteBuffer(string: $0) }
        var decoded: [String] = []
        _ = Observable.from(frames)
            .lengthPrefixed(header: .uint16(.little))
            .lengthPrefixedFrames(header: .uint16(.little), maxFrameLength: 10)
            .subscribe(onNext: { decoded.append($0.string) })
        XCTAssertEqual(decoded, ["one", "two", "three"])
    }

    func testLengthPrefixed_FrameTooLongFailsAtTheHeader() {
        // The header alone: the error comes before a byte of the frame is buffered.
        let outcome = framing([ByteBuffer([0, 0, 0x10, 0x01])]) { $0.concat(Observable.never()).lengthPrefixedFrames(header: .uint32(.big), maxFrameLength: 4096) }
        XCTAssertEqual(outcome.error as? FramingError, .frameTooLong(length: 4097, maxFrameLength: 4096))
        let exact = framing([ByteBuffer([2, 7, 8])]) { $0.lengthPrefixedFrames(header: .uint8, maxFrameLength: 2) }
        XCTAssertEqual(exact.frames, [ByteBuffer([7, 8])])
    }

    func testLengthPrefixed_TwoToTheSixtyThirdIsAnErrorNotATrap() {
        for declared: UInt64 in [1 << 63, UInt64.max] {
            var header = [UInt8](repeating: 0, count: 8)
            withUnsafeBytes(of: declared.bigEndian) { header = Array($0) }
            let outcome = framing([ByteBuffer(header)]) { $0.lengthPrefixedFrames(header: .uint64(.big), maxFrameLength: Int.max) }
            XCTAssertEqual(outcome.error as? FramingError, .lengthOverflow(declared: declared))
        }
        let large = framing([ByteBuffer([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])]) { $0.lengthPrefixedFrames(header: .uint64(.big), maxFrameLength: 1 << 20) }
        XCTAssertEqual(large.error as? FramingError, .frameTooLong(length: UInt64(Int.max), maxFrameLength: 1 << 20))
    }

    func testLengthPrefixed_BytesLeftAtTheEndAreATruncatedFrame() {
        let truncated = framing([ByteBuffer([3, 1, 2])]) { $0.lengthPrefixedFrames(header: .uint8, maxFrameLength: 8) }
        XCTAssertEqual(truncated.error as? FramingError, .truncatedFrame(bytesLeft: 3))
        let halfHeader = framing([ByteBuffer([0])]) { $0.lengthPrefixedFrames(header: .uint16(.big), maxFrameLength: 8) }
        XCTAssertEqual(halfHeader.error as? FramingError, .truncatedFrame(bytesLeft: 1))
    }

    func testLengthPrefixed_EncoderRefusesWhatTheHeaderCannotCount() {
        XCTAssertThrowsError(try LengthPrefixedFrameEncoder(header: .uint8).encode(ByteBuffer([UInt8](repeating: 1, count: 256)))) { error in
            XCTAssertEqual(error as? FramingError, .frameTooLongForHeader(length: 256, headerBytes: 1))
        }
    }

    func testLengthPrefixed_AFrameInsideOneReadIsASliceOfIt() throws {
        let read = ByteBuffer([2, 0x61, 0x62, 1, 0x63, 3, 0x64])
        let outcome = framing([read, ByteBuffer([0x65, 0x66])]) { $0.lengthPrefixedFrames(header: .uint8, maxFrameLength: 8) }
        XCTAssertEqual(outcome.strings, ["ab", "c", "def"])
        XCTAssertTrue(outcome.frames[0].sharesStorage(with: read))
        XCTAssertTrue(outcome.frames[1].sharesStorage(with: read))
    }

    /// Random frames, encoded with a random header, cut at random places
    /// (PropertyBased's generators, a fixed seed per case): decoded, they come
    /// back equal.
    func testLengthPrefixed_RandomFramesRandomCutsRoundTrip() throws {
        let frameLengths = Gen.int(in: 0...300).array(of: 0...12)
        let cutCount = Gen.int(in: 0...20)
        let headerIndex = Gen.int(in: 0...(headers.count - 1))
        for seed in 1...300 {
            var rng = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9_7F4A_7C15, UInt64(seed) &* 31, 7))
            let header = headers[headerIndex.run(using: &rng)]
            let frames = frameLengths.run(using: &rng).enumerated().map { index, length in
                ByteBuffer((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
            }
            let encoder = LengthPrefixedFrameEncoder(header: header)
            let bytes = try frames.flatMap { Array(try encoder.encode($0)) }
            let cuts = (0..<cutCount.run(using: &rng)).map { _ in Gen.int(in: 0...bytes.count).run(using: &rng) }.sorted()
            var chunks: [ByteBuffer] = []
            var start = 0
            for cut in cuts + [bytes.count] {
                chunks.append(ByteBuffer(bytes[start..<cut]))
                start = cut
            }
            let outcome = framing(chunks) { $0.lengthPrefixedFrames(header: header, maxFrameLength: 300) }
            XCTAssertEqual(outcome.frames, frames, "seed \(seed)")
            XCTAssertTrue(outcome.completed, "seed \(seed)")
        }
    }
}
