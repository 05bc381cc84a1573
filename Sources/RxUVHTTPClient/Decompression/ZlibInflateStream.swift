internal import CZlib

/// One zlib inflate stream (`z_stream`), the one place the package inflates:
/// `HTTPContentDecoder` reads a response body's gzip or deflate framing and
/// hands the compressed bytes to it, and RxUVWebSocket's permessage-deflate
/// inflates messages with it (hence `package`, not `public`).
///
/// The `z_stream` lives at a stable address (zlib keeps a pointer back to
/// it in its internal state, so it must never move): it is allocated when
/// the stream is made and freed, after `inflateEnd`, when the stream ends.
/// Not copyable, so that exactly one owner ends it.
package struct ZlibInflateStream: ~Copyable {
    /// What one `inflate(_:into:)` call did.
    package struct Step {
        /// zlib's status: `Z_OK`, `Z_STREAM_END`, `Z_BUF_ERROR` (no progress
        /// was possible), `Z_NEED_DICT`, `Z_DATA_ERROR`, `Z_MEM_ERROR`.
        package let status: Int32
        /// The input bytes consumed, from the start of the input.
        package let consumed: Int
        /// The output bytes written, from the start of the output.
        package let produced: Int

        /// The stream reached its end (`Z_STREAM_END`).
        package var ended: Bool {
            status == Z_STREAM_END
        }

        /// The call went well, or could make no progress (`Z_BUF_ERROR`,
        /// not an error in itself); otherwise the data is malformed or
        /// zlib failed.
        package var succeeded: Bool {
            status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR
        }

        /// The stream needs a preset dictionary (`Z_NEED_DICT`), which HTTP
        /// has no way to name.
        package var needsDictionary: Bool {
            status == Z_NEED_DICT
        }

        /// zlib could not allocate its state (`Z_MEM_ERROR`).
        package var outOfMemory: Bool {
            status == Z_MEM_ERROR
        }
    }

    /// `windowBits` for the gzip format only (RFC 1952): 15 + 16.
    package static let gzipWindowBits: Int32 = 15 + 16
    /// `windowBits` for the zlib format (RFC 1950), HTTP's "deflate".
    package static let zlibWindowBits: Int32 = 15
    /// `windowBits` for raw deflate data (RFC 1951), which many servers
    /// send as "deflate".
    package static let rawDeflateWindowBits: Int32 = -15

    /// The most input one zlib call takes (`avail_in` is 32 bits).
    private static let maxChunk = 1 << 30

    /// The stream, at a stable address.
    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream that inflates the format `windowBits` names (one of the
    /// constants above, or `-8` to `-15` for raw deflate with a smaller
    /// window); `nil` when zlib cannot make its state (out of memory, or
    /// `windowBits` out of its range). The corresponding zlib function is
    /// `inflateInit2`.
    package init?(windowBits: Int32) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        // zalloc, zfree and opaque nil (Z_NULL): zlib's own allocator.
        stream.initialize(to: z_stream())
        let status = rxuv_inflateInit2(stream, windowBits)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    /// A second stream in this one's state (its window, the data it is
    /// inside), going on independently from here; `nil` when zlib cannot
    /// allocate it. The corresponding zlib function is `inflateCopy`.
    package func copy() -> ZlibInflateStream? {
        ZlibInflateStream(copying: stream)
    }

    private init?(copying source: UnsafeMutablePointer<z_stream>) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateCopy(stream, source) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    /// Starts over on a new stream of the format `windowBits` names,
    /// keeping the memory zlib allocated: the next member of a gzip body,
    /// or raw deflate once the first bytes showed no zlib header. The
    /// corresponding zlib function is `inflateReset2`.
    package func reset(windowBits: Int32) {
        let status = inflateReset2(stream, windowBits)
        precondition(status == Z_OK, "ZlibInflateStream: inflateReset2 returned \(status)")
    }

    /// Inflates from the start of `input` into the start of `output`, as
    /// far as zlib goes in one call (`Z_NO_FLUSH`): until the input is
    /// consumed, the output is full, or the stream ends. The corresponding
    /// zlib function is `inflate`.
    package func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Step {
        let inputCount = min(input.count, Self.maxChunk)
        let outputCount = min(output.count, Self.maxChunk)
        // zlib does not write through next_in; its type is only C's lack of const.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(inputCount)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputCount)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let step = Step(
            status: status,
            consumed: inputCount - Int(stream.pointee.avail_in),
            produced: outputCount - Int(stream.pointee.avail_out)
        )
        // No pointer into the caller's memory outlives the call.
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        return step
    }

    /// zlib's text for the last error (`incorrect header check`), or what
    /// the status means when zlib gave none.
    package func message(for step: Step) -> String {
        if let text = stream.pointee.msg {
            return String(cString: text)
        }
        return "zlib status \(step.status)"
    }

    /// Frees zlib's state (`inflateEnd`), then the stream.
    deinit {
        CZlib.inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
