import RxCore
import RxUVTestSupport
import XCTest

@testable import RxUV

final class ByteBufferTests: BridgeTestCase {
    func testByteBuffer_SliceSharesStorageAndStartsAtZero() {
        let buffer = ByteBuffer(string: "hello, world")
        let slice = buffer.slice(at: 7, count: 5)
        XCTAssertEqual(slice.string, "world")
        XCTAssertEqual(slice.startIndex, 0)
        XCTAssertEqual(slice[0], UInt8(ascii: "w"))
        XCTAssertTrue(slice.sharesStorage(with: buffer))
        XCTAssertEqual(buffer.slice(0..<5).string, "hello")
        XCTAssertEqual(slice.slice(at: 1, count: 3).string, "orl")
        XCTAssertEqual(buffer.slice(at: 12, count: 0).count, 0)
        XCTAssertFalse(ByteBuffer(string: "world").sharesStorage(with: buffer))
    }

    func testByteBuffer_EqualityAndHashOfSlicesAreByContent() {
        let a = ByteBuffer(string: "xxabcxx").slice(at: 2, count: 3)
        let b = ByteBuffer(string: "abc")
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set([a, b]).count, 1)
        XCTAssertNotEqual(a, ByteBuffer(string: "abd"))
        XCTAssertEqual(Array(a), Array("abc".utf8))
    }

    func testByteBuffer_ConcatenationAndInitialisers() {
        let joined = ByteBuffer(string: "ab") + ByteBuffer(string: "").slice(at: 0, count: 0) + ByteBuffer([0x63, 0x64])
        XCTAssertEqual(joined.string, "abcd")
        XCTAssertEqual(ByteBuffer(concatenating: []).count, 0)
        let single = ByteBuffer(string: "one")
        XCTAssertTrue(ByteBuffer(concatenating: [single]).sharesStorage(with: single))
        XCTAssertEqual(ByteBuffer(string: "héllo").count, 6)
        XCTAssertEqual(ByteBuffer("xyz".utf8).string, "xyz")
        XCTAssertEqual(ByteBuffer(stride(from: UInt8(1), through: 3, by: 1)), [1, 2, 3])
        XCTAssertEqual(ByteBuffer().count, 0)
    }

    func testByteBuffer_CopyOfASliceHoldsOnlyItsBytes() {
        let read = ByteBuffer(string: "SET key value")
        let key = read.slice(at: 4, count: 3)
        let copy = ByteBuffer(key)
        XCTAssertEqual(copy, key)
        XCTAssertFalse(copy.sharesStorage(with: read))
        XCTAssertEqual(Array(read.slice(at: 8, count: 5)), Array("value".utf8))
        XCTAssertEqual(read.withContiguousStorageIfAvailable { $0.count }, 13)
        XCTAssertEqual(ByteBuffer(read.slice(at: 13, count: 0)).count, 0)
    }

    /// Appending (package API, how a TLS stream gathers records): in place
    /// while the storage is this buffer's alone and has room, never into a
    /// storage another buffer sees, and room made ahead of time is used.
    func testByteBuffer_AppendWritesInPlaceOnlyIntoRoomNoOneElseSees() {
        func append(_ text: String, to buffer: inout ByteBuffer) {
            Array(text.utf8).withUnsafeBytes { buffer.append($0) }
        }
        func address(_ buffer: ByteBuffer) -> UnsafeRawPointer? { buffer.withUnsafeBytes { $0.baseAddress } }

        var gathered = ByteBuffer(reservingCapacity: 8)
        append("abc", to: &gathered)
        let first = address(gathered)
        append("defgh", to: &gathered)
        XCTAssertEqual(address(gathered), first, "appended in place, into the room reserved")
        XCTAssertEqual(gathered.string, "abcdefgh")

        let shared = gathered
        append("i", to: &gathered)
        XCTAssertEqual(shared.string, "abcdefgh", "a buffer that shares the storage sees no change")
        XCTAssertEqual(gathered.string, "abcdefghi")
        XCTAssertFalse(gathered.sharesStorage(with: shared))
        append("", to: &gathered)
        XCTAssertEqual(gathered.string, "abcdefghi")

        let whole = ByteBuffer(string: "0123456789")
        var slice = whole.slice(at: 4, count: 3)
        slice.reserveCapacity(1000)
        XCTAssertFalse(slice.sharesStorage(with: whole), "the room is made in storage of its own")
        let reserved = address(slice)
        append(String(repeating: "x", count: 997), to: &slice)
        XCTAssertEqual(address(slice), reserved)
        XCTAssertEqual(slice.count, 1000)
        XCTAssertEqual(slice.slice(at: 0, count: 4).string, "456x")
        XCTAssertEqual(whole.string, "0123456789")
        slice.reserveCapacity(10)
        XCTAssertEqual(address(slice), reserved, "room already there is kept")
    }

    #if TRACE_RESOURCES
    /// A producer's spare storage (package API: a read's copy, a response
    /// head): the next buffer is written into it only once no buffer holds
    /// it, and a storage past the limit is not kept.
    func testByteBuffer_SpareStorageIsWrittenAgainOnlyOnceNoBufferHoldsIt() {
        func make(_ text: String, _ spare: inout ByteBuffer.SpareStorage) -> ByteBuffer {
            ByteBuffer(unsafeUninitializedCapacity: text.utf8.count, reusing: &spare) { memory in
                memory.copyBytes(from: text.utf8)
                return text.utf8.count
            }
        }
        func allocations(_ body: () -> Void) -> Int {
            let before = ByteBuffer.storageAllocations.load(ordering: .relaxed)
            body()
            return ByteBuffer.storageAllocations.load(ordering: .relaxed) - before
        }
        var spare = ByteBuffer.SpareStorage(keepLimit: 64)
        var held: [ByteBuffer] = []
        XCTAssertEqual(allocations { held.append(make("first", &spare)) }, 1)
        XCTAssertEqual(allocations { held.append(make("second", &spare)) }, 1, "the first is still held: a storage of its own")
        XCTAssertEqual(held.map(\.string), ["first", "second"])
        held.removeAll()
        XCTAssertEqual(allocations { XCTAssertEqual(make("third", &spare).string, "third") }, 0, "nothing holds the kept storage")
        XCTAssertEqual(allocations { XCTAssertEqual(make(String(repeating: "y", count: 100), &spare).count, 100) }, 1, "no room: a new one")
        XCTAssertEqual(allocations { XCTAssertEqual(make("fourth", &spare).string, "fourth") }, 1, "over the limit, that one was not kept")
        XCTAssertEqual(allocations { _ = make("fifth", &spare) }, 0)
        spare.release()
        XCTAssertEqual(allocations { _ = make("sixth", &spare) }, 1, "released")
    }
    #endif

    func testByteBuffer_FirstIndexOfByte() {
        let buffer = ByteBuffer(string: "--a\nb\n").slice(at: 2, count: 4)
        XCTAssertEqual(buffer.firstIndex(of: 0x0A), 1)
        XCTAssertNil(buffer.firstIndex(of: UInt8(ascii: "-")))
        XCTAssertNil(ByteBuffer().firstIndex(of: 0))
    }

    func testReader_IntegersInBothByteOrders() {
        var reader = ByteBuffer.Reader(ByteBuffer([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]))
        XCTAssertEqual(reader.peekInteger(as: UInt16.self), 0x0102)
        XCTAssertEqual(reader.readInteger(endianness: .little, as: UInt16.self), 0x0201)
        XCTAssertEqual(reader.readInteger(as: UInt32.self), 0x0304_0506)
        XCTAssertEqual(reader.peekInteger(at: 1, as: UInt8.self), 0x08)
        XCTAssertNil(reader.readInteger(as: UInt64.self), "three bytes left")
        XCTAssertEqual(reader.readerIndex, 6, "a failed read does not move")
        XCTAssertEqual(reader.readInteger(as: Int8.self), 7)
        XCTAssertEqual(reader.readableBytes, 2)
        XCTAssertNil(reader.peekInteger(at: -1, as: UInt8.self))
    }

    func testReader_BytesStringsAndSearchAreSlices() {
        let buffer = ByteBuffer(string: "GET /x\r\nrest")
        var reader = ByteBuffer.Reader(buffer)
        XCTAssertEqual(reader.firstIndex(of: 0x0A), 7)
        XCTAssertEqual(reader.firstIndex(of: 0x0A, from: 8), nil)
        XCTAssertEqual(reader.readString(3), "GET")
        reader.moveReaderIndex(forwardBy: 1)
        let path = reader.readBytes(2)!
        XCTAssertEqual(path.string, "/x")
        XCTAssertTrue(path.sharesStorage(with: buffer))
        XCTAssertEqual(reader.firstIndex(of: 0x0A), 1)
        XCTAssertNil(reader.readBytes(100))
        XCTAssertEqual(reader.peekBytes(2)?.string, "\r\n")
        reader.moveReaderIndex(forwardBy: 2)
        XCTAssertEqual(reader.remaining.string, "rest")
        XCTAssertTrue(reader.remaining.sharesStorage(with: buffer))
    }

    func testReader_SearchCountsFromTheReaderInASlice() {
        // The reader's buffer is a slice of a larger one, and bytes before the
        // reader and before `from` hold the byte searched for: neither is found.
        let whole = ByteBuffer(string: "\n\nab\ncd\n")
        var reader = ByteBuffer.Reader(whole.slice(at: 1, count: 7))
        reader.moveReaderIndex(forwardBy: 1)
        XCTAssertEqual(reader.firstIndex(of: 0x0A), 2)
        XCTAssertEqual(reader.firstIndex(of: 0x0A, from: 2), 2)
        XCTAssertEqual(reader.firstIndex(of: 0x0A, from: 3), 5)
        XCTAssertNil(reader.firstIndex(of: 0x0A, from: 6))
        XCTAssertNil(reader.firstIndex(of: 0x0A, from: -1))
        XCTAssertNil(reader.firstIndex(of: UInt8(ascii: "x")))
    }
}
