import RxCore
import RxUV
import RxUVTestSupport

@testable import RxUVWebSocket

/// A frame's bytes built by hand, byte by byte from RFC 6455 §5.2 (not by
/// `WebSocketFrameEncoder`), so decoder tests do not lean on the encoder:
/// `lengthForm` forces the 7-, 16- or 64-bit length (for non-minimal ones).
func wireFrame(
    fin: Bool = true, reserved: UInt8 = 0, opcode: UInt8, payload: [UInt8] = [], mask: [UInt8]? = nil, lengthForm: Int? = nil
) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | reserved | opcode]
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    let form = lengthForm ?? (payload.count <= 125 ? 7 : payload.count <= 0xFFFF ? 16 : 64)
    switch form {
    case 7:
        bytes.append(maskBit | UInt8(payload.count))
    case 16:
        bytes.append(maskBit | 126)
        bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
        bytes.append(maskBit | 127)
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64($0 * 8)) }
    }
    if let mask {
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    } else {
        bytes += payload
    }
    return bytes
}

/// A key for masked test frames.
let testMask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

/// What `decodeFrames` made of some reads: the frames (or events), in
/// order, and the error the sequence failed with (`nil`: it completed).
struct Decoded<Frame> {
    var frames: [Frame] = []
    var error: (any Error)?

    /// The failure as a protocol error, if it was one.
    var protocolError: WebSocketProtocolError? { error as? WebSocketProtocolError }
}

/// Runs `decodeFrames(decoder)` over `chunks`, as reads, synchronously.
func decodeAll<Decoder: FrameDecoder>(_ chunks: [ByteBuffer], _ decoder: Decoder) -> Decoded<Decoder.Frame> {
    var decoded = Decoded<Decoder.Frame>()
    _ = Observable.from(chunks).decodeFrames(decoder)
        .subscribe(onNext: { decoded.frames.append($0) }, onError: { decoded.error = $0 })
    return decoded
}

/// Calls `decoder.decode` directly on `bytes` as one read until it needs
/// more, then `decodeLast` and `endOfInput`, as the operator would: the
/// same decoder without Rx in between.
func decodeDirectly<Decoder: FrameDecoder>(_ bytes: [UInt8], _ decoder: Decoder) -> Decoded<Decoder.Frame> {
    var decoder = decoder
    var decoded = Decoded<Decoder.Frame>()
    var reader = ByteBuffer.Reader(ByteBuffer(bytes))
    do {
        while let frame = try decoder.decode(&reader) { decoded.frames.append(frame) }
        while reader.readableBytes > 0, let frame = try decoder.decodeLast(&reader) { decoded.frames.append(frame) }
        if reader.readableBytes > 0 { throw FramingError.truncatedFrame(bytesLeft: reader.readableBytes) }
        if let frame = try decoder.endOfInput() { decoded.frames.append(frame) }
    } catch {
        decoded.error = error
    }
    return decoded
}

/// Every way of cutting `bytes` into two reads, and into single bytes.
func everySplit(_ bytes: [UInt8]) -> [[ByteBuffer]] {
    var splits = (1..<max(bytes.count, 1)).map { split(bytes, at: [$0]) }
    splits.append(bytes.map { ByteBuffer([$0]) })
    return splits
}
