import FuzzSupport
import HTTPTypes
import RxUV
import RxUVHTTP

/// The HTTP/1.1 response decoder: no crash, every limit kept, every
/// refusal a `502` `HTTPParseError`, the parts in their grammar, and the
/// same responses, bodies and refusal however the stream is cut. The
/// input's choice byte also picks the methods of the four requests the
/// responses answer (GET, HEAD, POST or CONNECT each), so the fuzzer
/// reaches the bodies HEAD and CONNECT frame.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let limits = HTTPLimits(maxRequestLineLength: 64, maxHeadLength: 256, maxFieldLineLength: 48, maxHeaderFields: 8, maxBodyLength: 128)
    let all: [HTTPRequest.Method] = [.get, .head, .post, .connect]
    let methods = (0..<4).map { all[Int(input.choice >> ($0 * 2)) & 3] }
    // A decoder (and its pending requests) each: they are used up.
    let split = HTTPResponseDecoder(pending: HTTPPendingRequests(methods), limits: limits).decodeAll(input.reads)
    let whole = HTTPResponseDecoder(pending: HTTPPendingRequests(methods), limits: limits).decodeAll(input.whole)
    let responses = normalized(split.frames)
    require(responses == normalized(whole.frames), "responses depend on the reads")
    require(split.failure == whole.failure, "the failure depends on the reads: \(split.failure ?? "none") / \(whole.failure ?? "none")")
    switch split.error {
    case nil:
        // A clean end: every response ended (or switched protocols).
        require(responses.allSatisfy(\.ended), "a clean end inside a response")
    case let refusal as HTTPParseError:
        require(refusal.status == .badGateway, "a refusal with status \(refusal.status.code)")
    case let other?:
        require(false, "an unexpected failure: \(other)")
    }
    var finals = 0
    for response in responses {
        let head = response.head
        require(head.response.headerFields.count <= limits.maxHeaderFields, "more fields than the limit")
        require((100...599).contains(head.response.status.code), "a status outside 100–599")
        require(head.minorVersion <= 1, "a version past HTTP/1.1")
        if !head.isInformational { finals += 1 }
        switch head.body {
        case .length(let length):
            require(length <= limits.maxBodyLength, "a body past the limit")
            require(response.body.count <= length, "more body than its length")
            require(!response.ended || response.body.count == length, "a body ended short of its length")
        case .untilClose:
            require(!head.keepAlive, "a body the close ends on a connection kept alive")
        case .none, .switchedProtocol:
            require(response.body.isEmpty, "a body where none is framed")
        case .chunked:
            break
        }
        require(response.body.count <= limits.maxBodyLength, "a body past the limit")
        require(response.switched.isEmpty || head.body == .switchedProtocol, "switched bytes without a switch")
    }
    require(finals <= methods.count, "more final responses than requests")
    let bodyBytes = responses.reduce(0) { $0 + $1.body.count + $1.switched.count }
    require(bodyBytes <= input.bytes.count, "more body bytes than input")
    return 0
}

/// A response as the parts say it: the head, and the body's bytes however
/// they were cut.
private struct Response: Equatable {
    var head: HTTPResponseHead
    var body: [UInt8] = []
    var ended = false
    var trailers: HTTPFields?
    var switched: [UInt8] = []
}

/// The parts as responses, checked to come in their grammar: a head, then
/// for a body its bytes and an end, for a switch of protocols bytes only.
private func normalized(_ parts: [HTTPClientResponsePart]) -> [Response] {
    var responses: [Response] = []
    for part in parts {
        switch part {
        case .head(let head):
            require(responses.last?.ended ?? true, "a head inside a response")
            require(responses.last?.head.body != .switchedProtocol, "a head after a switch of protocols")
            responses.append(Response(head: head, ended: head.body == .none || head.body == .switchedProtocol))
        case .body(let bytes):
            require(responses.last.map { !$0.ended } == true, "body bytes outside a body")
            responses[responses.count - 1].body += Array(bytes)
        case .end(let last, let trailers):
            require(responses.last.map { !$0.ended } == true, "an end outside a body")
            responses[responses.count - 1].body += Array(last)
            responses[responses.count - 1].ended = true
            responses[responses.count - 1].trailers = trailers
        case .switched(let bytes):
            require(responses.last?.head.body == .switchedProtocol, "switched bytes without a switch")
            responses[responses.count - 1].switched += Array(bytes)
        }
    }
    return responses
}
