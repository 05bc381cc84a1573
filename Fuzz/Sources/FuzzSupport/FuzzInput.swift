import RxCore
import RxUV

/// One fuzzer input: the bytes a decoder reads, and the reads they arrive
/// in. The first byte seeds where the cuts fall (0: one read), the rest is
/// the stream.
public struct FuzzInput {
    /// The stream's bytes.
    public let bytes: [UInt8]
    /// The stream cut into reads at the seeded places.
    public let reads: [ByteBuffer]
    /// A byte the target may use to pick among settings (limits, widths).
    public let choice: UInt8

    /// The input of `size` bytes at `data`.
    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        let all = Array(UnsafeBufferPointer(start: data, count: size))
        choice = all.first ?? 0
        bytes = Array(all.dropFirst())
        // The read lengths: 1 to 16 bytes, or one read for 0.
        reads = choice == 0 ? (bytes.isEmpty ? [] : [ByteBuffer(bytes)]) : Self.reads(of: bytes, seed: choice, longest: 16)
    }

    /// `bytes` cut into reads of 1 to `longest` bytes each, at the places
    /// `seed` picks (an xorshift sequence): the same seed, the same cuts.
    public static func reads(of bytes: [UInt8], seed: UInt8, longest: Int) -> [ByteBuffer] {
        var reads: [ByteBuffer] = []
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var start = 0
        while start < bytes.count {
            // xorshift: each read's length.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let end = min(start + Int(state % UInt64(longest)) + 1, bytes.count)
            reads.append(ByteBuffer(Array(bytes[start..<end])))
            start = end
        }
        return reads
    }

    /// The stream as one read.
    public var whole: [ByteBuffer] {
        bytes.isEmpty ? [] : [ByteBuffer(bytes)]
    }
}

/// What a decoder made of a stream: its frames, and how it ended.
public struct Decoded<Frame> {
    public var frames: [Frame] = []
    /// `nil` when the stream completed; the error's description otherwise.
    public var failure: String?
    /// The error the stream failed with.
    public var error: (any Error)?
}

extension FrameDecoder {
    /// Decodes `reads` as `decodeFrames` does on a connection: each read
    /// delivered in turn, then the end.
    public func decodeAll(_ reads: [ByteBuffer]) -> Decoded<Frame> {
        var decoded = Decoded<Frame>()
        _ = Observable.from(reads).decodeFrames(self).subscribe(
            onNext: { decoded.frames.append($0) },
            onError: { error in
                decoded.failure = String(describing: error)
                decoded.error = error
            })
        return decoded
    }
}

/// Stops the fuzzer with `message` when `condition` is false: libFuzzer
/// saves the input that did it.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("fuzz property broken: \(message())")
    }
}
