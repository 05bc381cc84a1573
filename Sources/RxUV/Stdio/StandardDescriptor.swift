internal import CLibUV

#if canImport(Glibc)
import Glibc
#endif

/// A standard descriptor (0, 1 or 2) opened for a loop, the way its kind
/// needs (`uv_guess_handle`):
/// - a terminal: a `uv_tty_t` (libuv reopens the terminal by its path);
/// - a pipe or FIFO: reopened through `/proc/self/fd`, so the non-blocking
///   mode libuv sets is on a file description of our own, not on the one
///   the parent shell and the other processes of a pipeline share;
/// - a socket (it cannot be reopened): a duplicate; the non-blocking mode
///   libuv sets is on the open file the socket's other users share, so
///   the flags found before are put back when the handle closes, and at
///   exit (`SharedDescriptorFlags`);
/// - a regular file (epoll cannot watch files): a duplicate, read and
///   written on libuv's thread pool (`uv_fs_read`, `uv_fs_write`).
/// The descriptor itself is never closed.
enum StandardDescriptor: ~Copyable {
    /// A terminal, pipe or socket, as a stream handle.
    case stream(UVStream)
    /// A regular file: a duplicate descriptor, for its next owner
    /// (`FileWriter`, a reading sink).
    case file(OwnedDescriptor)

    /// Opens `descriptor` on `loop`, for reading or for writing. Loop thread.
    static func open(_ descriptor: Int32, forWriting: Bool, loop: Loop) throws(UVError) -> StandardDescriptor {
        let name = "fd \(descriptor)"
        switch uv_guess_handle(descriptor) {
        case UV_TTY:
            return .stream(try UVTTY(loop: loop, descriptor: descriptor))
        case UV_NAMED_PIPE:
            if let reopened = reopen(descriptor, forWriting: forWriting) {
                return .stream(try pipe(reopened, loop: loop, name: name))
            }
            // A Unix-domain socket: shared with its other users.
            return .stream(try sharedStream(descriptor) { () throws(UVError) in try pipe(try duplicate(descriptor), loop: loop, name: name) })
        case UV_TCP:
            return .stream(
                try sharedStream(descriptor) { () throws(UVError) in
                    try UVStream.adopting(try duplicate(descriptor), make: { () throws(UVError) in try UVTCP(loop: loop) }, open: { socket, own throws(UVError) in try socket.open(own) })
                })
        case UV_FILE:
            return .file(try duplicate(descriptor))
        default:
            throw UVError(code: UVError.Code.badFileDescriptor, operation: "uv_guess_handle", address: name)
        }
    }

    /// A new file description for a pipe or FIFO (`/proc/self/fd/N`),
    /// opened non-blocking (a FIFO open would otherwise wait for the other
    /// end); `nil` when it cannot be reopened (a socket, a writer's FIFO
    /// without a reader).
    private static func reopen(_ descriptor: Int32, forWriting: Bool) -> OwnedDescriptor? {
        guard let reopened = try? systemCall("open", address: "fd \(descriptor)", { Glibc.open("/proc/self/fd/\(descriptor)", (forWriting ? O_WRONLY : O_RDONLY) | O_NONBLOCK | O_CLOEXEC) }) else {
            return nil
        }
        return OwnedDescriptor(reopened)
    }

    /// A pipe handle adopting `own`.
    private static func pipe(_ own: consuming OwnedDescriptor, loop: Loop, name: String) throws(UVError) -> UVStream {
        try UVStream.adopting(own, make: { () throws(UVError) in try UVPipe(loop: loop) }, open: { pipe, own throws(UVError) in try pipe.open(own, address: name) })
    }

    /// The handle `adopt` makes on a duplicate of `descriptor`, whose open
    /// file other processes share: its flags are kept before libuv changes
    /// them and put back when the handle closes, or at once when adopting
    /// fails.
    private static func sharedStream(_ descriptor: Int32, _ adopt: () throws(UVError) -> UVStream) throws(UVError) -> UVStream {
        SharedDescriptorFlags.keep(descriptor)
        do throws(UVError) {
            let stream = try adopt()
            stream.afterClose = { SharedDescriptorFlags.restore(descriptor) }
            return stream
        } catch {
            SharedDescriptorFlags.restore(descriptor)
            throw error
        }
    }

    private static func duplicate(_ descriptor: Int32) throws(UVError) -> OwnedDescriptor {
        OwnedDescriptor(try systemCall("dup", address: "fd \(descriptor)") { fcntl(descriptor, F_DUPFD_CLOEXEC, 3) })
    }
}
