import HTTPTypes
import RxUV

#if canImport(Glibc)
import Glibc
#endif

/// The head a connection sent last, and its request line and `Host`, as
/// sent and as parsed, so that a request that repeats them is not parsed
/// into new values again: a client that polls (a health check, a metrics
/// scrape, a load test) repeats its whole head, and every request on a
/// keep-alive connection its Host. A request line or Host that repeats
/// the last skips its parsing (the line's, and making swift-http-types'
/// pseudo-header fields, each value checked again, each an allocation:
/// most of a small request's head). Once a head repeats both, it is kept
/// whole, and a head that repeats it is recognised by a comparison of its
/// bytes instead of a parse; a client whose request lines differ keeps no
/// whole head, so a request that repeats nothing is parsed as it would be
/// without them.
///
/// Only bytes that were parsed and accepted are kept, and only a match of
/// every byte is taken as a repeat, so what a request decodes to is the
/// same with or without it: decoding is a function of the head's bytes
/// and the decoder's limits, which do not change. One per
/// `HTTPRequestDecoder`, that is one per connection; heads longer than
/// `longestHeadKept`, and lines and Hosts longer than `longestKept`, are
/// not kept.
struct HTTPRecentHead {
    /// The longest request line or Host value kept.
    static var longestKept: Int { 256 }

    /// The longest head kept whole, its empty line included.
    static var longestHeadKept: Int { 1024 }

    /// The last head as sent, from its request line to the empty line
    /// that ends it; empty when none is kept.
    private var headBytes: [UInt8] = []
    /// What `headBytes` decoded to (when they are not empty).
    private var decodedHead: HTTPRequestHead?
    /// The last request line as sent, without its line end; empty when
    /// none is kept.
    private var line: [UInt8] = []
    /// The last Host value as sent (`nil`: the request had none).
    private var host: [UInt8]?
    /// The last request: method, path and authority, with no header
    /// fields; `nil` until one is kept.
    private var request: HTTPRequest?
    /// The last request's minor version.
    private(set) var minorVersion = 1

    /// The length of the last head kept, with its empty line: how many
    /// bytes `repeatedHead` compares (0: none is kept).
    var headLength: Int {
        headBytes.count
    }

    /// What the last head kept decoded to, when the reader's next
    /// `headLength` bytes are that head; `nil` when they are not (or not
    /// all there yet).
    func repeatedHead(at reader: ByteBuffer.Reader) -> HTTPRequestHead? {
        // (Asked before every head, and again when a read's bytes are all
        // decoded: only the lengths are looked at until they match.)
        let count = headBytes.count
        guard count > 0, reader.readableBytes >= count else { return nil }
        let same = reader.buffer.withUnsafeBytes { buffer in
            let next = HeadBytes(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + reader.readerIndex, count: count)
            return Self.same(headBytes, next[...])
        }
        return same ? decodedHead : nil
    }

    /// Keeps `decoded`, the head that `bytes` decoded to (empty line
    /// included), for the next request, when it is short enough; a longer
    /// one lets the last go.
    mutating func keep(_ decoded: HTTPRequestHead, from bytes: HeadBytes) {
        guard bytes.count <= Self.longestHeadKept else {
            headBytes = []
            decodedHead = nil
            return
        }
        // The last head's storage is written again: no allocation per head.
        Self.keep(bytes[...], in: &headBytes)
        decodedHead = decoded
    }

    /// Whether `line` is the last request line kept.
    func repeatsLine(_ line: HeadSlice) -> Bool {
        request != nil && Self.same(self.line, line)
    }

    /// Whether `host` is the last Host kept (`nil`: none).
    func repeatsHost(_ host: HeadSlice?) -> Bool {
        guard request != nil else { return false }
        switch (self.host, host) {
        case (nil, nil): return true
        case (let kept?, let host?): return Self.same(kept, host)
        default: return false
        }
    }

    /// What the last request line kept was parsed into (asked for only
    /// after `repeatsLine`, which says one is kept).
    var parsedLine: (method: HTTPRequest.Method, target: String, minor: Int) {
        guard let request else { preconditionFailure("HTTPRecentHead: no request line kept") }
        return (request.method, request.path ?? "", minorVersion)
    }

    /// The last request kept, with `fields`: for a request whose line and
    /// Host repeat it.
    func repeated(with fields: HTTPFields) -> HTTPRequest {
        guard var request else { preconditionFailure("HTTPRecentHead: no request kept") }
        request.headerFields = fields
        return request
    }

    /// A request parsed from `line` and `host`, made into a request with
    /// `fields`; its line and Host are kept for the next request when
    /// both are short enough (the Host's bytes are copied only when it
    /// does not repeat the last, as `repeatsHost` said). The header fields
    /// are never kept.
    mutating func request(
        line: HeadSlice, parsed: (method: HTTPRequest.Method, target: String, minor: Int), host: HeadSlice?, hostRepeats: Bool,
        fields: HTTPFields
    ) -> HTTPRequest {
        var made = HTTPRequest(
            method: parsed.method, scheme: nil, authority: host.map { $0.string }, path: parsed.target,
            headerFields: HTTPFields())
        if line.count <= Self.longestKept, (host?.count ?? 0) <= Self.longestKept {
            Self.keep(line, in: &self.line)
            if let host {
                if !hostRepeats {
                    var kept = self.host.take() ?? []
                    Self.keep(host, in: &kept)
                    self.host = kept
                }
            } else {
                self.host = nil
            }
            minorVersion = parsed.minor
            request = made
        } else {
            request = nil
        }
        made.headerFields = fields
        return made
    }

    /// `bytes` into `storage`, in the room it has.
    private static func keep(_ bytes: HeadSlice, in storage: inout [UInt8]) {
        storage.removeAll(keepingCapacity: true)
        storage.append(contentsOf: UnsafeBufferPointer(rebasing: bytes))
    }

    private static func same(_ kept: [UInt8], _ bytes: HeadSlice) -> Bool {
        guard kept.count == bytes.count else { return false }
        guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return true }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress!, base + bytes.startIndex, bytes.count) == 0 }
    }
}
