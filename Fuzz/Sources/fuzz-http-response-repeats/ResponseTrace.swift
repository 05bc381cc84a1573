import FuzzSupport
import HTTPTypes
import RxUV
import RxUVHTTP

/// Everything a response decoder made of a stream, and where
/// (`FrameTrace`). Two traces are equal only when every head has the same
/// status code and reason, fields (their names as sent, values and
/// order), version, framing and keep-alive, every body part the same
/// bytes, and the stream the same end at the same place.
typealias ResponseTrace = FrameTrace<ResponsePart>

extension FrameTrace where Part == ResponsePart {
    /// The most requests a stream's responses answer: more than a fuzzer
    /// input holds responses.
    static var requests: Int { 4096 }

    /// `reads` decoded by one `HTTPResponseDecoder` whose requests were
    /// all `method`, or with `freshEachResponse` by a new one after each
    /// final response (after a head without a body, or a body's end), told
    /// of the requests still unanswered: one that has seen no earlier
    /// response. A decoder between two responses differs from a new one
    /// only in the lines it keeps (`HTTPRecentResponseLines`), so this is
    /// decoding without them, and no hook in the decoder is needed for it.
    init(_ reads: [ByteBuffer], method: HTTPRequest.Method, limits: HTTPLimits, freshEachResponse: Bool) {
        var answered = 0
        func decoder() -> HTTPResponseDecoder {
            HTTPResponseDecoder(pending: HTTPPendingRequests(Array(repeating: method, count: Self.requests - answered)), limits: limits)
        }
        self.init(reads, decoder: decoder(), spell: ResponsePart.init) { part in
            switch part {
            case .head(let head) where head.body == .none && !head.isInformational: answered += 1
            case .end: answered += 1
            default: return nil
            }
            return freshEachResponse ? decoder() : nil
        }
    }
}

/// A response part spelled out (field names as sent, not compared by
/// their canonical form as `HTTPField.Name` is).
enum ResponsePart: Equatable {
    case head(code: Int, reason: String, fields: [String], minorVersion: Int, body: HTTPResponseHead.BodyFraming, keepAlive: Bool)
    case body([UInt8])
    case end(last: [UInt8], trailers: [String]?)
    case switched([UInt8])

    init(_ part: HTTPClientResponsePart) {
        switch part {
        case .head(let head):
            self = .head(
                code: head.response.status.code, reason: head.response.status.reasonPhrase,
                fields: head.response.headerFields.map(Self.spelled), minorVersion: head.minorVersion, body: head.body,
                keepAlive: head.keepAlive)
        case .body(let bytes): self = .body(Array(bytes))
        case .end(let last, let trailers): self = .end(last: Array(last), trailers: trailers.map { $0.map(Self.spelled) })
        case .switched(let bytes): self = .switched(Array(bytes))
        }
    }

    private static func spelled(_ field: HTTPField) -> String {
        "\(field.name.rawName): \(field.value)"
    }
}
