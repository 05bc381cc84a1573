import HTTPTypes
import RxUV

/// What a handler answers: a swift-http-types `HTTPResponse` (status and
/// header fields) and its body. The server adds `Content-Length` or
/// `Transfer-Encoding`, `Date` and, when the connection ends,
/// `Connection: close`; it writes no body for `HEAD`, 1xx, 204 and 304.
///
/// A value type whose copies share one storage until one of them changes
/// (copy on write). The status line and header fields are put in their
/// wire form when `head` is set: a response kept and answered many times
/// (a `static let`) is answered with the same bytes each time; each change
/// of `head` writes them again.
public struct HTTPServerResponse: Sendable {
    private var storage: Storage

    /// The status and header fields.
    public var head: HTTPResponse {
        get { storage.head }
        set {
            makeUnique()
            storage.head = newValue
        }
        _modify {
            // In place: the storage's own head, no copy of it to write back.
            makeUnique()
            yield &storage.head
        }
    }

    /// The body.
    public var body: HTTPResponseBody {
        get { storage.body }
        set {
            makeUnique()
            storage.body = newValue
        }
    }

    /// `head.status`, read when `head` is set: swift-http-types parses the
    /// status out of a field on every read of `HTTPResponse.status`, and a
    /// server reads it on every response (a response kept and answered
    /// many times is parsed once).
    public var status: HTTPResponse.Status {
        storage.status
    }

    /// The head's status line and fields as the head writer writes them.
    var headLines: HTTPHeadLines {
        storage.headLines
    }

    /// The protocol the connection switches to after this response, a
    /// `101 Switching Protocols` (`switchingProtocols(to:headerFields:_:)`).
    public var upgrade: HTTPUpgrade? {
        storage.upgrade
    }

    /// A response with `head` and `body`.
    public init(head: HTTPResponse, body: HTTPResponseBody = .empty) {
        storage = Storage(head: head, body: body)
    }

    /// A response with `status`, `headerFields` and `body`.
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: HTTPResponseBody = .empty) {
        self.init(head: HTTPResponse(status: status, headerFields: headerFields), body: body)
    }

    /// A `101 Switching Protocols` to `protocolName` (the `Upgrade`
    /// field's value, as the request asked for it: `websocket`), with
    /// `Connection: Upgrade` and `headerFields`; once its head is written
    /// the connection speaks `upgrade`'s protocol. The server answers it
    /// only to a request that asked to upgrade (`HTTPServerRequest
    /// .asksToUpgrade`) and has no body; otherwise it answers `500` and
    /// reports the misuse. Only this response switches: a handler's own
    /// 101 without an upgrade is answered `500` too.
    public static func switchingProtocols(
        to protocolName: String, headerFields: HTTPFields = [:], _ upgrade: HTTPUpgrade
    ) -> HTTPServerResponse {
        var fields: HTTPFields = [.connection: "Upgrade", .upgrade: protocolName]
        fields.append(contentsOf: headerFields)
        let response = HTTPServerResponse(status: .switchingProtocols, headerFields: fields)
        // A storage nobody else holds yet.
        response.storage.upgrade = upgrade
        return response
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> HTTPServerResponse {
        HTTPServerResponse(status: status, headerFields: [.contentType: "text/plain; charset=utf-8"], body: .string(text))
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
    }

    /// The response's parts and what is derived from its head.
    // @unchecked Sendable: changed only through a response that holds the
    // one reference to it (copy on write), so never while shared.
    private final class Storage: @unchecked Sendable {
        /// Setting it (whole or in place) derives `status` and `headLines`
        /// again.
        var head: HTTPResponse {
            didSet { deriveFromHead() }
        }
        var body: HTTPResponseBody
        /// Set only by `switchingProtocols`, on a storage not yet shared.
        var upgrade: HTTPUpgrade?
        private(set) var status: HTTPResponse.Status
        private(set) var headLines: HTTPHeadLines

        init(head: HTTPResponse, body: HTTPResponseBody) {
            self.head = head
            self.body = body
            status = head.status
            headLines = HTTPHeadLines(status: head.status, fields: head.headerFields)
        }

        private init(copying other: Storage) {
            head = other.head
            body = other.body
            upgrade = other.upgrade
            status = other.status
            headLines = other.headLines
        }

        func copy() -> Storage {
            Storage(copying: self)
        }

        private func deriveFromHead() {
            status = head.status
            headLines = HTTPHeadLines(status: status, fields: head.headerFields)
        }
    }
}
