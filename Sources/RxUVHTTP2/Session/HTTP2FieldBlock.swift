internal import CNGHTTP2

/// A header block to submit: names and values in one byte array, handed to
/// nghttp2 as its `nghttp2_nv` entries (which it copies when submitted).
/// Names must be in lower case (RFC 9113 §8.2.1); pseudo-fields first.
struct HTTP2FieldBlock {
    private var bytes: [UInt8] = []
    private var spans: [(name: Range<Int>, value: Range<Int>)] = []

    init() {
        bytes.reserveCapacity(256)
    }

    /// Adds a field.
    mutating func append(_ name: String, _ value: String) {
        let nameStart = bytes.count
        bytes.append(contentsOf: name.utf8)
        let valueStart = bytes.count
        bytes.append(contentsOf: value.utf8)
        spans.append((nameStart..<valueStart, valueStart..<bytes.count))
    }

    /// How many fields.
    var count: Int {
        spans.count
    }

    /// Calls `body` with the entries, valid during the call.
    func withEntries<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
        var bytes = self.bytes
        if bytes.isEmpty { bytes.append(0) }
        return bytes.withUnsafeMutableBufferPointer { raw in
            let base = raw.baseAddress!
            let entries = spans.map { span in
                nghttp2_nv(
                    name: base + span.name.lowerBound, value: base + span.value.lowerBound, namelen: span.name.count,
                    valuelen: span.value.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            return entries.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }
    }
}
