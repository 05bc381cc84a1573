internal import CZlib

/// One zlib deflate stream (`z_stream`) making raw deflate data (RFC 1951),
/// the one place RxUVWebSocket compresses: `WebSocketDeflater` gives it each
/// message sent under permessage-deflate.
///
/// The `z_stream` lives at a stable address (zlib keeps a pointer back to
/// it in its internal state): allocated when the stream is made, freed
/// after `deflateEnd` when it ends. Not copyable, so that exactly one owner
/// ends it.
struct ZlibDeflateStream: ~Copyable {
    /// What one `deflate(_:into:)` call did.
    struct Step {
        /// zlib's status: `Z_OK`, `Z_BUF_ERROR` (no progress was possible),
        /// `Z_STREAM_ERROR`.
        let status: Int32
        /// The input bytes consumed, from the start of the input.
        let consumed: Int
        /// The output bytes written, from the start of the output.
        let produced: Int
        /// zlib had room to spare: everything flushed so far is written.
        let outputLeft: Int
    }

    /// The stream, at a stable address.
    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream of raw deflate data with a window of `2^windowBits` bytes
    /// (9 to 15: zlib makes no raw data with a window of 8 bits), at
    /// compression `level` (0 to 9) with `memoryLevel` (1 to 9) of memory
    /// for its state; `nil` when zlib cannot make its state (out of memory,
    /// or a value out of its range). The corresponding zlib function is
    /// `deflateInit2`.
    init?(level: Int32, windowBits: Int32, memoryLevel: Int32) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        // zalloc, zfree and opaque nil (Z_NULL): zlib's own allocator.
        stream.initialize(to: z_stream())
        guard rxuv_deflateInit2(stream, level, -windowBits, memoryLevel) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    /// The most bytes `inputCount` bytes may compress to in one call that
    /// ends with a sync flush: zlib's bound for them and the flush's empty
    /// block. The corresponding zlib function is `deflateBound`.
    func bound(_ inputCount: Int) -> Int {
        Int(deflateBound(stream, uLong(inputCount))) + 16
    }

    /// Compresses from the start of `input` into the start of `output` and
    /// flushes to a byte boundary (`Z_SYNC_FLUSH`: the data ends with an
    /// empty stored block, `00 00 ff ff`). When the output filled before
    /// the flush was done, call again with the input left and more room.
    /// The corresponding zlib function is `deflate`.
    func deflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Step {
        precondition(input.count <= Int(UInt32.max) && output.count <= Int(UInt32.max), "ZlibDeflateStream: more than 4 GiB in one call")
        // zlib does not write through next_in; its type is only C's lack of const.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let status = CZlib.deflate(stream, Z_SYNC_FLUSH)
        let step = Step(
            status: status,
            consumed: input.count - Int(stream.pointee.avail_in),
            produced: output.count - Int(stream.pointee.avail_out),
            outputLeft: Int(stream.pointee.avail_out)
        )
        // No pointer into the caller's memory outlives the call.
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        return step
    }

    /// Forgets the data compressed so far (the window), keeping the memory:
    /// what follows refers to nothing before it. The corresponding zlib
    /// function is `deflateReset`.
    func reset() {
        let status = deflateReset(stream)
        precondition(status == Z_OK, "ZlibDeflateStream: deflateReset returned \(status)")
    }

    /// Frees zlib's state (`deflateEnd`), then the stream.
    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
