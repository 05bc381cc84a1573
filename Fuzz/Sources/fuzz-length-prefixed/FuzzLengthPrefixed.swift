import FuzzSupport
import RxUV

/// Length-prefixed frames of every width and byte order: no frame past the
/// limit (a 2^63 length is refused, not allocated), the same frames however
/// the stream is cut, and each frame encoded again gives back its bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLengthPrefixed(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let headers: [LengthHeader] = [.uint8, .uint16(.big), .uint16(.little), .uint32(.big), .uint32(.little), .uint64(.big), .uint64(.little)]
    let header = headers[Int(input.choice) % headers.count]
    let maxFrameLength = 256
    let split = LengthPrefixedFrameDecoder(header: header, maxFrameLength: maxFrameLength).decodeAll(input.reads)
    let whole = LengthPrefixedFrameDecoder(header: header, maxFrameLength: maxFrameLength).decodeAll(input.whole)
    require(split.frames.map(Array.init) == whole.frames.map(Array.init), "frames depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads")
    require(split.frames.allSatisfy { $0.count <= maxFrameLength }, "a frame past the limit")
    // The frames, encoded again, are the stream's first bytes.
    var encoded: [UInt8] = []
    for frame in split.frames {
        var buffers: [ByteBuffer] = []
        do {
            try LengthPrefixedFrameEncoder(header: header).encode(frame, into: &buffers)
        } catch {
            require(false, "a decoded frame does not encode: \(error)")
        }
        for buffer in buffers { encoded += Array(buffer) }
    }
    require(Array(input.bytes.prefix(encoded.count)) == encoded, "frames encode to other bytes")
    return 0
}
