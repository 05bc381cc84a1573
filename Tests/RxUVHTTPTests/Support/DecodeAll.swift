import RxCore
import RxUV
import RxUVHTTP
import RxUVTestSupport

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
