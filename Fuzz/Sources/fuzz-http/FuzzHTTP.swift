import FuzzSupport
import HTTPTypes
import RxUV
import RxUVHTTP

/// The HTTP/1.1 request decoder: no crash, every limit kept (a refusal
/// carries one of the statuses the RFC names), and the same requests,
/// bodies and refusal however the stream is cut.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limits = HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxFieldLineLength: 48, maxHeaderFields: 8, maxBodyLength: 128)
    let split = HTTPRequestDecoder(limits: limits).decodeAll(input.reads)
    let whole = HTTPRequestDecoder(limits: limits).decodeAll(input.whole)
    let requests = normalized(split.frames)
    require(requests == normalized(whole.frames), "requests depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    switch split.error {
    case nil, is FramingError:
        break
    case let refusal as HTTPParseError:
        require([400, 413, 414, 431, 501, 505].contains(refusal.status.code), "a refusal with status \(refusal.status.code)")
    case let other?:
        require(false, "an unexpected failure: \(other)")
    }
    for part in split.frames {
        if case .head(let head) = part {
            require((head.request.path ?? "").utf8.count <= limits.maxRequestLineLength, "a target past the request line's limit")
            require(head.request.headerFields.count <= limits.maxHeaderFields, "more fields than the limit")
            if case .length(let length) = head.body { require(length <= limits.maxBodyLength, "a body past the limit") }
        }
    }
    let bodyBytes = requests.reduce(0) { $0 + $1.body.count }
    require(bodyBytes <= input.bytes.count, "more body bytes than input")
    return 0
}

/// A request as the parts say it: the head, and the body's bytes however
/// they were cut.
private struct Request: Equatable {
    var head: HTTPRequestHead
    var body: [UInt8] = []
    var ended = false
    var trailers: HTTPFields?
}

private func normalized(_ parts: [HTTPRequestPart]) -> [Request] {
    var requests: [Request] = []
    for part in parts {
        switch part {
        case .head(let head):
            requests.append(Request(head: head, ended: head.body == .none))
        case .body(let bytes):
            requests[requests.count - 1].body += Array(bytes)
        case .end(let last, let trailers):
            requests[requests.count - 1].body += Array(last)
            requests[requests.count - 1].ended = true
            requests[requests.count - 1].trailers = trailers
        }
    }
    return requests
}
