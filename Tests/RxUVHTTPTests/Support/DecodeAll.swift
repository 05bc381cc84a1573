import RxCore
import RxUV
import RxUVHTTP

/// What a decoder made of some bytes: the parts, in order, and how the
/// sequence ended (`nil`: completed).
struct Decoded {
    var parts: [HTTPRequestPart] = []
    var error: (any Error)?
}

/// Runs `decodeFrames(HTTPRequestDecoder(limits:))` over `chunks`, as reads,
/// synchronously.
func decodeAll(_ chunks: [ByteBuffer], limits: HTTPLimits = HTTPLimits()) -> Decoded {
    var decoded = Decoded()
    _ = Observable.from(chunks).decodeFrames(HTTPRequestDecoder(limits: limits))
        .subscribe(onNext: { decoded.parts.append($0) }, onError: { decoded.error = $0 })
    return decoded
}

/// `bytes` cut at `cuts` (offsets, ascending).
func split(_ bytes: [UInt8], at cuts: [Int]) -> [ByteBuffer] {
    var chunks: [ByteBuffer] = []
    var start = 0
    for cut in cuts where cut > start && cut < bytes.count {
        chunks.append(ByteBuffer(bytes[start..<cut]))
        start = cut
    }
    chunks.append(ByteBuffer(bytes[start...]))
    return chunks
}
