import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// The last response head's status line and field lines, as sent and as
/// parsed (and the response they made), so that a line that repeats the
/// line in the same place of the last head is not parsed into a new value
/// again, nor a head that repeats every line made into a new response: a
/// server repeats most of its head from one response to the next
/// (`Server`, `Content-Type`, `Connection`, its status line; often all but
/// `Date` and a length), and making each field (its name checked and
/// lower-cased, its value checked and made a `String`) is most of a small
/// response's cost.
///
/// Only lines that were parsed and accepted in a head that was accepted
/// whole are kept, and only a match of every byte is taken as a repeat:
/// a line's parse depends on its bytes alone, so what a response decodes
/// to is the same with or without it (`fuzz-http-response-repeats` holds
/// this). One per `HTTPResponseDecoder`, that is one per connection;
/// heads of more than `mostLinesKept` lines or `longestKept` bytes are not
/// kept. Two sets of storage take turns (the last head's, and the one
/// being parsed), so keeping a head allocates nothing once they have
/// grown.
struct HTTPRecentResponseLines {
    /// The most lines of a head kept, its status line included.
    static var mostLinesKept: Int { 32 }
    /// The longest head kept, in the bytes of its lines.
    static var longestKept: Int { 2048 }

    /// One head's lines: their bytes one after another, and for each its
    /// place in them, where its value lies in it, and what it made.
    struct Lines {
        var bytes: [UInt8] = []
        /// Each field line's end in `bytes` (its start is the one before's
        /// end), its name's length, and its value's range within the line.
        var ends: [(end: Int, nameLength: Int, value: Range<Int>)] = []
        var fields: [HTTPField] = []
        /// The response the head made: its status and its fields, all
        /// together.
        var response: HTTPResponse?
        /// The status line's end in `bytes` and what it made.
        var statusEnd = 0
        var status: (minor: Int, status: HTTPResponse.Status)?
        /// Over the bounds: nothing of this head is kept.
        var isOver = false

        mutating func reset() {
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            fields.removeAll(keepingCapacity: true)
            response = nil
            statusEnd = 0
            status = nil
            isOver = false
        }
    }

    /// The last head's lines (`status` is `nil` when none is kept).
    private var kept = Lines()
    /// The head being parsed.
    private var next = Lines()

    /// Starts the head whose status line is `line`: what the last one
    /// made of it, when it repeats the last's.
    mutating func begin(statusLine line: HeadSlice) -> (minor: Int, status: HTTPResponse.Status)? {
        next.reset()
        next.isOver = line.count > Self.longestKept
        if !next.isOver { next.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line)) }
        next.statusEnd = next.bytes.count
        guard let status = kept.status, Self.same(kept.bytes, 0..<kept.statusEnd, line) else { return nil }
        next.status = status
        return status
    }

    /// The last head's fields whole, with the framing fields noted from
    /// them, when `lines` (the field lines after the status line, `count`
    /// of them) repeat every one of the last head's; `nil` when one does
    /// not. The last head then stays the one kept: no line is copied, and
    /// `accepted` is not to be called.
    func repeatedFields(_ lines: HTTPFieldLines.Lines, count: Int) -> (fields: HTTPFields, framing: HTTPFramingFields)? {
        guard kept.status != nil, let response = kept.response, count == kept.ends.count else { return nil }
        var lines = lines
        var framing = HTTPFramingFields()
        var index = 0
        while let line = lines.next() {
            guard let repeated = repeated(line, at: index) else { return nil }
            framing.note(name: repeated.name, value: repeated.value)
            index += 1
        }
        return (response.headerFields, framing)
    }

    /// The response the last head made, for a head whose status line and
    /// every field line repeat it (`begin` and `repeatedFields` said so):
    /// the same status and fields make the same response.
    var repeatedResponse: HTTPResponse? {
        kept.response
    }

    /// The status line parsed as `status`.
    mutating func parsed(status: (minor: Int, status: HTTPResponse.Status)) {
        next.status = status
    }

    /// What the last head's field line number `index` made, with its name
    /// and value in `line`, when `line` repeats it.
    func repeated(_ line: HeadSlice, at index: Int) -> (name: HeadSlice, value: HeadSlice, field: HTTPField)? {
        guard kept.status != nil, index < kept.ends.count else { return nil }
        let start = index == 0 ? kept.statusEnd : kept.ends[index - 1].end
        let entry = kept.ends[index]
        guard Self.same(kept.bytes, start..<entry.end, line) else { return nil }
        let base = line.startIndex
        return (line[base..<(base + entry.nameLength)], line[(base + entry.value.lowerBound)..<(base + entry.value.upperBound)], kept.fields[index])
    }

    /// The field line `line` (its name and value in it) made `field`.
    mutating func parsed(_ line: HeadSlice, name: HeadSlice, value: HeadSlice, field: HTTPField) {
        guard !next.isOver else { return }
        guard next.ends.count + 1 < Self.mostLinesKept, next.bytes.count + line.count <= Self.longestKept else {
            next.isOver = true
            return
        }
        next.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line))
        let base = line.startIndex
        next.ends.append((next.bytes.count, name.count, (value.startIndex - base)..<(value.endIndex - base)))
        next.fields.append(field)
    }

    /// The head (making `response`) was accepted whole: it is the one
    /// kept, unless it was over the bounds (then none is).
    mutating func accepted(_ response: HTTPResponse) {
        if next.isOver { next.status = nil }
        next.response = response
        swap(&kept, &next)
    }

    private static func same(_ kept: [UInt8], _ range: Range<Int>, _ bytes: HeadSlice) -> Bool {
        guard range.count == bytes.count else { return false }
        guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return true }
        return kept.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, base + bytes.startIndex, bytes.count) == 0 }
    }
}
