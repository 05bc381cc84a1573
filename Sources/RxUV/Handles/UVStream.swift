internal import CLibUV
import RxCore

#if canImport(Glibc)
import Glibc
#endif

/// Receives a stream's reads: the stream's owner (`StreamConnection`),
/// which hands each to its reader. Loop thread.
protocol UVStreamTarget: AnyObject {
    /// A read completed (`uv_read_cb`): `count` bytes at `bytes`, `UV_EOF`,
    /// or a negative error status.
    func streamDidRead(_ count: Int, _ bytes: UnsafeRawPointer?)
}

/// A `uv_stream_t`: the part of TCP sockets, pipes and TTYs that libuv
/// shares between them (read, write, shutdown). Listening and accepting
/// are RxUV's own (`Acceptor`), so that a connection can be opened on any
/// loop.
///
/// Its reads reach `target`, its owner, which the handle holds strongly
/// only while reading (and not otherwise, so an unread connection that is
/// released closes).
class UVStream: UVHandle, @unchecked Sendable {
    /// Where reads go; released when the handle closes.
    var target: UVStreamTarget?

    /// Ignores SIGPIPE for the whole process, once, before the first stream
    /// (a TCP socket, or a pipe to a child, which libuv writes with plain
    /// `write`): a write to a closed peer then fails with `EPIPE` instead
    /// of killing the process.
    private static let ignoreSIGPIPE: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    override init(loop: Loop, type: uv_handle_type, kind: UVHandleKind, isLoopInternal: Bool = false) {
        _ = Self.ignoreSIGPIPE
        super.init(loop: loop, type: type, kind: kind, isLoopInternal: isLoopInternal)
    }

    override func releaseCallbacks() {
        target = nil
    }

    var stream: UnsafeMutablePointer<uv_stream_t> {
        pointer.assumingMemoryBound(to: uv_stream_t.self)
    }

    /// Starts reading into the loop's shared read buffer (`uv_read_start`);
    /// reads go to `target`.
    func startReading() throws(UVError) {
        try uvCall("uv_read_start") { uv_read_start(stream, uvAllocate, uvReadCompleted) }
    }

    /// Stops reading (`uv_read_stop`).
    func stopReading() {
        uv_read_stop(stream)
    }

    /// Writes what the kernel takes of `buffers` without blocking
    /// (`uv_try_write`): the number of bytes written, or a negative status
    /// (`UV_EAGAIN` when nothing could be written, or while writes are
    /// queued). In debug builds a fault armed for `uv_write` replaces it: a
    /// write fails the same way whichever call makes it.
    func tryWrite(_ buffers: UnsafeMutablePointer<uv_buf_t>, count: Int) -> Int {
        Int(uvStatus("uv_write") { uv_try_write(stream, buffers, UInt32(count)) })
    }

    /// Bytes queued for writing and not yet handed to the kernel
    /// (`uv_stream_get_write_queue_size`).
    var writeQueueSize: Int {
        uv_stream_get_write_queue_size(stream)
    }

    /// Closes the stream, with a reset where the kind of stream has one
    /// (TCP overrides this); otherwise as `close()`. Loop thread.
    func closeWithReset() {
        close()
    }

    /// A stream made by `make` that adopts the open `descriptor` with
    /// `open` (`uv_pipe_open`, `uv_tcp_open`, given the number); on any
    /// failure the handle is closed and so is the descriptor (libuv took it
    /// only if `open` succeeded).
    static func adopting<Stream: UVStream>(_ descriptor: consuming OwnedDescriptor, make: () throws(UVError) -> Stream, open: (Stream, Int32) throws(UVError) -> Void) throws(UVError) -> Stream {
        // A throw drops `owned` (the handle closes) and `descriptor`.
        let owned = Owned(try make())
        try open(owned.resource, descriptor.descriptor)
        _ = descriptor.handOver()
        return owned.handOver()
    }

}

private func uvAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    buffer!.pointee = UVHandle.withOwner(of: handle, as: UVStream.self) { $0.loop.readBuffer.uvBuffer }
}

private func uvReadCompleted(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    UVHandle.withOwner(of: stream, as: UVStream.self) { $0.target?.streamDidRead(count, buffer.flatMap { UnsafeRawPointer($0.pointee.base) }) }
}
