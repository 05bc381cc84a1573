internal import CNGHTTP2
import HTTPTypes

/// A header block to submit: names and values in one byte array, handed to
/// nghttp2 as its `nghttp2_nv` entries (which it copies when submitted).
/// Names must be in lower case (RFC 9113 §8.2.1); pseudo-fields first.
package struct HTTP2FieldBlock {
    private var bytes: [UInt8] = []
    private var spans: [(nameStart: Int, valueStart: Int, end: Int)] = []

    package init() {
        bytes.reserveCapacity(256)
        spans.reserveCapacity(8)
    }

    /// A trailer block: `fields` in lower case, but HTTP/1.1's connection
    /// fields (RFC 9113 §8.2.2).
    package init(trailers fields: HTTPFields) {
        self.init()
        for field in fields {
            let name = field.name.canonicalName
            if !Self.isConnectionSpecific(name) { append(name, field.value) }
        }
    }

    /// Adds a field.
    package mutating func append(_ name: String, _ value: String) {
        let nameStart = bytes.count
        append(name)
        let valueStart = bytes.count
        append(value)
        spans.append((nameStart, valueStart, bytes.count))
    }

    /// The UTF-8 bytes of `text`, copied at once from its contiguous
    /// storage (a native string's).
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Whether a field named `name` (in lower case) is one of HTTP/1.1's
    /// connection fields, which HTTP/2 forbids (RFC 9113 §8.2.2):
    /// `connection`, `keep-alive`, `proxy-connection`, `transfer-encoding`,
    /// `upgrade`.
    @inline(__always)
    package static func isConnectionSpecific(_ name: String) -> Bool {
        switch name.utf8.count {
        case 7: name == "upgrade"
        case 10: name == "connection" || name == "keep-alive"
        case 16: name == "proxy-connection"
        case 17: name == "transfer-encoding"
        default: false
        }
    }

    /// How many fields.
    package var count: Int {
        spans.count
    }

    /// Calls `body` with the entries, valid during the call.
    func withEntries<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { raw in
            // nghttp2 copies names and values when a block is submitted and
            // writes to neither: the entries may point into this array.
            let base = UnsafeMutablePointer(mutating: raw.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            return withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: max(spans.count, 1)) { entries in
                for (index, span) in spans.enumerated() {
                    entries.initializeElement(
                        at: index,
                        to: nghttp2_nv(
                            name: base + span.nameStart, value: base + span.valueStart, namelen: span.valueStart - span.nameStart,
                            valuelen: span.end - span.valueStart, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
                }
                defer { _ = entries.prefix(spans.count).deinitialize() }
                return body(UnsafePointer(entries.baseAddress!), spans.count)
            }
        }
    }
}
