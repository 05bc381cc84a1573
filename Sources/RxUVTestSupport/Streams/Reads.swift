import RxUV

/// `bytes` cut at `cuts` (offsets, ascending; those outside the bytes or
/// not past the last are ignored) into the reads a decoder is fed, to
/// check that it cuts the same frames however its input is split.
public func split(_ bytes: [UInt8], at cuts: [Int]) -> [ByteBuffer] {
    var chunks: [ByteBuffer] = []
    var start = 0
    for cut in cuts where cut > start && cut < bytes.count {
        chunks.append(ByteBuffer(bytes[start..<cut]))
        start = cut
    }
    chunks.append(ByteBuffer(bytes[start...]))
    return chunks
}
