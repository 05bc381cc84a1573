#if canImport(Glibc)
import Glibc
#endif

/// The one way the bridge owns a raw descriptor it opened (a listening or
/// accepted socket, a Unix socket before libuv adopts it, a probe, a
/// duplicate of a standard descriptor, a file), from the system call that
/// made it until it is closed or handed to libuv.
///
/// Like `Owned` for handles, it is noncopyable, so a descriptor has one
/// owner and is closed once: dropping it closes the descriptor
/// (`systemClose`); `handOver()` gives the number up without closing it,
/// to libuv (`uv_tcp_open`, `uv_pipe_open`) or to the next owner. A thrown
/// error between the two drops it, so no failure path leaks a descriptor
/// or has to remember to close one.
struct OwnedDescriptor: ~Copyable, Sendable {
    /// The descriptor's number, for system calls while it is owned.
    let descriptor: Int32

    /// Takes ownership of `descriptor`.
    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Gives the descriptor up without closing it.
    consuming func handOver() -> Int32 {
        let descriptor = self.descriptor
        discard self
        return descriptor
    }

    deinit {
        systemClose(descriptor)
    }
}
