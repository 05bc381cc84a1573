import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An immutable run of bytes, the one byte type of RxUV's public API.
///
/// A read emits each chunk as a `ByteBuffer` holding exactly the bytes read;
/// writing that buffer back (an echo) writes the same memory. A slice
/// (`slice(at:count:)`, `slice(_:)`, or what a `ByteBuffer.Reader` reads)
/// shares the memory of the buffer it came from, and keeps it alive while
/// the slice lives; a frame that lies inside one read is a slice of it.
///
/// It is a `RandomAccessCollection` of `UInt8` whose indices start at 0 (a
/// slice too), so `Array(buffer)`, `buffer.count` and `for byte in buffer`
/// work as usual. A buffer is immutable, so it may be shared across threads.
public struct ByteBuffer: @unchecked Sendable {
    // @unchecked Sendable: the bytes a buffer can see never change once it
    // exists. (A read's storage is rewritten only when it is uniquely
    // referenced, that is, when no buffer can see it.)
    @usableFromInline
    final class Storage: ManagedBuffer<Int, UInt8> {
        /// A storage with room for at least `capacity` bytes, of which the
        /// first `count` will be written. Every storage is made here.
        static func make(capacity: Int, count: Int) -> Storage {
            #if TRACE_RESOURCES
            ByteBuffer.storageAllocations.add(1, ordering: .relaxed)
            #endif
            return unsafeDowncast(create(minimumCapacity: capacity) { _ in count }, to: Storage.self)
        }

        /// The bytes written from the start (the header). Set through a
        /// pointer: a write of `header` itself is a class property write,
        /// checked for exclusivity at run time on every call.
        var count: Int {
            get { withUnsafeMutablePointerToHeader { $0.pointee } }
            set { withUnsafeMutablePointerToHeader { $0.pointee = newValue } }
        }
    }

    #if TRACE_RESOURCES
    /// Storages made so far (debug builds): how tests check that slicing and
    /// framing do not copy.
    static let storageAllocations = Atomic<Int>(0)
    #endif

    // Visible to inlinable code, so that reading a byte, the count or the
    // bytes' address costs no call in the user's module (a loop over a
    // buffer's bytes, `Array.append(contentsOf:)`).
    @usableFromInline private(set) var storage: Storage
    /// Where this buffer's bytes start in `storage`.
    @usableFromInline var offset: Int
    /// How many bytes this buffer has.
    @usableFromInline var length: Int

    /// A buffer over `length` bytes of `storage` from `offset` on.
    private init(storage: Storage, offset: Int, length: Int) {
        self.storage = storage
        self.offset = offset
        self.length = length
    }

    /// A buffer over all the bytes written into `storage`.
    private init(storage: Storage) {
        self.init(storage: storage, offset: 0, length: storage.count)
    }

    /// Copies `count` bytes from `source`.
    init(copying source: UnsafeRawPointer, count: Int) {
        let storage = Storage.make(capacity: count, count: count)
        storage.withUnsafeMutablePointerToElements { elements in
            elements.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
        }
        self.init(storage: storage)
    }

    /// A buffer of at most `capacity` bytes that `initializer` writes in
    /// place, as `Array(unsafeUninitializedCapacity:initializingWith:)`
    /// does: it gets the memory and returns how many bytes it wrote (from
    /// the start, at most `capacity`). The buffer holds the bytes where
    /// `initializer` wrote them: how a decoder or a TLS stream makes a
    /// buffer from what a C call writes.
    public init(unsafeUninitializedCapacity capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        precondition(capacity >= 0, "ByteBuffer: a negative capacity")
        let storage = Storage.make(capacity: capacity, count: 0)
        let written = try storage.withUnsafeMutablePointerToElements { elements in
            try initializer(UnsafeMutableRawBufferPointer(start: elements, count: capacity))
        }
        precondition(written >= 0 && written <= capacity, "ByteBuffer: the initializer wrote \(written) bytes into \(capacity)")
        storage.count = written
        self.init(storage: storage)
    }

    /// Copies the bytes of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        self.init(copying: bytes.baseAddress ?? ByteBuffer.emptyAddress, count: bytes.count)
    }

    /// A buffer holding `bytes`.
    public init<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let copied = bytes.withContiguousStorageIfAvailable { ByteBuffer(copying: UnsafeRawBufferPointer($0)) }
        if let copied {
            self = copied
        } else {
            self = Array(bytes).withUnsafeBytes { ByteBuffer(copying: $0) }
        }
    }

    /// A buffer holding the UTF-8 bytes of `string` (one copy).
    public init(string: String) {
        var string = string
        self = string.withUTF8 { ByteBuffer(copying: UnsafeRawBufferPointer($0)) }
    }

    /// An empty buffer.
    public init() {
        self.init(copying: ByteBuffer.emptyAddress, count: 0)
    }

    /// One buffer holding the bytes of `buffers` in order (one copy; a single
    /// buffer is returned as it is).
    public init(concatenating buffers: [ByteBuffer]) {
        if buffers.count == 1 {
            self = buffers[0]
            return
        }
        let total = buffers.reduce(0) { $0 + $1.count }
        let storage = Storage.make(capacity: total, count: total)
        storage.withUnsafeMutablePointerToElements { elements in
            var at = elements
            for buffer in buffers {
                buffer.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress {
                        at.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
                    }
                    at += bytes.count
                }
            }
        }
        self.init(storage: storage)
    }

    /// The bytes of `lhs` followed by those of `rhs`, in a new buffer.
    public static func + (lhs: ByteBuffer, rhs: ByteBuffer) -> ByteBuffer {
        ByteBuffer(concatenating: [lhs, rhs])
    }

    /// `count` bytes from `index` on, sharing this buffer's memory (no copy).
    /// The slice's indices start at 0.
    ///
    /// - Precondition: `index >= 0`, `count >= 0`, `index + count <= self.count`.
    public func slice(at index: Int, count: Int) -> ByteBuffer {
        precondition(index >= 0 && count >= 0 && index <= length - count, "ByteBuffer.slice(at:count:): out of range")
        return ByteBuffer(storage: storage, offset: offset + index, length: count)
    }

    /// The bytes in `range`, sharing this buffer's memory (no copy). The
    /// slice's indices start at 0.
    public func slice(_ range: Range<Int>) -> ByteBuffer {
        slice(at: range.lowerBound, count: range.count)
    }

    /// `true` when `self` and `other` share their memory (one is a slice of
    /// the other, or both of one buffer).
    public func sharesStorage(with other: ByteBuffer) -> Bool {
        storage === other.storage
    }

    /// Calls `body` with the bytes; the pointer is valid only inside `body`.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: baseAddress, count: length))
    }

    /// The bytes decoded as UTF-8, with invalid sequences replaced.
    public var string: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The index of the first byte equal to `byte`, if any.
    public func firstIndex(of byte: UInt8) -> Int? {
        firstIndex(of: byte, from: 0)
    }

    /// The index of the first byte equal to `byte` at or after `start`
    /// (within the buffer), if any: searched in place, with no slice.
    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start >= 0, start < length else { return nil }
        let base = baseAddress
        guard let found = memchr(base + start, Int32(byte), length - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The first `count` bytes written into `storage`, which the buffer
    /// takes as it is (no copy): what a large read does with the loop's
    /// read buffer (`Loop.takeReadStorage`). `storage` is written again
    /// only once no buffer holds it (the loop then takes it back).
    init(adopting storage: Storage, count: Int) {
        storage.count = count
        self.init(storage: storage)
    }

    /// The storage of the last buffer a producer made, kept for its next
    /// one: written again only once no buffer holds it any more (a read
    /// echoed at once, a response head the kernel took whole), so that a
    /// producer that makes one small buffer after another allocates once.
    /// Storages over `keepLimit` bytes are not kept. State of one thread
    /// (the producer's).
    package struct SpareStorage {
        fileprivate var storage: Storage?
        /// The largest storage kept, in bytes.
        package let keepLimit: Int

        /// Nothing kept yet; storages up to `keepLimit` bytes will be.
        package init(keepLimit: Int) {
            self.keepLimit = keepLimit
        }

        /// Lets the kept storage go (its producer is done).
        package mutating func release() {
            storage = nil
        }
    }

    /// `init(unsafeUninitializedCapacity:initializingWith:)` into `spare`'s
    /// storage when nothing else holds it any more and it has the room,
    /// else into a new allocation, which `spare` then keeps (up to its
    /// `keepLimit`). Writing in place is safe: a uniquely referenced
    /// storage is visible to no buffer.
    package init(
        unsafeUninitializedCapacity capacity: Int, reusing spare: inout SpareStorage,
        initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int
    ) rethrows {
        precondition(capacity >= 0, "ByteBuffer: a negative capacity")
        let storage: Storage
        if isKnownUniquelyReferenced(&spare.storage), let kept = spare.storage, kept.capacity >= capacity {
            storage = kept
        } else {
            storage = Storage.make(capacity: capacity, count: 0)
            spare.storage = capacity <= spare.keepLimit ? storage : nil
        }
        let written = try storage.withUnsafeMutablePointerToElements { elements in
            try initializer(UnsafeMutableRawBufferPointer(start: elements, count: capacity))
        }
        precondition(written >= 0 && written <= capacity, "ByteBuffer: the initializer wrote \(written) bytes into \(capacity)")
        storage.count = written
        self.init(storage: storage)
    }

    /// A copy of the `count` bytes at `source`, made into `spare`'s storage
    /// when it is free (`init(unsafeUninitializedCapacity:reusing:initializingWith:)`):
    /// a read's bytes, copied out of the loop's read buffer.
    static func copying(_ source: UnsafeRawPointer, count: Int, reusing spare: inout SpareStorage) -> ByteBuffer {
        ByteBuffer(unsafeUninitializedCapacity: count, reusing: &spare) { memory in
            memory.baseAddress?.copyMemory(from: source, byteCount: count)
            return count
        }
    }

    /// An empty buffer with room for `capacity` bytes to be appended in
    /// place (`append`): how a TLS stream gathers the records OpenSSL
    /// writes for the peer in the buffer the transport then writes.
    package init(reservingCapacity capacity: Int) {
        self.init(storage: Storage.make(capacity: capacity, count: 0))
    }

    /// Appends the bytes of `more`, for a decoder's partial frame: in place
    /// when this buffer is the only one that sees its storage and there is
    /// room after its bytes, else into a new storage with room to grow
    /// (twice the size), so a frame that arrives in many small reads costs a
    /// bounded number of copies per byte. Other buffers never see a change:
    /// a shared storage is never written.
    mutating func append(_ more: ByteBuffer) {
        more.withUnsafeBytes { append($0) }
    }

    /// Appends a copy of `bytes`, as `append(_:)` appends a buffer's.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        let needed = length + bytes.count
        makeRoom(for: needed, growingTo: Swift.max(needed, 2 * length, 256))
        (baseAddress + length).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        storage.count = offset + needed
        length = needed
    }

    /// Makes room for `capacity` bytes in all (those held and those to be
    /// appended) in storage that only this buffer sees, so that the appends
    /// that follow write in place.
    package mutating func reserveCapacity(_ capacity: Int) {
        makeRoom(for: capacity, growingTo: capacity)
    }

    /// Room for `count` bytes from this buffer's start, in storage only it
    /// sees: the storage as it is when it has that room, else a new one of
    /// `grown` bytes holding a copy of these.
    private mutating func makeRoom(for count: Int, growingTo grown: Int) {
        if isKnownUniquelyReferenced(&storage), storage.capacity - offset >= count { return }
        let made = Storage.make(capacity: Swift.max(grown, length), count: length)
        made.withUnsafeMutablePointerToElements { elements in
            elements.update(from: baseAddress, count: length)
        }
        self = ByteBuffer(storage: made)
    }

    /// The start of the bytes, stable for as long as `storage` is alive.
    @inlinable
    var baseAddress: UnsafeMutablePointer<UInt8> {
        storage.withUnsafeMutablePointerToElements { $0 + offset }
    }

    /// A valid address for zero bytes.
    private static var emptyAddress: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }
}

extension ByteBuffer: RandomAccessCollection {
    /// Always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of bytes.
    @inlinable
    public var endIndex: Int { length }

    /// The number of bytes.
    @inlinable
    public var count: Int { length }

    /// The byte at `position`.
    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < length, "ByteBuffer index out of range")
        return baseAddress[position]
    }

    /// Calls `body` with the bytes, which are always contiguous: what makes
    /// `ByteBuffer(slice)` and `Array(buffer)` one `memcpy`. A copy made
    /// with `ByteBuffer(slice)` holds only the slice's bytes, so keeping it
    /// (a key or value a server stores) does not keep the whole read alive.
    @inlinable
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        try body(UnsafeBufferPointer(start: baseAddress, count: length))
    }
}

extension ByteBuffer: Equatable, Hashable {
    /// Buffers are equal when they hold the same bytes.
    public static func == (lhs: ByteBuffer, rhs: ByteBuffer) -> Bool {
        lhs.count == rhs.count
            && (lhs.count == 0 || memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0)
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
