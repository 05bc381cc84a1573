import HTTPTypes
import RxUV
import RxUVHTTP

/// Everything a decoder made of a stream, and where: each part it cut, in
/// order, with the read it was cut in and the stream offset the decoder
/// had read to, then how the stream ended and where. Two traces are equal
/// only when every head has the same method, target, authority, fields
/// (their names as sent, values and order), version, framing, keep-alive
/// and `Expect`, every body part the same bytes, and the stream the same
/// end at the same place.
struct DecodeTrace: Equatable {
    /// A part, and where it was cut.
    struct Entry: Equatable {
        var read: Int
        var offset: Int
        var part: Part
    }

    /// A request part spelled out (names as sent, not compared by their
    /// canonical form as `HTTPField.Name` is).
    enum Part: Equatable {
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

    /// How the stream ended.
    enum End: Equatable {
        /// Every byte was decoded.
        case completed
        /// The decoder threw `error` in read `read` (`reads.count`: at the
        /// end of the stream), having read to `offset`.
        case failed(read: Int, offset: Int, error: String)
        /// The stream ended in the middle of a request, `bytesLeft` unread.
        case truncated(bytesLeft: Int)
    }

    var entries: [Entry] = []
    var end = End.completed

    /// `reads` decoded as `decodeFrames` decodes a connection's reads: the
    /// bytes of a part not yet whole kept and read again with the next
    /// read, and at the end decoded until they make no part. With
    /// `freshEachRequest`, a new decoder takes over after each request
    /// (after a head without a body, or a body's end): one that has seen
    /// no earlier request, as each request would be decoded alone. A
    /// decoder between two requests differs from a new one only in the
    /// request it keeps (`HTTPRecentHead`), so this is decoding without
    /// it, and no hook in the decoder is needed for it.
    init(_ reads: [ByteBuffer], limits: HTTPLimits, freshEachRequest: Bool) {
        var decoder = HTTPRequestDecoder(limits: limits)
        /// The stream offset of the first byte not yet read.
        var consumed = 0
        var pending: ByteBuffer?
        func take(_ part: HTTPRequestPart, read: Int, offset: Int) {
            entries.append(Entry(read: read, offset: offset, part: Part(part)))
            guard freshEachRequest else { return }
            switch part {
            case .head(let head) where head.body == .none: decoder = HTTPRequestDecoder(limits: limits)
            case .end: decoder = HTTPRequestDecoder(limits: limits)
            default: break
            }
        }
        for (index, read) in reads.enumerated() {
            let input = pending.map { ByteBuffer(concatenating: [$0, read]) } ?? read
            pending = nil
            var reader = ByteBuffer.Reader(input)
            do {
                while let part = try decoder.decode(&reader) {
                    take(part, read: index, offset: consumed + reader.readerIndex)
                }
            } catch {
                end = .failed(read: index, offset: consumed + reader.readerIndex, error: String(describing: error))
                return
            }
            consumed += reader.readerIndex
            if reader.readableBytes > 0 { pending = reader.remaining }
        }
        guard let pending else { return }
        var reader = ByteBuffer.Reader(pending)
        do {
            while reader.readableBytes > 0 {
                guard let part = try decoder.decodeLast(&reader) else {
                    if reader.readableBytes > 0 { end = .truncated(bytesLeft: reader.readableBytes) }
                    return
                }
                take(part, read: reads.count, offset: consumed + reader.readerIndex)
            }
        } catch {
            end = .failed(read: reads.count, offset: consumed + reader.readerIndex, error: String(describing: error))
        }
    }

    /// Where `other` first differs from this trace, said for a failure.
    func difference(from other: DecodeTrace) -> String {
        for index in 0..<max(entries.count, other.entries.count) {
            let mine = index < entries.count ? "\(entries[index])" : "nothing"
            let theirs = index < other.entries.count ? "\(other.entries[index])" : "nothing"
            if mine != theirs { return "part \(index): \(mine) / \(theirs)" }
        }
        return "the end: \(end) / \(other.end)"
    }
}
