import FuzzSupport
import HTTPTypes
import RxUV
import RxUVHTTP

/// Everything a request decoder made of a stream, and where
/// (`FrameTrace`). Two traces are equal only when every head has the same
/// method, target, authority, fields (their names as sent, values and
/// order), version, framing, keep-alive and `Expect`, every body part the
/// same bytes, and the stream the same end at the same place.
typealias DecodeTrace = FrameTrace<RequestPart>

extension FrameTrace where Part == RequestPart {
    /// `reads` decoded by one `HTTPRequestDecoder`, or with
    /// `freshEachRequest` by a new one after each request (after a head
    /// without a body, or a body's end): one that has seen no earlier
    /// request, as each request would be decoded alone. A decoder between
    /// two requests differs from a new one only in the request it keeps
    /// (`HTTPRecentHead`), so this is decoding without it, and no hook in
    /// the decoder is needed for it.
    init(_ reads: [ByteBuffer], limits: HTTPLimits, freshEachRequest: Bool) {
        self.init(reads, decoder: HTTPRequestDecoder(limits: limits), spell: RequestPart.init) { part in
            guard freshEachRequest else { return nil }
            switch part {
            case .head(let head) where head.body == .none: return HTTPRequestDecoder(limits: limits)
            case .end: return HTTPRequestDecoder(limits: limits)
            default: return nil
            }
        }
    }
}

/// A request part spelled out (names as sent, not compared by their
/// canonical form as `HTTPField.Name` is).
enum RequestPart: Equatable {
    case head(Head)
    case body([UInt8])
    case end(last: [UInt8], trailers: [Field]?)

    init(_ part: HTTPRequestPart) {
        switch part {
        case .head(let head): self = .head(Head(head))
        case .body(let bytes): self = .body(Array(bytes))
        case .end(let last, let trailers): self = .end(last: Array(last), trailers: trailers.map { $0.map(Field.init) })
        }
    }

    /// A head spelled out.
    struct Head: Equatable {
        var method: String
        var scheme: String?
        var authority: String?
        var path: String?
        var fields: [Field]
        var minorVersion: Int
        var body: HTTPRequestHead.BodyFraming
        var keepAlive: Bool
        var expectsContinue: Bool

        init(_ head: HTTPRequestHead) {
            method = head.request.method.rawValue
            scheme = head.request.scheme
            authority = head.request.authority
            path = head.request.path
            fields = head.request.headerFields.map(Field.init)
            minorVersion = head.minorVersion
            body = head.body
            keepAlive = head.keepAlive
            expectsContinue = head.expectsContinue
        }
    }

    /// A field: its name as sent, and its value.
    struct Field: Equatable {
        var name: String
        var value: String

        init(_ field: HTTPField) {
            name = field.name.rawName
            value = field.value
        }
    }
}
