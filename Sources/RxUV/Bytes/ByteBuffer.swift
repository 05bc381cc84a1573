/// An immutable run of bytes, the one byte type of RxUV's public API.
///
/// A read emits each chunk as a `ByteBuffer` holding exactly the bytes read,
/// in one allocation; writing that buffer back (an echo) hands the same
/// memory to `uv_write` without another copy. It is a `RandomAccessCollection`
/// of `UInt8`, so `Array(buffer)`, `buffer.count` and `for byte in buffer`
/// work as usual. A buffer is immutable, so it may be shared across threads.
public struct ByteBuffer: @unchecked Sendable {
    final class Storage: ManagedBuffer<Int, UInt8> {}

    let storage: Storage

    /// Copies `count` bytes from `source`.
    init(copying source: UnsafeRawPointer, count: Int) {
        storage = Storage.create(minimumCapacity: count) { _ in count } as! Storage
        storage.withUnsafeMutablePointerToElements { elements in
            elements.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    /// A buffer holding `bytes`.
    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        self = array.withUnsafeBytes { raw in
            ByteBuffer(copying: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: raw.count)
        }
    }

    /// A buffer holding the UTF-8 bytes of `string`.
    public init(string: String) {
        self.init(Array(string.utf8))
    }

    /// An empty buffer.
    public init() {
        self.init([])
    }

    /// Calls `body` with the bytes; the pointer is valid only inside `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { elements in
            try body(UnsafeRawBufferPointer(start: elements, count: storage.header))
        }
    }

    /// The bytes decoded as UTF-8, with invalid sequences replaced.
    public var string: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A buffer holding a copy of the `count` bytes at `source`, written into
    /// `spare`'s memory when nothing else holds that storage any more and it
    /// is large enough, else into a new allocation. Afterwards `spare` holds
    /// the new buffer's storage when it is at most `keepLimit` bytes, so the
    /// next read can reuse it once every copy of this buffer is gone (an echo
    /// that wrote it at once). Mutating is safe: a uniquely referenced
    /// storage is visible to no one else.
    static func copying(_ source: UnsafeRawPointer, count: Int, reusing spare: inout Storage?, keepLimit: Int) -> ByteBuffer {
        let buffer: ByteBuffer
        if isKnownUniquelyReferenced(&spare), let storage = spare, storage.capacity >= count {
            storage.header = count
            storage.withUnsafeMutablePointerToElements { elements in
                elements.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
            }
            buffer = ByteBuffer(storage: storage)
        } else {
            buffer = ByteBuffer(copying: source, count: count)
        }
        spare = count <= keepLimit ? buffer.storage : nil
        return buffer
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The start of the bytes, stable for as long as `storage` is alive.
    var baseAddress: UnsafeMutablePointer<UInt8> {
        storage.withUnsafeMutablePointerToElements { $0 }
    }
}

extension ByteBuffer: RandomAccessCollection {
    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of bytes.
    public var endIndex: Int { storage.header }

    /// The byte at `position`.
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < endIndex, "ByteBuffer index out of range")
        return storage.withUnsafeMutablePointerToElements { $0[position] }
    }
}

extension ByteBuffer: Equatable, Hashable {
    /// Buffers are equal when they hold the same bytes.
    public static func == (lhs: ByteBuffer, rhs: ByteBuffer) -> Bool {
        lhs.count == rhs.count
            && lhs.withUnsafeBytes { left in
                rhs.withUnsafeBytes { right in left.elementsEqual(right) }
            }
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension ByteBuffer: ExpressibleByArrayLiteral {
    /// A buffer of the listed bytes.
    public init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }
}

extension ByteBuffer: CustomStringConvertible {
    /// `ByteBuffer(5 bytes)`.
    public var description: String {
        "ByteBuffer(\(count) bytes)"
    }
}
