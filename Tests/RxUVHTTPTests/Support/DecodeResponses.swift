import HTTPTypes
import RxCore
import RxUV
import RxUVHTTP

/// What a response decoder made of some bytes: the parts, in order, and
/// how the sequence ended (`nil`: completed).
struct DecodedResponses {
    var parts: [HTTPClientResponsePart] = []
    var error: (any Error)?

    /// The reason of the `HTTPParseError` it failed with, if any.
    var reason: String? { (error as? HTTPParseError)?.reason }
}

/// Runs `decodeFrames(HTTPResponseDecoder)` over `chunks`, as reads,
/// synchronously, for requests with `methods`, in order.
func decodeResponses(
    _ chunks: [ByteBuffer], methods: [HTTPRequest.Method] = [.get], limits: HTTPLimits = HTTPLimits(maxBodyLength: .max)
) -> DecodedResponses {
    var decoded = DecodedResponses()
    let decoder = HTTPResponseDecoder(pending: HTTPPendingRequests(methods), limits: limits)
    _ = Observable.from(chunks).decodeFrames(decoder)
        .subscribe(onNext: { decoded.parts.append($0) }, onError: { decoded.error = $0 })
    return decoded
}

/// A response as its parts say it: the head, the body's bytes however
/// they were cut, whether it ended, its trailers.
struct DecodedResponse: Equatable {
    var head: HTTPResponseHead
    var body: [UInt8] = []
    var ended = false
    var trailers: HTTPFields?
    var switched: [UInt8] = []
}

extension DecodedResponses {
    /// The parts as whole responses.
    var responses: [DecodedResponse] {
        var responses: [DecodedResponse] = []
        for part in parts {
            switch part {
            case .head(let head):
                responses.append(DecodedResponse(head: head, ended: head.body == .none || head.body == .switchedProtocol))
            case .body(let bytes):
                responses[responses.count - 1].body += Array(bytes)
            case .end(let last, let trailers):
                responses[responses.count - 1].body += Array(last)
                responses[responses.count - 1].ended = true
                responses[responses.count - 1].trailers = trailers
            case .switched(let bytes):
                responses[responses.count - 1].switched += Array(bytes)
            }
        }
        return responses
    }
}
